package plugins

import (
	"testing"
	"testing/fstest"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
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
