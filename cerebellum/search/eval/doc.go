// Package eval measures tool_search: it loads tool-retrieval data sets in
// the MetaTool format, maps their tool names to valid capability names and
// back, runs the queries through rankers and reports recall@1, recall@5 and
// MRR. It holds the two baselines tool_search is compared with (plain Okapi
// BM25, and the naive substring scoring of the reference product), a
// generator of realistic synthetic capability corpora and queries for
// benchmarks, and a per-query latency probe.
//
// # Data format
//
// A data set is two files: a JSON object of tool name → description, and
// a CSV with a header naming Query and Tool columns (any order, extra
// columns ignored, quoted commas and newlines allowed), where Tool is a key
// of the JSON object. Each tool becomes one capability holding only its
// name and description, so every ranker sees the same text.
//
// # MetaTool
//
// testdata/metatool holds the development split of the MetaTool benchmark
// (HowieHwong/MetaTool, MIT licence, see its LICENSE): 199 tools and 4,000
// of its 20,614 single-tool queries. The other queries are held out
// elsewhere to check that improvements generalise; search is improved by
// general means only, never by looking at individual queries.
package eval
