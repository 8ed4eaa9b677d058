package gate

import (
	"encoding/json"
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
