package plugins

import (
	"log/slog"
	"strings"
	"testing"
	"time"
)

// Reproduction: a plugin with no permissions wrote 204 MB to the log in
// 5.7 s with fmt.Print. Output is rate-limited per plugin and what is
// dropped is counted in the log.
func TestLineWriterRateLimit(t *testing.T) {
	now := time.Unix(0, 0)
	rec := &recorder{}
	w := &lineWriter{log: slog.New(rec), level: slog.LevelInfo, limit: newLogLimit(func() time.Time { return now })}
	for i := 0; i < 100_000; i++ {
		w.Write([]byte("spam spam spam\n"))
	}
	if n := rec.count("spam spam spam"); n != logBurst {
		t.Fatalf("logged %d lines in a burst, want %d", n, logBurst)
	}
	now = now.Add(time.Second)
	w.Write([]byte("after a second\n"))
	if rec.count("plugin output was rate-limited") != 1 || rec.count("after a second") != 1 {
		t.Fatalf("after a pause: %q", rec.msgs[len(rec.msgs)-3:])
	}
	if got := strings.Join(rec.msgs[len(rec.msgs)-2:], "|"); got != "plugin output was rate-limited|after a second" {
		t.Fatalf("the drop count must come before the next line: %q", got)
	}
}
