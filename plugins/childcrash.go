package plugins

import (
	"fmt"
	"strings"
	"sync"
)

// What a plugin process that died leaves: the Go runtime's report, kept
// (bounded) from its stderr and summed up in one line for the call's
// error.

func (p *childProc) rawOutput() string { return p.out.text() }

// logCrash logs a crash with the process's raw output (once).
func (p *childProc) logCrash(msg string, kv ...any) {
	if !p.reported.Swap(true) {
		kv = append(kv, "output", p.rawOutput())
	}
	p.log.Error(msg, kv...)
}

func (p *childProc) setGone(err error) {
	p.mu.Lock()
	p.goneErr = err
	p.mu.Unlock()
}

// crashReport says why the process ended: the Go runtime's fatal error or
// panic line, else how it exited.
func (p *childProc) crashReport(cause error) string {
	p.kill() // it may be alive but out of step
	p.awaitEnd()
	var parts []string
	if s := crashSummary(p.out.lines()); s != "" {
		parts = append(parts, s)
	}
	p.mu.Lock()
	goneErr, exitErr := p.goneErr, p.exitErr
	p.mu.Unlock()
	if goneErr != nil {
		parts = append(parts, goneErr.Error())
	}
	if cause != nil && len(parts) == 0 {
		parts = append(parts, cause.Error())
	}
	status := "exited"
	if exitErr != nil {
		status = exitErr.Error()
	}
	if len(parts) == 0 {
		return "the plugin process ended (" + status + ")"
	}
	return strings.Join(parts, "; ") + " (" + status + ")"
}

// crashSummary picks the Go runtime's explanation out of a crash report:
// the "fatal error:" or "panic:" line, with the "runtime:" line before it.
func crashSummary(lines []string) string {
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
			return cutText(l, 400)
		case strings.HasPrefix(l, "runtime: ") && detail == "":
			detail = strings.TrimPrefix(l, "runtime: ")
		}
	}
	if detail != "" {
		return cutText("runtime: "+detail, 400)
	}
	return ""
}

func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// rawOutput keeps the first lines of a process's non-log output: a crash
// report starts with what matters.
type rawOutput struct {
	mu      sync.Mutex
	list    []string
	size    int
	dropped int
}

func (o *rawOutput) add(line string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.list) >= maxCrashLines || o.size+len(line) > maxCrashBytes {
		o.dropped++
		return
	}
	o.list = append(o.list, line)
	o.size += len(line)
}

func (o *rawOutput) lines() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.list...)
}

func (o *rawOutput) text() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	s := strings.Join(o.list, "\n")
	if o.dropped > 0 {
		s += fmt.Sprintf("\n[%d more lines]", o.dropped)
	}
	return strings.TrimSpace(s)
}
