// Package bench measures Wrasse against its performance targets for
// cmd/wrasse-bench. Every figure is measured in the same run beside its
// baseline and reported as one Row of a table.
//
// # Sections
//
//   - prompt: the capability index and a request's tool schemas, in real BPE
//     tokens (o200k_base), on generated workspaces of 40 to 10,000
//     capabilities, beside the full capability list and every tool's schema.
//   - search quality: recall@1 and recall@5 of tool_search on the MetaTool
//     tool-selection data, ranked through a real registry over capability
//     folders made from the data, beside plain Okapi BM25 and substring
//     scoring.
//   - search latency: p50 and p99 of tool_search at 1,000 and 10,000
//     capabilities, beside substring scoring of the same queries.
//   - start-up: wall time of a new `wrasse caps list` process on a workspace
//     of 1,000 capabilities (50 plugins), beside an empty workspace.
//   - plugins: first interpretation of each built-in plugin, and the cost of
//     one trivial tool call through the registry and the plugin host beside
//     the same handler compiled into the binary.
//   - memory: peak resident memory (VmHWM) of child processes holding a
//     1,000-capability registry or a loaded 5,000-message conversation,
//     beside an idle child.
//
// # Child processes
//
// Start-up and memory are measured in fresh processes. Memory children are
// this program run again with a hidden subcommand (see RunChild) and the
// environment variable named by ChildEnv set, so a test binary can serve as
// the child too.
//
// Wall-clock figures depend on the machine and on what else runs on it;
// they belong in this command and in `go test -bench`, never in a test's
// assertions. The one figure that is also a test is the index token budget.
package bench
