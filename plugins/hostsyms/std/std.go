package std

import "reflect"

// Symbols maps "<import path>/<package name>" to the exported symbols of
// each package, as interp.Exports expects. The copied files fill it in
// init.
var Symbols = map[string]map[string]reflect.Value{}

// MapTypes lists, per library function or interface, the interfaces it
// looks for in its arguments (fmt.Stringer for fmt.Sprint, ...), so that
// the interpreter wraps interpreted values with those methods. It is
// registered under the "." key, where the interpreter reads it.
var MapTypes = map[reflect.Value][]reflect.Type{}

func init() {
	Symbols["."] = map[string]reflect.Value{"MapTypes": reflect.ValueOf(MapTypes)}
}
