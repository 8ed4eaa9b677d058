package plugins

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
)

// maxLogLine bounds one logged line of plugin output.
const maxLogLine = 4096

// lineWriter turns a plugin's Stdout or Stderr into slog records, one per
// line, tagged with the capability. It also remembers the interpreter's
// "panic:" lines, which carry the source position of a panic.
type lineWriter struct {
	log   *slog.Logger
	level slog.Level
	// clean rewrites virtual GOPATH paths to plugin/…
	clean func(string) string

	mu     sync.Mutex
	buf    []byte
	panics []string // recent panic lines, oldest first
	seq    int      // number of panic lines ever seen
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			break
		}
		w.emit(string(w.buf[:i]))
		w.buf = w.buf[i+1:]
	}
	if len(w.buf) > maxLogLine {
		w.emit(string(w.buf))
		w.buf = w.buf[:0]
	}
	return len(p), nil
}

func (w *lineWriter) emit(line string) {
	line = strings.TrimRight(line, "\r")
	if w.clean != nil {
		line = w.clean(line)
	}
	if strings.Contains(line, ": panic: ") || strings.HasPrefix(line, "panic: ") {
		w.panics = append(w.panics, line)
		if len(w.panics) > 16 {
			w.panics = w.panics[1:]
		}
		w.seq++
	}
	if strings.TrimSpace(line) == "" {
		return
	}
	w.log.Log(context.Background(), w.level, line)
}

// mark returns the panic line count, to find lines written after it.
func (w *lineWriter) mark() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.seq
}

// firstPanicSince returns the first panic line seen after mark (the
// innermost frame), or "".
func (w *lineWriter) firstPanicSince(mark int) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := w.seq - mark
	if n <= 0 {
		return ""
	}
	if n > len(w.panics) {
		n = len(w.panics)
	}
	return w.panics[len(w.panics)-n]
}
