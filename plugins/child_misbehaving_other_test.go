//go:build !unix

package plugins

import (
	"os"
	"runtime"
	"testing"
)

// The goroutine that gives a plugin process's stdout deadlines here ends
// when the host closes it, also while it holds output nobody reads (it
// waited to hand that over for ever, with the pipe).
func TestReviewChunkReaderEndsAtClose(t *testing.T) {
	base := runtime.NumGoroutine()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	c := hostReader(r).(*chunkReader)
	if _, err := w.Write([]byte("a reply the host gave up on\n")); err != nil {
		t.Fatal(err)
	}
	c.Close()
	settled(t, base)
}
