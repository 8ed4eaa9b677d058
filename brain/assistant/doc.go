// Package assistant is Wrasse's application core: one opened workspace with
// everything wired (config, log, database, plugin host, capability
// registry, model provider, conversation engine), offered to the front
// ends. The desktop window (ui/) and the CLI (cmd/wrasse) both drive an
// *App and copy none of its logic.
//
// What it owns:
//   - Opening and closing a workspace (Open, Close), and being its only
//     owner: the database lock keeps a second process out, and the
//     instance socket (Serve, Dial) lets a second `wrasse` hand its work to
//     the running one instead of failing.
//   - Live reconfiguration: UpdateConfig and the SetAPIKey/DeleteSecret
//     calls build the new model state, swap it in for the next turn and
//     close the old one; turns already running finish on what they began
//     with. Subscribe tells front ends what changed.
//   - The permission policy: which folders and hosts a plugin reaches
//     (policy.go), decided once here.
//   - Capability management through the registry (install, validate,
//     remove, restore, enable, grant, revoke, settings, resync, watch),
//     each change serialised and announced.
//   - Turns: Turn runs one turn of a conversation with the caller's
//     Approver and Sink; Resend and Regenerate replace what followed a
//     message, keeping it as a version that SwitchVersion brings back
//     (versions.go); CallTool runs one tool through the same gate
//     without a model.
package assistant
