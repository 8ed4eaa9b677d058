// Package tokens counts tokens with a real BPE tokenizer (o200k_base or
// cl100k_base, ranks embedded through tiktoken-go-loader). The capability
// index uses a cheaper conservative estimate at run time; tests and
// cmd/wrasse-bench use this package to prove the estimate keeps the index
// within its budget.
package tokens
