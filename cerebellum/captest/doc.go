// Package captest generates realistic, deterministic capability folders for
// tests and benchmarks: SKILL.md files with 0 to 20 tools, descriptions of
// realistic length and search terms, and optionally small plugins.
// The same seed always gives the same bytes.
package captest
