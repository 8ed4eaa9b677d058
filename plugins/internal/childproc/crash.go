package childproc

import (
	"fmt"
	"strings"
	"sync"
)

// What a child process that died leaves: the Go runtime's report, kept
// (bounded) from its raw output and summed up in one line for an error.

// Summary picks the Go runtime's explanation out of a crash report: the
// "fatal error:" or "panic:" line, with the "runtime:" line before it; ""
// when there is neither.
func Summary(lines []string) string {
	detail := ""
	for _, l := range lines {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "fatal error: "), strings.HasPrefix(l, "panic: "):
			l = strings.TrimSuffix(strings.TrimSuffix(l, " [recovered, repanicked]"), " [recovered]")
			kind, what, _ := strings.Cut(l, ": ")
			switch {
			case detail == "":
			case strings.HasPrefix(detail, what):
				// "runtime: out of memory: cannot allocate ..." says more.
				l = kind + ": " + detail
			default:
				l += " (" + detail + ")"
			}
			return Cut(l, 400)
		case strings.HasPrefix(l, "runtime: ") && detail == "":
			detail = strings.TrimPrefix(l, "runtime: ")
		}
	}
	if detail != "" {
		return Cut("runtime: "+detail, 400)
	}
	return ""
}

// Cut returns s cut to n bytes, marked with an ellipsis when cut.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Output keeps the first lines of a process's raw output (not its log): a
// crash report starts with what matters. The zero value and nil keep
// nothing; NewOutput sets the bounds.
type Output struct {
	mu            sync.Mutex
	maxLines, max int
	list          []string
	size, dropped int
}

// NewOutput keeps at most maxLines lines and maxBytes bytes.
func NewOutput(maxLines, maxBytes int) *Output { return &Output{maxLines: maxLines, max: maxBytes} }

// Add keeps line if there is room, else counts it as dropped.
func (o *Output) Add(line string) {
	if o == nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.list) >= o.maxLines || o.size+len(line) > o.max {
		o.dropped++
		return
	}
	o.list = append(o.list, line)
	o.size += len(line)
}

// Lines returns the lines kept.
func (o *Output) Lines() []string {
	if o == nil {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.list...)
}

// Text returns the lines kept, with a note of how many were dropped.
func (o *Output) Text() string {
	if o == nil {
		return ""
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	s := strings.Join(o.list, "\n")
	if o.dropped > 0 {
		s += fmt.Sprintf("\n[%d more lines]", o.dropped)
	}
	return strings.TrimSpace(s)
}
