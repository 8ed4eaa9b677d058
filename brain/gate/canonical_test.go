package gate_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/wrasse-app/wrasse/brain/gate"
)

func TestCanonicalJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{``, `{}`},
		{"  \n", `{}`},
		{`{}`, `{}`},
		{`{"b":1,"a":2}`, `{"a":2,"b":1}`},
		{`{ "z": {"y": [ {"b":true,"a":null} ], "x": "<&>"} , "a" : 1.50 }`, `{"a":1.50,"z":{"x":"<&>","y":[{"a":null,"b":true}]}}`},
		{`{"n":12345678901234567890123}`, `{"n":12345678901234567890123}`},
		{`{"a":1,"a":2}`, `{"a":2}`},
		{`{"s":"line\nnext\ttab \u00e9 \u2028"}`, `{"s":"line\nnext\ttab é \u2028"}`},
		{`"just a string"`, `"just a string"`},
		{`[3,1,2]`, `[3,1,2]`},
		{`{"é":1,"e":2,"Z":3}`, `{"Z":3,"e":2,"é":1}`},
	}
	for _, tt := range tests {
		got, err := gate.CanonicalJSON(json.RawMessage(tt.in))
		if err != nil {
			t.Errorf("CanonicalJSON(%s): %v", tt.in, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("CanonicalJSON(%s)\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
	for _, bad := range []string{`{`, `{"a":}`, `{"a":1} x`, `nope`, `{"a":1}{}`} {
		if _, err := gate.CanonicalJSON(json.RawMessage(bad)); !errors.Is(err, gate.ErrInvalidJSON) {
			t.Errorf("CanonicalJSON(%s) = %v, want ErrInvalidJSON", bad, err)
		}
	}
	if got := gate.Line("t", json.RawMessage(`{"b":1, "a":2}`)); got != `t {"a":2,"b":1}` {
		t.Errorf("Line = %q", got)
	}
	if got := gate.Line("t", json.RawMessage(`{"b":1,`)); got != `t {"b":1,` {
		t.Errorf("Line of invalid JSON = %q", got)
	}
}

// FuzzCanonicalJSON checks that canonical output is valid JSON with the same
// meaning, is a fixed point, and that invalid input is refused.
func FuzzCanonicalJSON(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[true,null,"x"]}`, `{"command":"rm -rf / && echo \u0026"}`, `1e400`, `"\ud800"`, `{"a":{"a":{"a":{}}}}`, `[`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := gate.CanonicalJSON(in)
		if len(bytes.TrimSpace(in)) == 0 {
			if err != nil || string(out) != "{}" {
				t.Fatalf("empty input: %s, %v", out, err)
			}
			return
		}
		if !json.Valid(in) {
			if err == nil {
				t.Fatalf("invalid input accepted: %q → %q", in, out)
			}
			return
		}
		if err != nil {
			// Only numbers encoding/json cannot re-emit may fail; there are none
			// for valid input, since literals are kept.
			t.Fatalf("valid input refused: %q: %v", in, err)
		}
		if !json.Valid(out) {
			t.Fatalf("output not valid JSON: %q", out)
		}
		again, err := gate.CanonicalJSON(out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("not a fixed point: %q → %q (%v)", out, again, err)
		}
		if !reflect.DeepEqual(decode(t, in), decode(t, out)) {
			t.Fatalf("meaning changed: %q → %q", in, out)
		}
		if bytes.ContainsAny(out, "\n\r\t") && !bytes.ContainsAny(in, "\n\r\t") {
			t.Fatalf("whitespace added: %q", out)
		}
	})
}

func decode(t *testing.T, b []byte) any {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %q: %v", b, err)
	}
	return v
}
