package gate

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// argPath reads the path from the decoded arguments exactly as decoding
// them into a `json:"path"` field does.
func TestArgPathAgreesWithUnmarshal(t *testing.T) {
	for _, args := range []string{
		`{"path":"/a"}`, `{"PATH":"/a"}`, `{"Path":"/a","path":"/b"}`, `{"path":"/b","Path":"/a"}`,
		`{"path":null}`, `{"path":3}`, `{"path":{"x":1}}`, `{"paths":"/a"}`, `{"p\u0061th":"/a"}`,
		`{"pa\u017fh":"/k"}`, `[1,2]`, `"path"`, `{}`, `not json`, ``, `{"path":"/a"} x`,
	} {
		decoded, _ := decodeJSON(json.RawMessage(args))
		got, gotOK := argPath(json.RawMessage(args), decoded)
		var a struct {
			Path *string `json:"path"`
		}
		wantOK := json.Unmarshal([]byte(args), &a) == nil && a.Path != nil
		want := ""
		if wantOK {
			want = *a.Path
		}
		if got != want || gotOK != wantOK {
			t.Errorf("%s: got %q %v, want %q %v", args, got, gotOK, want, wantOK)
		}
	}
}

// The rules search a line without folding it when it holds neither of the
// two non-ASCII runes that fold to ASCII letters; no other rune does.
func TestOnlyTwoRunesFoldToASCII(t *testing.T) {
	for r := rune(utf8.RuneSelf); r <= unicode.MaxRune; r++ {
		if f := foldRune(r); f < utf8.RuneSelf && r != '\u212a' && r != '\u017f' {
			t.Errorf("%U folds to ASCII %q", r, f)
		}
	}
}

// optionNamed reads an option as getopt, git's parse-options and Go's
// flag package read it.
func TestOptionNamed(t *testing.T) {
	for _, tt := range []struct {
		word, name string
		want       bool
	}{
		{"--to-command", "--to-command", true},
		{"--to-command=sh", "--to-command", true},
		{"--to-com=sh", "--to-command", true},
		{"--to", "--to-command", true},
		{"--", "--to-command", false},
		{"--tox", "--to-command", false},
		{"-exec", "-exec", true},
		{"-exec=/tmp/x", "-exec", true},
		{"--exec=/tmp/x", "-exec", true},
		{"-execx", "-exec", false},
		{"-e/bin/sh", "-e", true},
		{"-ve", "-e", true},
		{"-v", "-e", false},
		{"-j4", "-e", false},
		{"-4e", "-e", true},
		{"-=e", "-e", false},
		{"set", "set", true},
		{"settle", "set", false},
		{"--set", "set", false},
	} {
		if got := optionNamed(tt.word, tt.name); got != tt.want {
			t.Errorf("optionNamed(%q, %q) = %v, want %v", tt.word, tt.name, got, tt.want)
		}
	}
}

// interpreterScript finds the script an interpreter runs.
func TestInterpreterScript(t *testing.T) {
	for _, tt := range []struct {
		cmd  string
		want string
	}{
		{"python3 build.py", "build.py"},
		{"python3 -X utf8 -u build.py --v", "build.py"},
		{"python3 -m pytest tests/", ""},
		{"python3 -mpytest", ""},
		{"python3 --version", ""},
		{"node --require ./r.js app.js", "app.js"},
		{"node .", "."},
		{"deno run -A x.ts", "x.ts"},
		{"deno test", ""},
		{"bun run build", ""},
		{"bun ./x.ts", "./x.ts"},
		{"perl -I lib x.pl", "x.pl"},
		{"ruby -- x.rb", "x.rb"},
		{"ls x.py", ""},
	} {
		f := strings.Fields(tt.cmd)
		if got := interpreterScript(f[0], f[1:]); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.cmd, got, tt.want)
		}
	}
}
