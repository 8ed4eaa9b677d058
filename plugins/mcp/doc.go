// Package mcp runs MCP servers as capabilities: a cerebellum.Loader for
// KindMCP over the official Go SDK (github.com/modelcontextprotocol/go-sdk).
//
// A capability whose SKILL.md has an `mcp:` block gets a Runtime per
// loaded capability (a server). Nothing runs at Load: the server starts
// on Start (its capability was activated) or on the first call, and the
// Runtime then:
//   - connects over stdio (the command in its own process group, with an
//     environment of only PATH, HOME and what the block declares; the
//     whole group ends with it, so an npx wrapper leaves no child behind)
//     or streamable HTTP (with the block's headers), within the connect
//     timeout (default 30 s);
//   - lists tools, prompts and resources and tells the engine
//     (LoadRequest.Learn), again on notifications/tools/list_changed;
//   - calls tools within the call timeout (default 120 s); cancelling the
//     caller's context cancels the call (the SDK sends
//     notifications/cancelled);
//   - keeps the last lines of the server's stderr and shows them with any
//     connect or call failure;
//   - stops after an idle time (default 10 min) and starts again on the
//     next call; a crash is reported in Status and the next call
//     restarts the server, after a growing pause once it crashed twice in
//     a row.
//
// ${secret:NAME} in env and headers (and the older secrets: map) are
// resolved through Options.Secrets when the server starts, each only if
// Options.SecretAllowed lets the capability use it (ErrSecretRefused);
// the values are cut from the server's output before it is shown or
// logged. A secret never goes in the command line (readable by every
// process). Headers go only to the origin of the block's url, and a
// redirect to another origin fails (ErrCrossOriginRedirect) rather than
// carrying them, or the request, there.
//
// Results become text for the model: text content as is, audio described
// as an attachment it cannot hear, resource links and embedded resources
// by URI, structured content as JSON; images (and embedded image
// resources) become Result.Images, which the provider sends to a model
// that takes images and describes to one that does not. A server's error
// result and a protocol error both become an error result naming the
// server.
//
// For the composer and `wrasse mcp prompts|prompt|resources|read`, the
// loader lists a server's prompts (Loader.Prompts) and gets one filled in
// (GetPrompt), lists its resources and resource templates (Resources;
// Expand fills a template), reads one (ReadResource) and subscribes to
// its changes (Subscribe: notifications/resources/updated reach the
// subscribers of that URI; a subscribed server is not stopped when idle).
// These reach only usable MCP capabilities, starting the server if needed
// (prompts.go, resources.go).
//
// The loader also serves the built-in `mcp` capability's mcp_resources
// tool (cerebellum.NativeProvider), which lists and reads the resources of
// MCP capabilities by URI.
package mcp
