package codemode

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/wrasse-app/wrasse/plugins/internal/childproc"
)

// wireCases are messages of every shape.
var wireCases = []struct {
	name string
	m    message
}{
	{"call", message{Op: opCall, ID: 7, Tool: "archive_size", Args: json.RawMessage(`{"name":"x"}`)}},
	{"call without args", message{Op: opCall, ID: 1, Tool: "fail"}},
	{"call with a tool to escape", message{Op: opCall, ID: 2, Tool: `a"b<c>`, Args: json.RawMessage(`{}`)}},
	{"reply", message{Op: opReply, ID: 7, Text: "2*21 = 42"}},
	{"reply empty", message{Op: opReply, ID: 8}},
	{"reply with escapes", message{Op: opReply, ID: 9, Text: "line 1\n\t\"quoted\" \\ \x01 é 😀 <&> \u2028"}},
	{"reply with an error", message{Op: opReply, ID: 11, Text: "partial", Err: &wireError{Msg: "Blocked by the safety policy\n"}}},
	{"reply with a kind", message{Op: opReply, ID: 12, Err: &wireError{Kind: "timeout", Msg: "m"}}},
	{"run", message{Op: opRun, ID: 1, Version: 5, Checked: "package main", Run: "package main\n", Timeout: 5, MaxOutput: 9, MaxCalls: 3}},
	{"done", message{Op: opDone, ID: 1, Text: "out", Truncated: true, Calls: 4, Err: &wireError{Kind: "output", Msg: "too much"}}},
}

// Every message a writer sends, a reader on the other end of a pipe reads
// back as it was, one line each.
func TestWireRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w := newWriter(&buf)
	for _, c := range wireCases {
		if err := w.send(&c.m); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
	}
	if n := bytes.Count(buf.Bytes(), []byte("\n")); n != len(wireCases) {
		t.Fatalf("%d lines for %d messages", n, len(wireCases))
	}
	rd := newReader(&buf)
	for _, c := range wireCases {
		t.Run(c.name, func(t *testing.T) {
			got, err := rd.next()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*got, c.m) {
				t.Errorf("read back %+v; want %+v", *got, c.m)
			}
		})
	}
}

// The reader returns each line whole however the bytes arrive, keeps what
// it read across an error, and refuses a line over maxLine.
func TestReaderLines(t *testing.T) {
	lines := []string{"a", strings.Repeat("b", 10<<10), "", "c"}
	in := strings.Join(lines, "\n") + "\n"
	for _, src := range []struct {
		name string
		r    io.Reader
	}{{"whole", strings.NewReader(in)}, {"one byte at a time", iotest.OneByteReader(strings.NewReader(in))},
		{"timeouts between", iotest.TimeoutReader(iotest.HalfReader(strings.NewReader(in)))}} {
		t.Run(src.name, func(t *testing.T) {
			rd := newReader(src.r)
			var got []string
			for len(got) < len(lines) {
				l, err := rd.line()
				if errors.Is(err, iotest.ErrTimeout) {
					continue
				}
				if err != nil {
					t.Fatalf("after %d lines: %v", len(got), err)
				}
				got = append(got, string(l))
			}
			if !reflect.DeepEqual(got, lines) {
				t.Errorf("lines differ")
			}
			// A timeout there is a wake like the ones between lines (where
			// it falls depends on the reader's buffer); the end follows.
			_, err := rd.line()
			if errors.Is(err, iotest.ErrTimeout) {
				_, err = rd.line()
			}
			if err != io.EOF {
				t.Errorf("at the end: %v; want EOF", err)
			}
		})
	}
	rd := newReader(io.MultiReader(strings.NewReader(strings.Repeat("x", maxLine+1)), strings.NewReader("\n")))
	if _, err := rd.line(); !errors.Is(err, childproc.ErrLineTooLong) {
		t.Errorf("a line over maxLine: %v; want childproc.ErrLineTooLong", err)
	}
}

// However the bytes of a stream fall, the reader returns its lines whole
// and in order, never one with a newline in it, and the bytes after the
// last newline as a last line.
func FuzzReaderLines(f *testing.F) {
	f.Add([]byte("{\"op\":\"call\"}\n{\"op\":\"reply\"}\n"), uint8(3))
	f.Add([]byte("\n\n\nno newline at the end"), uint8(1))
	f.Fuzz(func(t *testing.T, stream []byte, chunk uint8) {
		rd := newReader(iotest.OneByteReader(bytes.NewReader(stream)))
		if chunk%2 == 0 {
			rd = newReader(iotest.HalfReader(bytes.NewReader(stream)))
		}
		var got [][]byte
		for {
			l, err := rd.line()
			if err != nil {
				break
			}
			if bytes.IndexByte(l, '\n') >= 0 {
				t.Fatalf("line %q holds a newline", l)
			}
			got = append(got, bytes.Clone(l))
		}
		want := bytes.Split(stream, []byte("\n"))
		if len(want[len(want)-1]) == 0 {
			want = want[:len(want)-1] // nothing follows the last newline
		} // else a last line without its newline is read at the end too
		if len(got) != len(want) {
			t.Fatalf("%d lines; want %d", len(got), len(want))
		}
		for i := range want {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("line %d: %q; want %q", i, got[i], want[i])
			}
		}
	})
}
