package hostsyms

import (
	"reflect"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// SDKKey is the Exports key of the SDK: "<import path>/<package name>".
const SDKKey = SDKPath + "/sdk"

// Exports returns a fresh copy of the host symbol maps for one interpreter.
//
// Package-level variables are added as plain (non-addressable) values, so a
// plugin can read sdk.ErrOutsideRoots and compare errors with it but cannot
// reassign it for the whole process.
func Exports() map[string]map[string]reflect.Value {
	out := make(map[string]map[string]reflect.Value, len(Symbols))
	for key, syms := range Symbols {
		m := make(map[string]reflect.Value, len(syms)+1)
		for name, v := range syms {
			m[name] = v
		}
		out[key] = m
	}
	out[SDKKey]["ErrOutsideRoots"] = reflect.ValueOf(sdk.ErrOutsideRoots)
	out[SDKKey]["ErrProtected"] = reflect.ValueOf(sdk.ErrProtected)
	out[SDKKey]["ErrNoSandbox"] = reflect.ValueOf(sdk.ErrNoSandbox)
	out[SDKKey]["ErrHostNotAllowed"] = reflect.ValueOf(sdk.ErrHostNotAllowed)
	out[SDKKey]["ErrLink"] = reflect.ValueOf(sdk.ErrLink)
	return out
}
