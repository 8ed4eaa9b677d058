package codemode

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkWireLine is what the protocol's encoding costs one inner call:
// the call line and its reply line, each written (the shared writer, as
// the protocol sends) and read once, with replies of the sizes a tool
// returns (40 B: a trivial call's; 1 KiB: a short answer; 64 KiB: the
// registry's cap). The protocol uses encoding/json ("std"); the
// hand-written codec it had for calls and replies ("fast", removed) is
// compared in docs/performance.md (code mode).
func BenchmarkWireLine(b *testing.B) {
	call := &message{Op: opCall, ID: 7, Tool: "archive_size", Args: json.RawMessage(`{"name":"reports-2026.zip"}`)}
	var line bytes.Buffer
	w := newWriter(&line)
	for _, size := range []int{40, 1 << 10, 64 << 10} {
		for _, kind := range []struct{ name, line string }{
			{"plain", "A line of a tool's answer, plain words only. "},
			{"marked", "A line of a tool's answer, with <html> & \"quotes\".\n"},
		} {
			text := strings.Repeat(kind.line, size/40+1)[:size]
			reply := &message{Op: opReply, ID: 7, Text: text}
			for _, codec := range []struct {
				name string
				enc  func(*message) ([]byte, error)
				dec  func([]byte, *message) error
			}{
				{"std", func(m *message) ([]byte, error) {
					line.Reset()
					err := w.send(m)
					return line.Bytes(), err
				}, func(l []byte, m *message) error { return json.Unmarshal(l, m) }},
			} {
				b.Run(codec.name+"/"+sizeName(size)+"/"+kind.name, func(b *testing.B) {
					b.ReportAllocs()
					for range b.N {
						for _, m := range []*message{call, reply} {
							line, err := codec.enc(m)
							if err != nil {
								b.Fatal(err)
							}
							var got message
							if err := codec.dec(line, &got); err != nil {
								b.Fatal(err)
							}
						}
					}
				})
			}
		}
	}
}

func sizeName(n int) string {
	if n < 1<<10 {
		return strconv.Itoa(n) + "B"
	}
	return strconv.Itoa(n>>10) + "KiB"
}
