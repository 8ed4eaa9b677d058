package childproc

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sort"
)

// A child's stderr: its slog lines relayed to the parent's log, any other
// line (the Go runtime's crash report) kept for the crash message.

// Relay says what becomes of each line of a child's stderr. What differs
// between the two kinds of child is here: a plugin's records are logged
// again at their own level and counted (a reply waits for the lines
// written before it); a program's are logged whole at debug level.
type Relay struct {
	// MaxLine bounds a line: the rest of a longer one is dropped.
	MaxLine int
	// Record logs a line that is a log record and reports whether it was.
	Record func(line []byte) bool
	// Keep takes the other lines; nil drops them.
	Keep func(line string)
	// Counted, when set, is called after each line.
	Counted func()
}

// RelayStderr reads r to its end (or a read error) and closes it.
func RelayStderr(r io.ReadCloser, rl Relay) {
	defer r.Close()
	lr := NewLineReader(r, rl.MaxLine)
	for {
		line, err := lr.CutLine()
		if err != nil {
			return
		}
		if !rl.Record(line) && rl.Keep != nil {
			// Not a log record: the Go runtime's own output.
			rl.Keep(string(line))
		}
		if rl.Counted != nil {
			rl.Counted()
		}
	}
}

// LogRecord logs one slog JSON line of a child to log again, at its level,
// with its attributes sorted by key (time, level, msg and the keys in skip
// dropped); false if it is not one.
func LogRecord(log *slog.Logger, line []byte, skip ...string) bool {
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
	for _, k := range append(skip, slog.TimeKey, slog.LevelKey, slog.MessageKey) {
		delete(rec, k)
	}
	keys := make([]string, 0, len(rec))
	for k := range rec {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	attrs := make([]any, 0, len(keys))
	for _, k := range keys {
		attrs = append(attrs, slog.Any(k, rec[k]))
	}
	log.Log(context.Background(), level, msg, attrs...)
	return true
}
