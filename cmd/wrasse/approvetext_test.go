package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/gate"
)

// The terminal shows the call it asks about in full and as it runs:
// every line of a script, past any length, control characters and bidi
// overrides as escapes, and each argument apart when there are several.
func TestCallText(t *testing.T) {
	long := "echo " + strings.Repeat("=", 300) + "; rm -f important.txt"
	for _, tt := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"command": "git status"}, "shell_exec command=git status"},
		{map[string]any{"command": long}, "shell_exec command=" + long},
		{map[string]any{"command": "ls\r# ; rm -f x"}, `shell_exec command=ls\r# ; rm -f x`},
		{map[string]any{"command": "echo \x1b[8mhidden\x1b[0m"}, `shell_exec command=echo \x1b[8mhidden\x1b[0m`},
		{map[string]any{"command": "echo checking\nrm -f important.txt"}, "shell_exec\n  command:\n    echo checking\n    rm -f important.txt"},
		{map[string]any{"command": "ls cwd=/tmp", "cwd": "/home/ann/project"}, "shell_exec\n  command: ls cwd=/tmp\n  cwd: /home/ann/project"},
		{map[string]any{"command": "cat \u202etxt.exe", "timeout_seconds": 5}, "shell_exec\n  command: cat \\u202etxt.exe\n  timeout_seconds: 5"},
	} {
		args, _ := json.Marshal(tt.args)
		req := gate.Request{Tool: "shell_exec", Args: args, Summary: gate.Summarize("shell_exec", args)}
		if got := callText(req); got != tt.want {
			t.Errorf("%q:\n got %q\nwant %q", tt.args, got, tt.want)
		}
		var out bytes.Buffer
		p := &promptApprover{in: bufio.NewReader(strings.NewReader("d\n")), out: &out}
		if _, err := p.Approve(t.Context(), req); err != nil || !strings.Contains(out.String(), "Wrasse wants to run: "+tt.want+"\n") {
			t.Errorf("%q: prompt %q (%v)", tt.args, out.String(), err)
		}
	}
	// Without arguments to show in full, the summary, made visible.
	if got := callText(gate.Request{Tool: "x", Summary: "x a\rb"}); got != `x a\rb` {
		t.Errorf("summary: %q", got)
	}
}
