// Package jsonline holds the small JSON pieces both fixed-shape wire
// formats use (the plugin process's and code mode's): reading an unsigned
// integer and telling whether a string is written as it is. Each wire
// keeps its own message shapes; anything off the fast path goes through
// encoding/json.
package jsonline
