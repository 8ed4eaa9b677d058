package plugins

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/wrasse-app/wrasse/plugins/internal/childproc"
)

// The plugin process's stderr: its slog lines relayed to the host log,
// counted so that a reply waits for the lines written before it, and any
// other output kept for a crash report.

// readStderr relays the process's slog lines to the host log and keeps
// other lines (the Go runtime's crash report) for the crash message.
func (p *childProc) readStderr(r *os.File) {
	defer close(p.errDone)
	defer r.Close()
	lr := childproc.NewLineReader(r, maxStderrLine)
	for {
		line, err := lr.CutLine()
		if err != nil {
			return
		}
		if !p.relay(line) {
			// Not a log record: the Go runtime's own output.
			p.out.Add(string(line))
		}
		p.logs.add()
	}
}

// relay logs one slog JSON line of the process; false if it is not one.
func (p *childProc) relay(line []byte) bool {
	if len(line) == 0 || line[0] != '{' {
		return false
	}
	rec := map[string]any{}
	if err := json.Unmarshal(line, &rec); err != nil {
		return false
	}
	msg, ok := rec["msg"].(string)
	if !ok {
		return false
	}
	level := slog.LevelInfo
	if s, ok := rec["level"].(string); ok {
		_ = level.UnmarshalText([]byte(s))
	}
	keys := make([]string, 0, len(rec))
	for k := range rec {
		switch k {
		case slog.TimeKey, slog.LevelKey, slog.MessageKey, "capability":
		default:
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	attrs := make([]any, 0, len(keys))
	for _, k := range keys {
		attrs = append(attrs, slog.Any(k, rec[k]))
	}
	p.log.Log(context.Background(), level, msg, attrs...)
	return true
}

// logCount counts stderr lines read, so a reply can wait for the log
// lines the process wrote before it.
type logCount struct {
	mu sync.Mutex
	n  uint64
	ch chan struct{} // closed and replaced on every line
}

func (c *logCount) init() { c.ch = make(chan struct{}) }

func (c *logCount) add() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	close(c.ch)
	c.ch = make(chan struct{})
}

// wait returns once n lines were read, stderr ended, or a bound passed.
func (c *logCount) wait(n uint64, ended <-chan struct{}) {
	c.mu.Lock()
	got := c.n
	c.mu.Unlock()
	if got >= n {
		return // the usual case: no timer needed
	}
	t := time.NewTimer(childExitWait)
	defer t.Stop()
	for {
		c.mu.Lock()
		got, ch := c.n, c.ch
		c.mu.Unlock()
		if got >= n {
			return
		}
		select {
		case <-ch:
		case <-ended:
			return
		case <-t.C:
			return
		}
	}
}
