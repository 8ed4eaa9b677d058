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
)

// wireCases are messages of every shape: the call and reply fast paths
// and what falls back to encoding/json.
var wireCases = []struct {
	name string
	m    message
	fast bool // written in the fixed shape, read without encoding/json
}{
	{"call", message{Op: opCall, ID: 7, Tool: "archive_size", Args: json.RawMessage(`{"name":"x"}`)}, true},
	{"call without args", message{Op: opCall, ID: 1, Tool: "fail"}, true},
	{"call with a tool to escape", message{Op: opCall, ID: 2, Tool: `a"b<c>`, Args: json.RawMessage(`{}`)}, false},
	{"call with spaced args", message{Op: opCall, ID: 3, Tool: "t", Args: json.RawMessage(`{ "a" : [1, 2] }`)}, true},
	{"reply", message{Op: opReply, ID: 7, Text: "2*21 = 42"}, true},
	{"reply empty", message{Op: opReply, ID: 8}, true},
	{"reply with escapes", message{Op: opReply, ID: 9, Text: "line 1\n\t\"quoted\" \\ \x01 é 😀 <&>"}, true},
	{"reply with invalid UTF-8", message{Op: opReply, ID: 10, Text: "a\xffb"}, true},
	{"reply with an error", message{Op: opReply, ID: 11, Text: "partial", Err: &wireError{Msg: "Blocked by the safety policy\n"}}, true},
	{"reply with a kind", message{Op: opReply, ID: 12, Err: &wireError{Kind: "timeout", Msg: "m"}}, false},
	{"run", message{Op: opRun, ID: 1, Checked: "package main", Run: "package main\n", Timeout: 5, MaxOutput: 9, MaxCalls: 3}, false},
	{"done", message{Op: opDone, ID: 1, Text: "out", Truncated: true, Calls: 4, Err: &wireError{Kind: "output", Msg: "too much"}}, false},
}

// Every message reads back as encoding/json reads the line, and the call
// and reply take the fixed shape.
func TestWireRoundTrip(t *testing.T) {
	for _, c := range wireCases {
		t.Run(c.name, func(t *testing.T) {
			line, err := encodeMsg(nil, &c.m)
			if err != nil {
				t.Fatal(err)
			}
			var probe message
			if fast := decodeCall(line, &probe) || decodeReply(line, &probe); fast != c.fast {
				t.Errorf("fixed shape %v; want %v: %s", fast, c.fast, line)
			}
			var got, want message
			if err := decodeMsg(line, &got); err != nil {
				t.Fatalf("decode %s: %v", line, err)
			}
			if err := json.Unmarshal(line, &want); err != nil {
				t.Fatalf("json.Unmarshal %s: %v", line, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("decoded %+v; json.Unmarshal %+v", got, want)
			}
			if !bytes.Equal(got.Args, want.Args) || (len(c.m.Args) > 0 && len(got.Args) == 0) {
				t.Errorf("args %s; want %s", got.Args, want.Args)
			}
			if c.m.Text != "" && !strings.Contains(c.m.Text, "\xff") && got.Text != c.m.Text {
				t.Errorf("text %q; want %q", got.Text, c.m.Text)
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
			if _, err := rd.line(); err != io.EOF {
				t.Errorf("at the end: %v; want EOF", err)
			}
		})
	}
	rd := newReader(io.MultiReader(strings.NewReader(strings.Repeat("x", maxLine+1)), strings.NewReader("\n")))
	if _, err := rd.line(); !errors.Is(err, errLineTooLong) {
		t.Errorf("a line over maxLine: %v; want errLineTooLong", err)
	}
}

// Any line the fast reader takes, it reads as json.Unmarshal does.
func FuzzDecodeMsg(f *testing.F) {
	for _, c := range wireCases {
		line, _ := encodeMsg(nil, &c.m)
		f.Add(line)
	}
	f.Add([]byte(`{"op":"call","id":1,"tool":"t","args":null}`))
	f.Add([]byte(`{"op":"reply","id":01,"text":""}`))
	f.Add([]byte(`{"op":"reply","id":1,"text":"\ud83d\ude00"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var fast message
		if !decodeCall(line, &fast) && !decodeReply(line, &fast) {
			return
		}
		var want message
		if err := json.Unmarshal(line, &want); err != nil {
			t.Fatalf("fast reader took %q, which json.Unmarshal refuses: %v", line, err)
		}
		if !reflect.DeepEqual(fast, want) {
			t.Fatalf("%q: fast %+v; json.Unmarshal %+v", line, fast, want)
		}
	})
}
