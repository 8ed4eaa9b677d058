// Package sdk is the small library that plugin scripts import.
//
// A plugin is one Go package in a capability's plugin/ folder. It imports only
// the standard library and this package, and declares
//
//	func Init(env *sdk.Env) (*sdk.Plugin, error)
//
// which registers one Handler per tool its SKILL.md declares. The same source
// is interpreted by the host at run time (yaegi) and compiles natively, so
// plugins are unit-tested with plain `go test`.
//
// # Files
//
// A path a model gives is opened with the file API (Env.OpenArg,
// OpenDirArg, ParentArg, MkdirAllArg, CheckArg, RealPathArg and Dir's
// methods), never checked with Resolve and opened later: the API opens
// from a handle of the granted folder, one folder at a time, and checks
// what it actually opened against the protected paths, so a symbolic link
// flipped meanwhile cannot redirect a read or a write.
//
// Everything here is concrete types and plain functions on purpose: the
// interpreter can only pass interfaces across its boundary with generated
// wrappers, and a small surface keeps the exported symbol map stable.
package sdk
