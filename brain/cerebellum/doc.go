// Package builtin holds the capabilities that ship with Wrasse, one
// folder each (SKILL.md, and for plugins a plugin/ folder of Go source),
// embedded into the binary. The registry reads them through FS with the
// badge Official; plugin sources are interpreted at run time by the plugin
// host and also compile natively, so `go vet ./...` and plain unit tests
// cover them.
//
// It lives in brain/cerebellum but is named builtin so that it is not
// confused with the top-level cerebellum package, the capability engine.
package builtin
