package std

import (
	"reflect"
	"sync"
)

// symbols builds the maps once, on the first interpreter's demand: filling
// them costs ~0.25 MB and a thousand allocations, which every process paid
// at start when the copied files filled them in init, though most never
// run a plugin.
var symbols = sync.OnceValue(func() map[string]map[string]reflect.Value {
	s := make(map[string]map[string]reflect.Value, 128)
	mapTypes := map[reflect.Value][]reflect.Type{}
	load(s, mapTypes)
	// MapTypes lists, per library function or interface, the interfaces
	// it looks for in its arguments (fmt.Stringer for fmt.Sprint, ...), so
	// that the interpreter wraps interpreted values with those methods. It
	// is registered under the "." key, where the interpreter reads it.
	s["."] = map[string]reflect.Value{"MapTypes": reflect.ValueOf(mapTypes)}
	return s
})

// Symbols maps "<import path>/<package name>" to the exported symbols of
// each package, as interp.Exports expects. It is built on the first call
// and the same maps are returned after; they must not be changed.
func Symbols() map[string]map[string]reflect.Value { return symbols() }
