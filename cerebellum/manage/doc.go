// Package manage changes the capabilities of a workspace: its job is
// writing what the engine (package cerebellum) reads at run time.
//
// Read these first:
//   - Manager (manage.go): built from a *cerebellum.Registry and Options;
//     every change below is a Manager method.
//   - cerebellum.Hook (cerebellum/hook.go): the small door through which a
//     Manager reaches the registry's locks and private state; nothing else
//     uses it (TestOnlyManageUsesTheHook).
//
// By file: state.go (enable, disable, grants, an MCP server's network),
// settings.go (writing the values of capability settings), resync.go (Resync,
// Pending and plugin checks: entry points whose mechanism stays behind the
// Hook, since it publishes snapshots).
//
// Install, validate, trash and the built-in skills capability are still
// Registry methods (cerebellum/install.go, validate.go, authoring.go): they
// are the next to move.
//
// A running conversation never needs this package: it uses the Registry.
// The split is enforced by split_test.go: the Registry's exported methods
// are a fixed run-time set, and cerebellum does not import manage.
package manage
