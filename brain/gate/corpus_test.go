package gate_test

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/gate"
)

// corpus reads LABEL<TAB>COMMAND lines (or bare commands, label "").
func corpus(t *testing.T, name string) [][2]string {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][2]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		label, cmd, ok := strings.Cut(line, "\t")
		if !ok {
			label, cmd = "", line
		}
		out = append(out, [2]string{label, cmd})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// corpusEnv is the computer the corpora are read on: the home folder
// /home/ann, the granted folders project and Documents in it (commands
// start in project), the workspace in its usual place.
var corpusEnv = gate.Env{Home: "/home/ann", Folders: []string{"/home/ann/project", "/home/ann/Documents"},
	Workspace: "/home/ann/.local/share/wrasse", TempDirs: []string{"/tmp"}}

func shellArgs(cmd string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"command": cmd})
	return b
}

// Hostile commands through the real gate with the real built-in
// patterns: each is blocked, or asks in a way "approve for this chat" of
// an everyday command cannot cover.
func TestHostileCorpus(t *testing.T) {
	snap := builtinRegistry(t, nil, nil).Snapshot()
	cases := corpus(t, "shell_hostile.txt")
	if len(cases) < 60 {
		t.Fatalf("the hostile corpus has %d commands; keep at least 60", len(cases))
	}
	// The user approved everyday commands for the conversation first.
	var g gate.Grants
	for _, c := range []string{"ls -la", "git status", "cat README.md", "echo hi", "find . -name x", "sh ./build.sh"} {
		g.Add(gate.CheckIn(snap, corpusEnv, "shell_exec", shellArgs(c)))
	}
	for _, c := range cases {
		label, cmd := c[0], c[1]
		v := gate.CheckIn(snap, corpusEnv, "shell_exec", shellArgs(cmd))
		switch label {
		case "block":
			if v.Decision != gate.Block {
				t.Errorf("%q: %s (%q), want block", cmd, v.Decision, v.Reasons)
			}
		case "ask":
			pattern := false
			for _, m := range v.Matches {
				pattern = pattern || !m.Block
			}
			if v.Decision != gate.Confirm || !(v.AlwaysAsk || pattern) {
				t.Errorf("%q: %s (always ask %v, reasons %q), want it to ask for a reason of its own", cmd, v.Decision, v.AlwaysAsk, v.Reasons)
			}
			if g.Covers(v) {
				t.Errorf("%q: covered by approvals of everyday commands", cmd)
			}
		default:
			t.Fatalf("unknown label %q for %q", label, cmd)
		}
	}
}

// Everyday commands are never blocked and never forced to ask every time:
// approving each for the conversation covers it the next time.
func TestBenignCorpus(t *testing.T) {
	snap := builtinRegistry(t, nil, nil).Snapshot()
	cases := corpus(t, "shell_benign.txt")
	if len(cases) < 60 {
		t.Fatalf("the benign corpus has %d commands; keep at least 60", len(cases))
	}
	for _, c := range cases {
		cmd := c[1]
		v := gate.CheckIn(snap, corpusEnv, "shell_exec", shellArgs(cmd))
		if v.Decision == gate.Block || v.AlwaysAsk {
			t.Errorf("%q: %s (always ask %v): %q", cmd, v.Decision, v.AlwaysAsk, v.Reasons)
			continue
		}
		var g gate.Grants
		g.Add(v)
		if !g.Covers(gate.CheckIn(snap, corpusEnv, "shell_exec", shellArgs(cmd))) {
			t.Errorf("%q: approving it for the conversation does not cover it again", cmd)
		}
		if v.Scope == "" {
			t.Errorf("%q: no approval scope to show", cmd)
		}
	}
}

// Danger rules are compiled once per registry state: evaluating a
// multi-line command allocates no regexp.
func BenchmarkCheckMultiLine(b *testing.B) {
	snap := builtinRegistry(b, nil, nil).Snapshot()
	args := shellArgs("cd src\ngo build ./...\ngo test ./... | tail -20")
	b.ReportAllocs()
	for b.Loop() {
		gate.Check(snap, "shell_exec", args)
	}
}
