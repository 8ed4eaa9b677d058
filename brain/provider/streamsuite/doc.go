// Package streamsuite holds only tests: one suite that drives the SDK
// providers (anthropic, openai) through the same cases from a table of
// providers, so a property checked of one is checked of both. Each
// provider's own tests keep what only its wire format has.
package streamsuite
