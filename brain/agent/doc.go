// Package agent runs conversation turns: the loop between the user, the
// model and the capabilities.
//
// Read first: Agent (Turn runs one turn in a conversation the caller
// entered: brain/assistant's App.Turn checks the message, creates or finds
// the conversation and claims it, and hands the record it read to TurnIn,
// so a turn reads it once), Sink (what a front end sees of a turn),
// and CallTool (one call without a model, through the same gate and
// cerebellum.Registry.Prepare/Run as a turn's).
//
// # A turn
//
// Turn stores the user's message, then repeats one step until the model
// answers without calling tools: build the request (system prompt and
// tools, rebuilt whenever the conversation's loaded capabilities or the
// registry change, so a capability loaded by tool_search, tool_activate or
// a direct call is offered at the next step of the same turn), fit the
// history into the context window, stream the reply, and run the tool
// calls in order. Steps are bounded by MaxSteps.
//
// # The prompt cache
//
// Requests keep their front still within a conversation, so the
// provider's prompt cache serves it (layout.go): the system prompt carries
// the stable capability index and is byte-identical across loads and
// evictions; the tools array is core and pinned, then the loaded
// capabilities in load order; every loadable tool is offered as
// Request.Deferrable, and the result of a call that loaded a capability
// names its tools (Event.ToolRefs), which a provider with deferred tools
// sends as references. Options.Layout = LayoutLegacy builds requests as
// before, for wrasse-bench's comparison.
//
// Every event is stored the moment it happens (the reply text in committed
// batches: 512 bytes or an eighth of the reply so far, whichever is more,
// or every 250 ms by Options.Clock) and the same stored event goes to the
// Sink, so what the user sees is what the history holds. The model's
// history is rebuilt from the stored events at each step
// (store.ToMessages), so secrets reach neither the store, the log nor the
// model: the store redacts them to [redacted:NAME], and streamed text
// reaches the Sink redacted too, with an ending that may be the start of
// a secret held back until the next piece. Keys that are not stored (from
// the environment) are redacted once given to store.DB.AddRedaction.
//
// # Tool calls and the gate
//
// Each call the registry would accept (a known tool, arguments that are
// JSON) goes through the safety gate (package gate), told the computer
// (Options.GateEnv) and the person's rules (the shell's allowedCommands
// and privatePaths settings): a block becomes a denial the model reads; a
// confirmation asks the Approver, unless the user approved exactly that
// call for this conversation or an allowed command pattern matches it.
//
// Nothing leaves quietly (hosts.go): a call reaching a network host the
// conversation has not used (the gate reads URL arguments and network
// programs) asks too, showing the full URL, unless the web capability's
// trustedHosts lists it; and every call runs with an sdk.HostCheck on its
// context, so a plugin reaching a host in the middle of a call (a
// redirect) asks then. "For this chat" remembers the hosts.
//
// Each decision is stored as an approval event (with the hosts it was
// about); "approve for this conversation" answers are replayed from those
// events at the start of every turn, so they survive a restart. Then the
// registry runs the call and the result is stored.
//
// # Failures and cancellation
//
// A provider failure keeps what was already said (the reply is finished as
// interrupted), gives any calls of that reply a "not run" result, and adds
// an error event that says plainly what went wrong and, when no model
// answers, how to set one up. Cancelling ctx ends streaming and running
// tools promptly; the partial reply is finished as interrupted and every
// call without a result gets an "interrupted" one, so the next turn sends a
// well-formed history.
//
// # Context budget
//
// Fit estimates tokens (cerebellum.EstimateTokens by default, one per three
// bytes, an over-estimate) and, past Limit(ContextWindow), trims older tool
// results, then drops and summarises older turns, never the system prompt
// or the current turn; see Fit. If the provider still reports the context
// exceeded before anything was said, the step is retried once at half the
// budget.
//
// # Code mode
//
// run_go (codemode.go) runs a Go program whose functions are the tools
// (plugins/codemode). Its runtime, CodeMode, gets the running turn in the
// call's context, and every call the program makes goes through runCall
// like a call of the model's, stored as its own events with
// store.Event.ParentCallID set to the program's call; ToMessages leaves
// them out, so the model reads only what the program printed. run_go's
// description lists the Go signatures of the core and pinned tools
// (codeModeDefs); a call that loads a capability gives its functions in
// its result (codeModeLoadNote), so the description never changes within
// a conversation.
package agent
