package gate

import (
	"encoding/json"
	"testing"
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
