// Package manage changes the capabilities of a workspace: it is the one
// place that writes what the engine (package cerebellum) reads.
//
// Read these first:
//   - Manager (manage.go): built from a *cerebellum.Registry and Options;
//     every change below is a Manager method.
//   - cerebellum.Hook (cerebellum/hook.go): the small door through which a
//     Manager reaches the registry's locks and private state; nothing else
//     uses it (TestOnlyManageUsesTheHook).
//
// By file: state.go (enable, disable, grants, an MCP server's network),
// settings.go (writing the values of capability settings).
//
// A running conversation never needs this package: it uses the Registry.
// The split is enforced by split_test.go: the Registry's exported methods
// are a fixed run-time set, and cerebellum does not import manage.
package manage
