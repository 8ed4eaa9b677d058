package store

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestRedactString(t *testing.T) {
	secrets := map[string]string{
		"LONG":   "abcdef123456",
		"SHORT":  "abcdef",   // contained in LONG: LONG wins where both match
		"TINY":   "abc",      // under MinRedactLen: ignored
		"SLASH":  "pa/ss<w>", // JSON escapes nothing here but '<' stays
		"QUOTE":  `q"uote\x`, // JSON-escaped form is also matched
		"TWIN_A": "samevalue",
		"TWIN_B": "samevalue", // same value: the first name wins
	}
	r := NewRedactor(secrets)
	tests := []struct{ in, want string }{
		{"", ""},
		{"nothing here", "nothing here"},
		{"x abcdef123456 y", "x [redacted:LONG] y"},
		{"abcdef-abcdef123456abcdef", "[redacted:SHORT]-[redacted:LONG][redacted:SHORT]"},
		{"abc is short", "abc is short"},
		{"pa/ss<w>", "[redacted:SLASH]"},
		{`raw q"uote\x and escaped "q\"uote\\x"`, `raw [redacted:QUOTE] and escaped "[redacted:QUOTE]"`},
		{"samevalue", "[redacted:TWIN_A]"},
		// A value of minEncodedLen or more is found in any case (tr a-z
		// A-Z prints it so); a shorter one only as written.
		{"ABCDEF123456", "[redacted:LONG]"},
		{"ABCDEF is short", "ABCDEF is short"},
		{"a,b,c,d,e,f", "a,b,c,d,e,f"},
	}
	for _, tt := range tests {
		if got := r.String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got, want := r.Names(), []string{"LONG", "QUOTE", "SHORT", "SLASH", "TWIN_A", "TWIN_B"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Names = %v, want %v", got, want)
	}
}

func TestRedactNil(t *testing.T) {
	var r *Redactor
	if NewRedactor(nil) != nil || NewRedactor(map[string]string{"A": "abc"}) != nil {
		t.Error("redactor with nothing to redact should be nil")
	}
	e := Event{Type: EventUserMessage, Text: "x", Arguments: json.RawMessage(`{}`)}
	if r.String("x") != "x" || string(r.JSON(e.Arguments)) != "{}" || !reflect.DeepEqual(r.Event(e), e) || r.Names() != nil {
		t.Error("nil redactor changed something")
	}
}

func TestRedactJSON(t *testing.T) {
	r := NewRedactor(map[string]string{"K": "s3cr3t", "N": "987654321"})
	tests := []struct{ name, in, want string }{
		{"untouched keeps formatting", "{ \"a\" : [1, 2.50, true, null] }", "{ \"a\" : [1, 2.50, true, null] }"},
		{"string value", `{"token":"s3cr3t","n":1}`, `{"token":"[redacted:K]","n":1}`},
		{"inside a longer string", `{"h":"Bearer s3cr3t!"}`, `{"h":"Bearer [redacted:K]!"}`},
		{"object key", `{"s3cr3t":1}`, `{"[redacted:K]":1}`},
		{"number", `{"pin":987654321}`, `{"pin":"[redacted:N]"}`},
		{"nested array", `[[{"a":["x","s3cr3t"]}],{}]`, `[[{"a":["x","[redacted:K]"]}],{}]`},
		{"html kept unescaped", `{"a":"<s3cr3t>&"}`, `{"a":"<[redacted:K]>&"}`},
		{"escaped form in source", `{"a":"s3\u0063r3t"}`, `{"a":"[redacted:K]"}`},
		{"invalid JSON is redacted as text", `{"a":"s3cr3t"`, `{"a":"[redacted:K]"`},
		{"scalar document", `"s3cr3t"`, `"[redacted:K]"`},
		{"empty", ``, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(r.JSON(json.RawMessage(tt.in)))
			if got != tt.want {
				t.Errorf("JSON(%s) = %s, want %s", tt.in, got, tt.want)
			}
			if json.Valid([]byte(tt.in)) && !json.Valid([]byte(got)) {
				t.Errorf("valid input became invalid: %s", got)
			}
		})
	}
}

func TestRedactEventDoesNotAlias(t *testing.T) {
	r := NewRedactor(map[string]string{"K": "s3cr3t"})
	d := &Decision{Kind: Denied, Reason: "has s3cr3t"}
	out := r.Event(Event{Type: EventApproval, Decision: d})
	if d.Reason != "has s3cr3t" {
		t.Error("Event modified the caller's Decision")
	}
	if out.Decision.Reason != "has [redacted:K]" {
		t.Errorf("reason = %q", out.Decision.Reason)
	}
}

