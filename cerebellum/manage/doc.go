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
// settings.go (writing the values of capability settings), policy.go (an
// MCP tool's policy), tuning.go (pins and budgets), resync.go (Resync,
// Pending and plugin checks), install.go (Install, Survey, InstallCollection,
// Remove, Trash, Restore, Sweep), validate.go (Validate and its Report),
// authoring.go (the built-in skills capability: its runtime, Authoring, is
// handed to cerebellum.Options.Native under AuthoringName, as the app's
// history and tasks runtimes are). Where a change must publish a snapshot
// or swap what the engine reads under its lock (Resync, plugin checks,
// tuning, republishing after a settings write), the mechanism stays in
// cerebellum behind a Hook method and only the entry point is here.
//
// A running conversation never needs this package: it uses the Registry.
// The split is enforced by split_test.go: the Registry's exported methods
// are a fixed run-time set, and cerebellum does not import manage.
package manage
