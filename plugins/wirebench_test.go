package plugins

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// BenchmarkWireLine is what the protocol's encoding costs one call: the
// call line and its result line, each written (the shared writer, as the
// protocol sends) and read once, at result sizes a tool returns (40 B: a
// trivial call's; 1 KiB: a short answer; 64 KiB: the registry's cap, the
// most a model sees). The protocol uses encoding/json ("std"): the
// hand-written codec it had for calls and results ("fast", removed) saved
// at most about half a millisecond per call on a 64 KiB result
// (docs/performance.md, Protocol encoding).
func BenchmarkWireLine(b *testing.B) {
	call := &wireMsg{Op: opCall, ID: 7, Tool: "notes_search", Args: json.RawMessage(`{"query":"meeting notes from last week","limit":20}`)}
	var line bytes.Buffer
	w := newMsgWriter(&line, 0)
	for _, size := range []int{40, 1 << 10, 64 << 10} {
		for _, kind := range []struct{ name, line string }{
			// plain: the fast path's best case, nothing to escape;
			// marked: a line break and HTML, which JSON escapes.
			{"plain", "A line of a tool's answer, plain words only. "},
			{"marked", "A line of a tool's answer, with <html> & \"quotes\".\n"},
		} {
			text := strings.Repeat(kind.line, size/40+1)[:size]
			res := &wireMsg{Op: opResult, ID: 7, Result: &cerebellum.Result{Content: text}, Logs: 2}
			for _, codec := range []struct {
				name string
				enc  func(*wireMsg) ([]byte, error)
				dec  func([]byte, *wireMsg) error
			}{
				{"std", func(m *wireMsg) ([]byte, error) {
					line.Reset()
					err := w.send(m)
					return line.Bytes(), err
				}, func(l []byte, m *wireMsg) error { return json.Unmarshal(l, m) }},
			} {
				b.Run(codec.name+"/"+sizeName(size)+"/"+kind.name, func(b *testing.B) {
					b.ReportAllocs()
					for range b.N {
						for _, m := range []*wireMsg{call, res} {
							line, err := codec.enc(m)
							if err != nil {
								b.Fatal(err)
							}
							var got wireMsg
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