// FuzzRedactJSON: for alphanumeric secrets (which cannot straddle a
// placeholder's brackets), valid JSON stays valid and no decoded string,
// key or number still contains a secret.
func FuzzRedactJSON(f *testing.F) {
	f.Add(`{"a":"tok3n","b":[1,"x tok3n y"]}`, "tok3n", "12345")
	f.Add(`{"n":12345678,"tok3n":null}`, "tok3n", "12345")
	f.Add(`not json tok3n`, "tok3n", "zzzz")
	f.Add(`["\u0074ok3n"]`, "tok3n", "zzzz")
	f.Fuzz(func(t *testing.T, doc, s1, s2 string) {
		secrets := map[string]string{}
		for name, v := range map[string]string{"S1": s1, "S2": s2} {
			if len(v) < MinRedactLen || !alnum(v) || strings.Contains("[redacted:S1][redacted:S2]", v) {
				continue
			}
			secrets[name] = v
		}
		r := NewRedactor(secrets)
		out := r.JSON(json.RawMessage(doc))
		if !json.Valid([]byte(doc)) {
			for _, v := range secrets {
				if strings.Contains(string(out), v) {
					t.Fatalf("invalid JSON %q: secret %q survives in %q", doc, v, out)
				}
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("valid %q became invalid %q", doc, out)
		}
		dec := json.NewDecoder(strings.NewReader(string(out)))
		dec.UseNumber()
		for {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			var s string
			switch v := tok.(type) {
			case string:
				s = v
			case json.Number:
				s = string(v)
			}
			for _, v := range secrets {
				if strings.Contains(s, v) {
					t.Fatalf("%q: secret %q survives in token %q of %q", doc, v, s, out)
				}
			}
		}
	})
}

func alnum(s string) bool {
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func TestHoldKeepsPartialStart(t *testing.T) {
	r := NewRedactor(map[string]string{"K": "sk-live-ABCDEF", "Q": `a"bcdefg`})
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"hello 9", 0},
		{"hello", 1},                    // o: the secret's base32 begins ONVS
		{"key: sk-", 3},                 // any start is held: stored pieces are never rewritten
		{"key: s", 4},                   // y: s: Q's base64 begins YS, and a separator and a gap may stand inside
		{"key: a", 1},                   // the start of Q
		{"key: sk-l", 4},                // could be the key starting
		{"key: sk-live-ABCDE", 13},      // all but the last byte
		{"key: sk-live-ABCDEF", 0},      // whole: String's job, not held
		{"key: sk-live-X", 0},           // diverged: not a prefix
		{`json "a\"bcd`, len(`a\"bcd`)}, // the JSON-escaped form counts too
		{"sk-live-ABCsk-live-AB", 10},   // the latest start wins
	}
	for _, tt := range tests {
		if _, held := r.Hold(tt.in); len(held) != tt.want {
			t.Errorf("Hold(%q) holds %q, want %d bytes", tt.in, held, tt.want)
		}
	}
	var nilR *Redactor
	if _, held := nilR.Hold("sk-live"); held != "" {
		t.Error("nil redactor held text back")
	}
}

func TestHold(t *testing.T) {
	r := NewRedactor(map[string]string{"K": "sk-live-ABCDEF"})
	tests := []struct{ in, show, held string }{
		{"", "", ""},
		// Ends in a byte that begins no form ("text" would hold its t: a
		// stretch of the secret's base32 begins with T).
		{"plain text 9", "plain text 9", ""},
		{"key sk-live-ABCDEF done", "key [redacted:K] done", ""},
		{"key s", "key ", "s"},
		{"key sk-live-ABC", "key ", "sk-live-ABC"},
		{"sk-live-ABCDEF and sk-l", "[redacted:K] and ", "sk-l"},
	}
	for _, tt := range tests {
		show, held := r.Hold(tt.in)
		if show != tt.show || held != tt.held {
			t.Errorf("Hold(%q) = %q, %q; want %q, %q", tt.in, show, held, tt.show, tt.held)
		}
	}
	var nilR *Redactor
	if show, held := nilR.Hold("sk-l"); show != "sk-l" || held != "" {
		t.Errorf("nil Hold = %q, %q", show, held)
	}
}
