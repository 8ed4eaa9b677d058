// Package search is the ranking engine behind tool_search: a lexical BM25F
// index over capabilities that answers "which capabilities fit this
// request?" in microseconds.
//
// # Documents and fields
//
// A Doc is one capability. Its text is indexed in six fields, each with its
// own weight and length normalisation: the name (capability name and ID),
// keywords (triggers, keywords, tags), tool names, the description, tool
// descriptions and guide headings. Names and keywords are short and precise
// and weigh most; descriptions are lightly length-normalised because one or
// two sentences say little about a topic through their length.
//
// # Terms
//
// Text is split into runs of Unicode letters and digits, each run further
// split at camelCase, snake_case, kebab-case and letter/digit boundaries
// ("getWeather" → get, weather); a run that splits is also kept whole
// ("mp3", "iphone") so identifiers match as written. Words are lower-cased,
// a small English stop-word list and single letters are dropped, and the
// rest are stemmed with Snowball (Porter2, github.com/kljensen/snowball).
// Run-together names ("airqualityforecast") are segmented into words known
// from the index's own text (see segment), at half weight. A query word
// whose stem the index lacks may match, at half weight, index stems sharing
// a prefix of at least four bytes with it ("rental" → "rent").
//
// # Scoring
//
// Each document's score is the BM25F sum over distinct query terms:
//
//	tf'  = Σ_fields weight_f · tf_f / (1 − b_f + b_f · len_f / avglen_f)
//	score += idf^1.5 · tf' · (k1 + 1) / (k1 + tf')      (k1 = 1.2)
//
// with the Okapi/Lucene idf = ln(1 + (N − df + 0.5) / (df + 0.5)). Every
// term's contribution to every document is query-independent but depends on
// the whole index (N, df, average lengths), so postings keep the per-field
// counts and an index computes a term's weights the first time it is
// searched; later searches only add.
//
// # Updates
//
// Update makes the index of the next registry state from the previous one
// and what changed: the changed documents' postings are replaced, and only
// documents whose run-together names split differently (a word became
// known, or stopped being) are counted again. Tables are shared between
// versions chunk by chunk and maps as a shared base plus a small delta, so
// the old index stays searchable and an update copies little besides the
// posting lists of the changed documents' terms. An updated index ranks
// exactly as Build of the same documents (the tests compare them).
//
// # Exact names
//
// A query that is, ignoring case, spaces, hyphens and underscores, the name
// of a capability or of one of its tools ranks that capability first with
// Hit.Exact set, whatever the scores; a tool match also sets
// Hit.MatchedTool. Capability-name matches come before tool-name matches.
//
// # Determinism and concurrency
//
// Results depend only on the documents (not their order, nor the updates
// that led to them) and the query: ties break by ID ascending and nothing
// iterates a map into a result. An Index is immutable once built; Search
// is safe for concurrent use, also while Update makes the next index, and
// draws its working memory from a pool.
//
// Quality on the MetaTool benchmark and the baselines it is measured
// against live in the eval subpackage.
package search
