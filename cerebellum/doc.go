// Package cerebellum is the capability engine: it finds, validates, loads
// and calls the capabilities a conversation can use.
//
// It owns:
//   - the Registry: the live set of capabilities read from the built-in tree
//     (brain/cerebellum, embedded) and the workspace tree
//     (<workspace>/brain/cerebellum), published as immutable Snapshots;
//   - the user's decisions about each capability (enable, disable, grants),
//     persisted through a StateStore, and the values of the settings each
//     capability declares in SKILL.md, validated and persisted through a
//     SettingsStore and handed to its runtime in LoadRequest.Settings;
//   - runtimes: plugins and MCP servers are brought to life by Loaders on
//     first use and closed when their capability changes;
//   - the call pipeline: argument and result schemas, result size caps;
//   - Sessions (a conversation's loaded set, least recently used first out),
//     the capability index in the system prompt, and tool_search;
//   - install, validate, remove, restore and Resync of workspace capabilities.
//
// It does not own the safety gate (brain/gate), the plugin host (plugins/)
// or the workspace database (brain/store); those plug in through interfaces.
// Sentinel errors live in errors.go; errors a person can act on carry a
// hint (cerebellum/hint) naming the command or page that fixes them.
// The format and rules are documented in docs/capabilities.md.
package cerebellum
