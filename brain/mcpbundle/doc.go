// Package mcpbundle reads MCP bundles (.mcpb, formerly .dxt: the zip
// archives Claude Desktop installs as extensions) and turns one, with the
// person's answers to its user_config, into a capability folder whose
// SKILL.md has an `mcp:` block.
//
// # What is checked, before anything is written
//
// Open reads only the archive's central directory and manifest.json
// (MANIFEST.md of modelcontextprotocol/mcpb, manifest_version 0.1 to 0.3,
// and dxt_version for .dxt files): name, version, description,
// author.name, server.type (node, python or binary; uv is refused),
// server.entry_point (a relative path present in the archive),
// server.mcp_config (command, args, env, platform_overrides) and each
// user_config entry (type string, number, boolean, directory or file;
// title; a default of that type; min/max only for numbers and in order;
// sensitive only for strings; multiple only for directory and file).
// compatibility.platforms must name this system when given. Every
// ${user_config.KEY} in mcp_config must be declared.
//
// # Answers and secrets
//
// Plan checks the answers (required fields, numbers in range, booleans,
// defaults filled in with ${HOME}, ${DESKTOP}, ${DOCUMENTS} and
// ${DOWNLOADS} expanded) and substitutes them. A sensitive value never
// reaches the folder: it becomes a secret named mcp.<name>.<KEY> and the
// block references it as ${secret:NAME}. Secrets reach a server through
// its environment only (its command line is readable by every process), so
// a bundle that puts a sensitive value in args is refused. ${__dirname} is
// the capability folder, which is the server's working folder: it becomes
// a relative path.
//
// # Extraction
//
// Extract unpacks the archive into a new folder with the limits of
// capability install (stage.DefaultLimits: files, bytes per file and in
// total, compression ratio, depth), through an os.Root, metering bytes
// while inflating. Links, devices, absolute or escaping names, NUL and
// control characters, names that collide case-insensitively, encrypted
// entries and methods other than store and deflate are refused; __MACOSX
// and .DS_Store are skipped. Unlike stage, node_modules is kept: a Node
// bundle's dependencies are its code (the spec bundles them there).
package mcpbundle
