// Package gate is Wrasse's safety gate: it decides, before a tool runs,
// whether the call may run, must be approved by the user, or is refused.
//
// There are only a few types to read first. A Call (a tool, its
// arguments, what is known of the tool) is checked by CheckIn against a
// registry snapshot's Rules (its patterns, prepared once by Compile) and
// an Env (the home folder, the granted folders, the person's own rules).
// The answer is a Verdict: a Decision (Allow, Confirm or Block), the
// reasons, the hosts reached and the scope an approval would cover. A
// Confirm goes to an Approver as a Request; Grants hold what the person
// approved for the rest of the conversation. ShellInfo is what
// AnalyzeShellIn read of a command line. The rest of this comment says
// how each is decided.
//
// # What is matched
//
// A call is the line `tool + " " + CanonicalJSON(arguments)`: object keys
// sorted recursively, compact, without HTML escaping, so a pattern sees one
// spelling of any argument set however the model formatted it. Arguments
// that are not valid JSON are matched as written (the registry rejects such
// a call anyway; matching them costs nothing and fails safe).
//
// Canonical JSON still escapes: a real tab in a command is the two
// characters `\t` there, which `\s` does not match, and `"rm" -r x` or
// `r""m -rf /` spell rm in ways a word pattern misses. So each pattern is
// matched against several renderings of the same call (Renderings) and any
// match counts: the canonical line; the line with string escapes decoded
// (real tabs, newlines and quotes; `.` then spans line breaks); and that
// line with quote characters and backslashes removed from string values.
// Extra renderings can only add matches, so they can make the gate
// stricter, never looser.
//
// Every pattern of every usable capability (cerebellum.Snapshot.Patterns,
// compiled once per registry state and case-insensitive) is tried, and all
// matches are collected, not only the first:
//
//   - any danger pattern matches → Block: the call never runs and the model
//     is told why. No approval can override a block.
//   - else any confirm pattern matches → Confirm.
//   - a tool annotated destructive asks too, whenever no danger pattern
//     blocked it → Confirm, with "marked destructive" among the reasons.
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
// # What the gate reads itself
//
// Patterns are text. The gate also reads a call as the computer will see
// it, given an Env (the home folder, the granted folders, the workspace,
// the person's allowed commands and private paths; Check uses
// DefaultEnv, the real home folder of the process):
//
//   - A command line is parsed (AnalyzeShellIn) with the grammars of both
//     shells /bin/sh may be, dash and bash, and each simple command is
//     matched again as the shell will see it: ~, ~name, $HOME, ${HOME%/},
//     $PWD, the line's own variables and a for loop's values expanded,
//     following what subshells and branches set (shell.go,
//     shellexpand.go). Where the two grammars differ, or the line holds a
//     control character the parser reads otherwise than the shell, it
//     asks every time.
//   - Blocks patterns cannot see: a recursive delete of the home folder or
//     a folder holding it (rm -rf /root, rm -rf ${HOME:?}), Wrasse's
//     database and settings also through a glob (wrasse.d?, config.js*),
//     another process's folder under /proc.
//   - Calls that ask every time (Verdict.AlwaysAsk): what runs is decided
//     at run time (ShellInfo.Dynamic); shells, interpreters given code or
//     a script, programs that run what their options say, assignments
//     that change what runs, recursive deletes (ShellInfo.Always); a
//     credential store named by any tool (CredentialStores), at any
//     depth of its arguments and also through a symbolic link (the one
//     place the gate reads the file system: a link is known only there),
//     or held in a folder fs_grep searches; a write into .git/config or
//     .git/hooks; system_open of a local page, shortcut or playlist, or of
//     a mailto: address; a path outside the granted folders, or one known
//     only when the command runs.
//   - The hosts a call reaches (Verdict.Hosts): URL arguments at any
//     depth and the network and lookup programs of a command line (curl,
//     ssh, ping, dig…), internationalised names in their xn-- form. The gate only reports them;
//     whether this conversation may reach a host is the agent's to decide.
//   - The person's allowed command patterns (CommandRule) let a plain
//     command line run without asking, never one that asks every time or
//     matches a confirm pattern.
//
// # Remembering "approve for this conversation"
//
// Grants records such answers per conversation, keyed by the tool and the
// confirm patterns that matched (capability + pattern text), plus the tool and
// "destructive" for the annotation default, a key of its own, each within
// the call's scope: for the shell the same parsed command line (programs,
// arguments, variable assignments, redirections) in the same working
// folder, for tools with a path the same path (and the same destination
// or local target when they name one), for others the tool. A
// later call is approved without asking when every one of its keys was
// granted: approving `ls -la` covers `ls -la` again, not `ls -l` nor `ls
// -la; rm x`. The agent persists each answer as an approval event and
// rebuilds Grants from the stored history (re-evaluating the recorded
// call against the current patterns), so the memory survives a restart
// but not the conversation: a new conversation asks again.
package gate
