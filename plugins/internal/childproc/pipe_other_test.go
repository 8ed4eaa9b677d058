//go:build !unix

package childproc

import (
	"os"
	"runtime"
	"testing"
	"time"
)

// The goroutine that gives a plugin process's stdout deadlines here ends
// when the host closes it, also while it holds output nobody reads (it
// waited to hand that over for ever, with the pipe).
func TestChunkReaderEndsAtClose(t *testing.T) {
	base := runtime.NumGoroutine()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	c := HostReader(r).(*chunkReader)
	if _, err := w.Write([]byte("a reply the host gave up on\n")); err != nil {
		t.Fatal(err)
	}
	c.Close()
	settled(t, base)
}

// settled waits (bounded) for the goroutines to go back to base.
func settled(t *testing.T, base int) {
	t.Helper()
	end := time.Now().Add(6 * time.Second)
	for runtime.NumGoroutine() > base && time.Now().Before(end) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base {
		buf := make([]byte, 1<<20)
		t.Fatalf("%d goroutines; %d before:\n%s", n, base, buf[:runtime.Stack(buf, true)])
	}
}
