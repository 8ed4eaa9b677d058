package bench

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
)

// The day server answers by the last message of a request, reading only
// that one: its role and its text, as a string or as text parts.
func TestLastMessage(t *testing.T) {
	tests := []struct {
		name, body, role, text string
		ok                     bool
	}{
		{"text", `{"model":"m","messages":[{"role":"system","content":"be brief"},{"role":"user","content":"tool please"}]}`, "user", "tool please", true},
		{"messages before the others", `{"messages":[{"role":"user","content":"a"},{"role":"tool","content":"42","tool_call_id":"c1"}],"stream":true}`, "tool", "42", true},
		{"text parts", `{"messages":[{"role":"user","content":[{"type":"text","text":"big "},{"type":"text","text":"1024"}]}]}`, "user", "big 1024", true},
		{"escapes", `{"messages":[{"role":"user","content":"line\nand \"quotes\" \u00e9"}]}`, "user", "line\nand \"quotes\" é", true},
		{"no messages", `{"messages":[]}`, "", "", false},
		{"an earlier message is not JSON", `{"messages":[{"role":"user","content":tru},{"role":"user","content":"x"}]}`, "", "", false},
		{"not JSON", `{"messages":[`, "", "", false},
	}
	var buf bytes.Buffer
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			role, text, err := lastMessage(strings.NewReader(tc.body), &buf)
			if (err == nil) != tc.ok || role != tc.role || text != tc.text {
				t.Errorf("lastMessage = %q, %q, %v; want %q, %q (ok %v)", role, text, err, tc.role, tc.text, tc.ok)
			}
		})
	}
}

// readLast finds the last message without decoding the others, whatever
// the messages hold (brackets, braces, commas and quotes in strings,
// nesting, white space); lastMessage also checks the whole body is JSON.
func TestReadLastFindsTheLastMessage(t *testing.T) {
	tests := []struct {
		name, body, role, text string
	}{
		{"strings with brackets", `{"messages":[{"role":"user","content":"a ] b } c, \"d\" [e"},{"role":"assistant","content":"],{"}]}`, "assistant", "],{"},
		{"nested calls", `{"messages":[{"role":"assistant","tool_calls":[{"id":"c","function":{"name":"f","arguments":"{\"x\":[1,2]}"}}]},{"role":"tool","content":"42"}],"model":"m"}`, "tool", "42"},
		{"white space", "{ \"model\" : \"m\" ,\n \"messages\" :\n [ {\"role\":\"user\",\"content\":\"a\"} ,\n\t{ \"role\" : \"user\" , \"content\" : \"b\" } \n ] }", "user", "b"},
		{"a nested messages key first", `{"metadata":{"messages":[{"role":"user","content":"no"}]},"messages":[{"role":"user","content":"yes"}]}`, "user", "yes"},
		{"escaped backslash before a quote", `{"messages":[{"role":"user","content":"x\\"},{"role":"user","content":"y\\\"z"}]}`, "user", `y\"z`},
		{"one message", `{"messages":[{"role":"user","content":"only"}]}`, "user", "only"},
	}
	var buf bytes.Buffer
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			role, text, err := lastMessage(strings.NewReader(tc.body), &buf)
			if err != nil || role != tc.role || text != tc.text {
				t.Errorf("lastMessage = %q, %q, %v; want %q, %q", role, text, err, tc.role, tc.text)
			}
		})
	}
}

// With the check deferred (the per-turn rows), the fake answers without
// checking the whole body and verify, called between turns, reports a
// body that was not JSON.
func TestDayServerDeferredCheck(t *testing.T) {
	srv, err := newDayServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	srv.deferCheck = true
	post := func(body string) {
		t.Helper()
		res, err := http.Post(srv.url+"/v1/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
	post(`{"messages":[{"role":"user","content":"hello"}]}`)
	if err := srv.verify(); err != nil {
		t.Errorf("verify after a JSON body: %v", err)
	}
	post(`{"messages":[{"role":"user","content":tru},{"role":"user","content":"hello"}]}`)
	if err := srv.verify(); err == nil {
		t.Error("verify did not report a body that is not JSON")
	}
	if err := srv.verify(); err != nil {
		t.Errorf("verify reported a body twice: %v", err)
	}
}

// stringEnd finds the quote that ends a JSON string, whatever quotes and
// runs of backslashes it holds.
func TestStringEnd(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 3))
	alphabet := []byte(`ab"\\ ]}`)
	for range 2000 {
		s := make([]byte, r.IntN(12))
		for i := range s {
			s[i] = alphabet[r.IntN(len(alphabet))]
		}
		enc, _ := json.Marshal(string(s))
		b := append(append([]byte(`x`), enc...), `,"y"`...)
		if got := stringEnd(b, 1); got != len(enc) {
			t.Fatalf("stringEnd(%s) = %d, want %d", b, got, len(enc))
		}
		if got := stringEnd(b[:len(enc)], 1); got != -1 {
			t.Fatalf("stringEnd(%s) = %d for a string that does not end", b[:len(enc)], got)
		}
	}
}
