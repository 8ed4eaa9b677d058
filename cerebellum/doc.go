// Package cerebellum is the capability engine: its job is what a
// conversation needs at run time — finding, loading and calling the
// capabilities it can use. Changing them (install, validate, trash, state
// and settings writes, tool policies, tuning, Resync, plugin checks, and the
// built-in skills capability that installs what the assistant writes) is
// package cerebellum/manage's job, which reaches the registry only through
// Hook (hook.go). The engine serves no management capability itself.
//
// Read these first:
//   - Registry (registry.go): the live set of capabilities, opened from
//     Options (the built-in tree, the workspace, the stores, the loaders);
//     it publishes an immutable Snapshot after every change.
//   - Capability (capability.go): one folder with a SKILL.md, its kind
//     (guide, plugin, MCP server), state and parsed manifest.
//   - Snapshot (snapshot.go): what a conversation sees at one moment —
//     capabilities by name, tool owners, the gate's patterns, tool_search.
//   - Session (session.go): a conversation's loaded set; Registry.Tools,
//     Index and Call (call.go) take one.
//   - Runtime and Loader (lifecycle.go): every interface through which a
//     plugin host, an MCP client or native Go code plugs in, beside the
//     lifecycle that loads runtimes on first use and closes them when their
//     capability changes.
//
// The rest, by file: index.go and toolbudget.go (what a request carries),
// discovery.go (tool_search and reading sources, served by the engine
// itself), hook.go (the door for cerebellum/manage) and the mechanisms
// behind it: resync.go, statewrite.go, checkplugins.go and tuning.go;
// settings.go (the values in force); workdirs.go (the staging and trash
// folders of the workspace layout); describe.go (a capability as the
// assistant reads it); mcp.go (MCP catalogs, tool names and reading
// policies), scan.go and cache.go (reading the trees; the cache file is
// internal/scancache).
//
// It does not own the safety gate (brain/gate), the plugin host (plugins/)
// or the workspace database (brain/store); those plug in through the
// interfaces above. Sentinel errors live in errors.go; errors a person can
// act on carry a hint (cerebellum/hint). The SKILL.md format and the rules
// are in docs/capabilities.md, the design and its measurements in
// docs/core.md and docs/performance.md.
package cerebellum
