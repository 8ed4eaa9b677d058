// Package fakeserver is test support for the provider packages: an
// httptest server that plays scripted replies (SSE transcripts, error
// bodies, replies that hang until the client leaves) and records the
// requests it received, plus an in-memory transport for fuzzing. It is only
// imported by tests.
package fakeserver
