package childproc

import (
	"bytes"
	"io"
	"log/slog"
	"strings"
	"testing"
)

// RelayStderr logs a child's slog lines again at their level with their
// attributes (time, level, msg and the skipped keys dropped), hands the
// other lines to Keep cut at MaxLine, and counts every line.
func TestRelayStderr(t *testing.T) {
	tests := []struct {
		name   string
		stderr string
		logged string
		kept   []string
	}{
		{name: "record", stderr: `{"time":"2026-01-01T00:00:00Z","level":"WARN","msg":"slow","capability":"x","b":2,"a":"y"}` + "\n",
			logged: "level=WARN msg=slow a=y b=2\n"},
		{name: "runtime output", stderr: "fatal error: stack overflow\n\ngoroutine 1 [running]:\n",
			kept: []string{"fatal error: stack overflow", "", "goroutine 1 [running]:"}},
		{name: "not a record", stderr: `{"level":"INFO"}` + "\n" + "{broken\n",
			kept: []string{`{"level":"INFO"}`, "{broken"}},
		{name: "long line cut, last line without newline", stderr: strings.Repeat("x", 200) + "\nend",
			kept: []string{strings.Repeat("x", 128), "end"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logged bytes.Buffer
			log := slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{
				Level: slog.LevelDebug,
				ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
					if a.Key == slog.TimeKey && len(groups) == 0 {
						return slog.Attr{}
					}
					return a
				},
			}))
			var kept []string
			lines := 0
			RelayStderr(io.NopCloser(strings.NewReader(tt.stderr)), Relay{
				MaxLine: 128,
				Record:  func(line []byte) bool { return LogRecord(log, line, "capability") },
				Keep:    func(line string) { kept = append(kept, line) },
				Counted: func() { lines++ },
			})
			if logged.String() != tt.logged {
				t.Errorf("logged %q; want %q", logged.String(), tt.logged)
			}
			if strings.Join(kept, "|") != strings.Join(tt.kept, "|") {
				t.Errorf("kept %q; want %q", kept, tt.kept)
			}
			if want := strings.Count(tt.stderr, "\n") + boolInt(!strings.HasSuffix(tt.stderr, "\n")); lines != want {
				t.Errorf("counted %d lines; want %d", lines, want)
			}
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
