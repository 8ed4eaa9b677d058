package bench

import (
	"bytes"
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
