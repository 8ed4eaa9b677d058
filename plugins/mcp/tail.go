package mcp

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
)

// Bounds of the kept server output.
const (
	tailLines   = 20
	tailLineLen = 400
)

// tail keeps the last lines a server wrote to stderr, with secret values
// cut out, and logs each line at debug level.
type tail struct {
	mu      sync.Mutex
	lines   []string
	partial []byte
	redact  func(string) string
	log     *slog.Logger
}

func newTail(redact func(string) string, log *slog.Logger) *tail {
	return &tail{redact: redact, log: log}
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.partial = append(t.partial, p...)
	for {
		i := bytes.IndexByte(t.partial, '\n')
		if i < 0 {
			break
		}
		t.addLocked(string(t.partial[:i]))
		t.partial = t.partial[i+1:]
	}
	if len(t.partial) > 4*tailLineLen {
		t.addLocked(string(t.partial))
		t.partial = nil
	}
	return len(p), nil
}

func (t *tail) addLocked(line string) {
	line = strings.TrimRight(line, "\r")
	if strings.TrimSpace(line) == "" {
		return
	}
	line = t.redact(line)
	if len(line) > tailLineLen {
		line = line[:tailLineLen] + "…"
	}
	t.log.Debug("MCP server output", "line", line)
	t.lines = append(t.lines, line)
	if len(t.lines) > tailLines {
		t.lines = t.lines[len(t.lines)-tailLines:]
	}
}

// String is the kept lines, the last one unfinished if it has no newline.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := append([]string(nil), t.lines...)
	if p := strings.TrimSpace(string(t.partial)); p != "" {
		lines = append(lines, t.redact(p))
	}
	return strings.Join(lines, "\n")
}

// withTail appends the server's last output to msg, when there is any.
func withTail(msg string, t *tail) string {
	if t == nil {
		return msg
	}
	if s := t.String(); s != "" {
		return msg + "\nLast lines the server wrote:\n" + s
	}
	return msg
}
