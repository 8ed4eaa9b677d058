package plugins

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// Plugin output is rate-limited per plugin: a burst of logBurst lines,
// then logRate lines a second. What is dropped is counted and the count
// logged when output is let through again, so a plugin printing in a loop
// cannot fill the disk or drown the log.
const (
	logBurst = 200
	logRate  = 50
)

// logLimit is one plugin's token bucket, shared by its stdout and stderr.
type logLimit struct {
	now func() time.Time

	mu      sync.Mutex
	tokens  float64
	last    time.Time
	dropped int
}

func newLogLimit(now func() time.Time) *logLimit {
	if now == nil {
		now = time.Now
	}
	return &logLimit{now: now, tokens: logBurst, last: now()}
}

// take reports whether one more line may be logged, and how many lines
// were dropped before it (reported once).
func (l *logLimit) take() (ok bool, dropped int) {
	if l == nil {
		return true, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	t := l.now()
	l.tokens += t.Sub(l.last).Seconds() * logRate
	if l.tokens > logBurst {
		l.tokens = logBurst
	}
	l.last = t
	if l.tokens < 1 {
		l.dropped++
		return false, 0
	}
	l.tokens--
	dropped, l.dropped = l.dropped, 0
	return true, dropped
}

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
	// limit rate-limits the lines logged (nil: no limit).
	limit *logLimit

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
	ok, dropped := w.limit.take()
	if !ok {
		return
	}
	if dropped > 0 {
		w.log.Warn("plugin output was rate-limited", "dropped_lines", dropped)
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
