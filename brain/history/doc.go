// Package history serves the built-in `history` capability natively: the
// tools history_search and history_read let the model find and read the
// user's past conversations in the workspace database. Its SKILL.md lives
// in brain/cerebellum/history; the registry runs this Runtime for it
// (cerebellum.Options.Native[history.Name]).
//
// The capability is not core: it costs nothing until the model needs it,
// its index line says what it does, and tool_search (or a direct call)
// loads it. Everything it shows comes from the store, where secrets are
// already redacted.
//
// Render turns events into the numbered text both the tool and the CLI's
// `conversations show` print.
package history
