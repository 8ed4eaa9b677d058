package childproc

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// The writer sends each value as one line that encoding/json reads back,
// refuses a line over its bound without writing it, and keeps no large
// buffer after a large message.
func TestWriterSend(t *testing.T) {
	type msg struct {
		Op   string          `json:"op"`
		Text string          `json:"text,omitempty"`
		Args json.RawMessage `json:"args,omitempty"`
	}
	var out bytes.Buffer
	w := NewWriter(&out, 200)
	sent := []msg{
		{Op: "call", Args: json.RawMessage(`{"q":"<b>&</b>"}`)},
		{Op: "reply", Text: "line 1\nline 2 \"quoted\" <html> & \u2028 é"},
	}
	for _, m := range sent {
		if err := w.Send(m.Op, m); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Send("reply", msg{Op: "reply", Text: strings.Repeat("x", 300)}); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("a line over the bound: %v; want ErrLineTooLong", err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(sent) {
		t.Fatalf("%d lines for %d messages: %q", len(lines), len(sent), out.String())
	}
	for i, l := range lines {
		var got msg
		if err := json.Unmarshal([]byte(l), &got); err != nil {
			t.Fatalf("line %d %q: %v", i, l, err)
		}
		if got.Op != sent[i].Op || got.Text != sent[i].Text || !bytes.Equal(got.Args, sent[i].Args) {
			t.Errorf("line %d read back %+v; want %+v", i, got, sent[i])
		}
	}
	big := NewWriter(&bytes.Buffer{}, 0)
	if err := big.Send("reply", msg{Op: "reply", Text: strings.Repeat("y", 2*keepBuffer)}); err != nil {
		t.Fatal(err)
	}
	if c := big.buf.Cap(); c > keepBuffer {
		t.Errorf("buffer of %d bytes kept after a large message; want at most %d", c, keepBuffer)
	}
}

// BenchmarkWriterSend is what encoding a call's small message costs with
// the reused buffer (Writer) and with json.Marshal, as the writers did
// before.
func BenchmarkWriterSend(b *testing.B) {
	type msg struct {
		Op   string          `json:"op"`
		ID   uint64          `json:"id,omitempty"`
		Tool string          `json:"tool,omitempty"`
		Args json.RawMessage `json:"args,omitempty"`
	}
	m := &msg{Op: "call", ID: 7, Tool: "echo", Args: json.RawMessage(`{"text":"hi"}`)}
	b.Run("writer", func(b *testing.B) {
		w := NewWriter(discardWriter{}, 0)
		b.ReportAllocs()
		for range b.N {
			if err := w.Send("call", m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("marshal", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			line, err := json.Marshal(m)
			if err != nil {
				b.Fatal(err)
			}
			_, _ = discardWriter{}.Write(append(line, '\n'))
		}
	})
}

type discardWriter struct{}

func (discardWriter) Write(p []byte) (int, error) { return len(p), nil }
