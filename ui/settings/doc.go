// Package settings is the desktop app's settings view: one AppTabs with
// the Model, Instructions, Capabilities, Folders, Shell, Web, MCP servers
// and Tasks pages, in a scroll so that no page raises the window's
// minimum size (the window would grow).
//
// Every page reads and changes the application core (brain/assistant)
// through the bridge.Env it is built from, and copies none of its logic:
// validation, installing, Resync and the per-capability settings are the
// core's. Work that touches disk or network runs through env.Go and hands
// its result back through env.Do; core events (Subscribe) refresh the
// pages the same way, so tests that pass inline runners see every update
// in order.
//
// Files are named after what they show: model.go (provider, base URL,
// model, thinking, key, context window, Test; one set of values per
// provider), pullpanel.go (a model's download with its progress),
// instructions.go (the identity and standing instructions: editor, Save,
// Undo, Reset to default, and the system prompt the model gets),
// firstrun.go and firstrunsetup.go (the page a new workspace opens on,
// shown by the window in the chat's place), capabilities.go (the page) with
// caprow.go (one row of the virtualised list), capdetail.go (the selected
// capability), importer.go (file picker and drops), diskbanner.go (the
// watcher's banner), trash.go, indexpreview.go; folders.go;
// dependent.go (the three-state check shared by pages that need a
// capability) with shell.go and web.go; codeblock.go and problem.go are
// the small widgets the pages share; escape.go holds the entry, check box,
// select and button every page uses, which let Esc through to the window (back to
// the chat) when they have the focus.
package settings
