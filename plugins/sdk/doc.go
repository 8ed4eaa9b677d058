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
// Everything here is concrete types and plain functions on purpose: the
// interpreter can only pass interfaces across its boundary with generated
// wrappers, and a small surface keeps the exported symbol map stable.
package sdk
