package gate_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/gate"
)

var jsonCases = []string{
	`{}`, `[]`, `{"a":1,"a":2}`, `{"b":[1,2,{"c":null}],"a":true,"d":false}`, ` {"x" : "y" } `,
	`"plain"`, `"tab\there"`, `"\u00e9\u0041\/\\\"\b\f\n\r\t"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ud83dx"`,
	`"\ud83d\u0041"`, `"\udc00\ud800\udc00"`, "\"bad \xff byte\"", "\"\xed\xa0\x80\"", `"\'"`, `"\x"`,
	`"\u12"`, `"\u12g4"`, "\"ctl \x01\"", `-0`, `0.5e-3`, `1E+9`, `01`, `1.`, `-`, `1e`, `.5`, `+1`,
	`tru`, `true `, `nul`, `{"a":}`, `{"a" 1}`, `{"a":1,}`, `[1,]`, `[1 2]`, `{1:2}`, `{"a":1} x`,
	`"unterminated`, ``, ` `, "\v{}", `{"a":"b"}` + "\u00a0", `[` + strings.Repeat(`[`, 9998) + strings.Repeat(`]`, 9999),
	strings.Repeat(`[`, 10001) + strings.Repeat(`]`, 10001), `123456789012345678901234567890`,
}

// parseJSON decodes and rejects exactly as json.Valid plus a Decoder with
// UseNumber do.
func TestParseJSONAgreesWithEncodingJSON(t *testing.T) {
	for _, c := range jsonCases {
		checkParse(t, []byte(c))
	}
}

func checkParse(t *testing.T, raw []byte) {
	t.Helper()
	got, gotOK := gate.Parse(raw)
	want, wantOK := gate.DecodeStd(raw)
	if gotOK != wantOK || !reflect.DeepEqual(got, want) {
		t.Errorf("%q: got %#v (ok %v), want %#v (ok %v)", raw, got, gotOK, want, wantOK)
	}
}

func FuzzParseJSON(f *testing.F) {
	for _, c := range jsonCases {
		if len(c) < 1000 {
			f.Add([]byte(c))
		}
	}
	f.Fuzz(func(t *testing.T, raw []byte) { checkParse(t, raw) })
}
