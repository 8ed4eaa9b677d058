package plugins

import (
	"os"
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
	childproc.RelayStderr(r, childproc.Relay{
		MaxLine: maxStderrLine,
		Record:  func(line []byte) bool { return childproc.LogRecord(p.log, line, "capability") },
		Keep:    p.out.Add,
		Counted: p.logs.add,
	})
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
