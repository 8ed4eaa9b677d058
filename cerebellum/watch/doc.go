// Package watch notices hand edits in a workspace's capability folder with
// github.com/fsnotify/fsnotify. Watches are not recursive, so it watches the
// folder and every folder below it (adding new ones as they appear), and it
// debounces bursts of events (editors save by writing a temp file and
// renaming) into one "changes on disk" notice.
package watch
