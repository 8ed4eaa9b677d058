package plugins

import (
	"log/slog"
	"strings"
	"testing"
)

func TestLineWriter(t *testing.T) {
	rec := &recorder{}
	w := &lineWriter{log: slog.New(rec), level: slog.LevelInfo,
		clean: func(s string) string { return strings.ReplaceAll(s, "src/x/", "plugin/") }}
	mark := w.mark()
	for _, chunk := range []string{"hel", "lo\nwor", "ld\n\n", "src/x/a.go:3:4: panic: x.f(...)\n", "src/x/a.go:9:1: panic: x(...)\n"} {
		if _, err := w.Write([]byte(chunk)); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"hello", "world", "plugin/a.go:3:4: panic: x.f(...)", "plugin/a.go:9:1: panic: x(...)"}
	if strings.Join(rec.msgs, "|") != strings.Join(want, "|") {
		t.Fatalf("logged %q; want %q", rec.msgs, want)
	}
	if got := panicWhere(w.firstPanicSince(mark)); got != "plugin/a.go:3:4" {
		t.Fatalf("first panic at %q", got)
	}
	if got := w.firstPanicSince(w.mark()); got != "" {
		t.Fatalf("no panic since the last mark, got %q", got)
	}
	long := strings.Repeat("x", maxLogLine+10)
	w.Write([]byte(long))
	if last := rec.msgs[len(rec.msgs)-1]; last != long {
		t.Fatalf("an over-long line must be flushed, last = %d bytes", len(last))
	}
}
