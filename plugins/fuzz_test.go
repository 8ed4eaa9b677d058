package plugins

import (
	"bytes"
	"encoding/json"
	"testing"
	"testing/fstest"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"

	"github.com/wrasse-app/wrasse/plugins/internal/childproc"
)

// FuzzCheck feeds arbitrary plugin source through reading, parsing and the
// static checks (source is untrusted input): they must never panic, and a
// rejection is always a SourceError or a list of them.
func FuzzCheck(f *testing.F) {
	f.Add(wrap(`"strings"`, `return sdk.Text(strings.ToUpper(req.String("s", ""))), nil`))
	f.Add(wrap(`"os"; . "strings"; x "net/http"`, `for i := range len(os.Args) { _ = i }; _ = x.Get; return nil, nil`))
	f.Add("package p\n\nfunc Init( {")
	h := NewHost(Options{Logger: discard()})
	m := &skillmd.Manifest{Name: "fuzz", Permissions: skillmd.Permissions{"env": nil}}
	cat := h.catalog(newPolicy(false, []string{"env"}))
	f.Fuzz(func(t *testing.T, src string) {
		fsys := fstest.MapFS{"plugin/main.go": {Data: []byte(src)}}
		s, err := readSource(fsys, "fuzz")
		if err != nil {
			return
		}
		_ = h.check(s, cat, m.Name, m.Permissions)
		_ = h.rangeSuspects(s)
		_ = s.cleanMessage("1:2: import \"x\" error: src/wrasse-plugin/fuzz/main.go:1:1: " + src)
	})
}

// FuzzChildOutput feeds arbitrary bytes through what the host reads from
// a plugin process (its messages on stdout, its log and crash report on
// stderr): the process runs untrusted code, so none of it may panic the
// host.
func FuzzChildOutput(f *testing.F) {
	f.Add([]byte(`{"op":"result","id":1,"result":{"content":"hi"},"logs":2}` + "\n"))
	f.Add([]byte(`{"op":"loaded","id":1,"error":{"kinds":["compile","nope"],"msg":"x"}}` + "\n"))
	f.Add([]byte(`{"time":"2026-01-01T00:00:00Z","level":"WARN+2","msg":"m","capability":"c","a":{"b":[1]}}` + "\n"))
	f.Add([]byte("runtime: goroutine stack exceeds 67108864-byte limit\nfatal error: stack overflow\n\nruntime stack:\n"))
	f.Add([]byte("panic: x [recovered]\n\ngoroutine 1 [running]:\n{\"msg\":1}\n"))
	p := &childProc{log: discard()}
	f.Fuzz(func(t *testing.T, data []byte) {
		lr := childproc.NewLineReader(bytes.NewReader(data), 512)
		for {
			line, err := lr.Next()
			if err != nil {
				break
			}
			var m wireMsg
			if json.Unmarshal(line, &m) == nil {
				_ = m.Err.err()
			}
		}
		var raw []string
		sr := childproc.NewLineReader(bytes.NewReader(data), 512)
		for {
			line, err := sr.CutLine()
			if err != nil {
				break
			}
			if len(line) > 512 {
				t.Fatalf("cutLine returned %d bytes; max 512", len(line))
			}
			if !childproc.LogRecord(p.log, line, "capability") {
				raw = append(raw, string(line))
			}
		}
		_ = childproc.Summary(raw)
	})
}
