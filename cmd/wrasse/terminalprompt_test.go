package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/gate"
)

// Attack (a2): the terminal prompt shows a shell call only as
// gate.Summarize's one line: whitespace collapsed and cut to 200
// characters. So what the person approves ("this exact command", for the
// chat too) is not what they saw: a line break reads as a space (the
// second command looks like echo's arguments), "\r#" reads as a comment,
// and past 200 characters the rest is never shown. The window's card
// shows the JSON arguments as well; `wrasse chat` shows nothing else.
func TestTerminalPromptShowsTheWholeCommand(t *testing.T) {
	for _, tt := range []struct{ cmd, hidden, misread string }{
		{"echo checking\nrm -f important.txt", "", "echo checking rm -f important.txt"},
		{"ls\r# ; rm -f important.txt", "", "ls # ; rm -f important.txt"},
		{"echo " + strings.Repeat("=", 200) + "; rm -f important.txt", "rm -f important.txt", ""},
	} {
		args, _ := json.Marshal(map[string]string{"command": tt.cmd})
		req := gate.Request{Tool: "shell_exec", Args: args, Summary: gate.Summarize("shell_exec", args), Scope: "this exact command",
			Reasons: []string{"can change or delete things (shell_exec is marked destructive)"}}
		var out bytes.Buffer
		p := &promptApprover{in: bufio.NewReader(strings.NewReader("d\n")), out: &out}
		if _, err := p.Approve(t.Context(), req); err != nil {
			t.Fatal(err)
		}
		if tt.hidden != "" && !strings.Contains(out.String(), tt.hidden) {
			t.Errorf("%q: the prompt never shows %q:\n%s", tt.cmd, tt.hidden, out.String())
		}
		if tt.misread != "" && strings.Contains(out.String(), tt.misread) {
			t.Errorf("%q: the prompt shows it as %q:\n%s", tt.cmd, tt.misread, out.String())
		}
	}
}
