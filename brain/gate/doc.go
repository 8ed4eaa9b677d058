// Package gate is Wrasse's safety gate: it decides, before a tool runs,
// whether the call may run, must be approved by the user, or is refused.
//
// # What is matched
//
// A call is the line `tool + " " + CanonicalJSON(arguments)`: object keys
// sorted recursively, compact, without HTML escaping, so a pattern sees one
// spelling of any argument set however the model formatted it. Arguments
// that are not valid JSON are matched as written (the registry rejects such
// a call anyway; matching them costs nothing and fails safe).
//
// The line is matched against every danger and confirm pattern of every
// usable capability (cerebellum.Snapshot.Patterns, compiled once per
// registry state and case-insensitive), and all matches are collected, not
// only the first:
//
//   - any danger pattern matches → Block: the call never runs and the model
//     is told why. No approval can override a block.
//   - else any confirm pattern matches → Confirm.
//   - else the tool is annotated destructive and its own capability declares
//     no pattern naming it → Confirm. A capability whose patterns name a
//     tool (`^shell_exec …`, `^(fs_write|fs_patch) …`) has said which calls
//     of it are risky, so the annotation does not make every call ask.
//   - else Allow.
//
// Patterns are global: a capability may add policy for another's tools
// (`^shell_exec .*docker`). The built-in ones anchor on their own tool names.
//
// # Asking
//
// Confirm goes to an Approver, which the desktop UI and the CLI implement:
// approve once, approve for the rest of the conversation, or deny. DenyAll
// is the Approver when no one can be asked (headless, no terminal): the call
// is denied, failing closed. An error from an Approver also denies.
//
// # Remembering "approve for this conversation"
//
// Grants records such answers per conversation, keyed by the tool and the
// confirm patterns that matched (capability + pattern text), or the tool and
// "destructive" for the annotation default. A later call is approved without
// asking when every one of its keys was granted: approving `sudo` for
// shell_exec does not approve `git push`, nor sudo for another tool. The
// agent persists each answer as an approval event and rebuilds Grants from
// the stored history (re-evaluating the recorded call against the current
// patterns), so the memory survives a restart but not the conversation: a
// new conversation asks again.
package gate
