// Package cerebellum holds the capabilities that ship with Wrasse, one
// folder each (SKILL.md, and for plugins a plugin/ folder of Go source),
// embedded into the binary. The registry reads them through FS with the
// badge Official; plugin sources are interpreted at run time by the plugin
// host and also compile natively, so `go vet ./...` and plain unit tests
// cover them.
//
// Import it as builtin to avoid confusion with the top-level cerebellum
// package, which is the capability engine.
package cerebellum
