package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins/codemode"
)

// The test binary doubles as the program process of run_go.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == codemode.ChildCommand {
		if err := codemode.ServeChild(context.Background(), codemode.ChildPipes(os.Stderr)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// codeEnv is newEnv with the code-mode capability, its programs run in a
// process of their own as in the app.
func codeEnv(t *testing.T, prov *providertest.Provider) *env {
	t.Helper()
	e := newEnv(t, prov)
	fsys := fstest.MapFS{
		"tool-discovery/SKILL.md": {Data: builtinFile(t, "tool-discovery/SKILL.md")},
		"shell/SKILL.md":          {Data: builtinFile(t, "shell/SKILL.md")},
		"codemode/SKILL.md":       {Data: builtinFile(t, "codemode/SKILL.md")},
		"weather/SKILL.md":        {Data: []byte(weatherSkill)},
		"testing-tools/SKILL.md":  {Data: []byte(toolsSkill)},
	}
	runner := &codemode.Runner{Command: []string{os.Args[0], codemode.ChildCommand}}
	reg, err := cerebellum.Open(cerebellum.Options{Builtin: fsys, Native: map[string]cerebellum.Runtime{
		"shell": e.rt, "weather": e.rt, "testing-tools": e.rt, agent.CodeModeCapability: agent.NewCodeMode(runner)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	e.reg = reg
	return e
}

// program is a run_go call with src as its program.
func program(id, src string) turn {
	args, _ := json.Marshal(map[string]string{"program": src})
	return calls(tc(id, agent.CodeModeTool, string(args)))
}

const threeCalls = `package main

import "fmt"

func main() {
	a, err := echo_back(EchoBackArgs{Text: "hi", Times: 2})
	fmt.Println(a, err)
	w, err := weather_get(WeatherGetArgs{City: "Paris"}) // not loaded: named, so typed; loads on the call
	fmt.Println(w, err)
	s, err := search("weather forecast")
	fmt.Println(strings.Contains(s, "weather"), err)
}
`

func TestCodeModeThreeCalls(t *testing.T) {
	prov := newProvider(t, program("c1", threeCalls), text("done"))
	e := codeEnv(t, prov)
	s := &sink{}
	id, err := e.agent().Turn(t.Context(), e.conv(), "do three things", s)
	if err != nil {
		t.Fatal(err)
	}
	ev := events(t, e.db, id)
	want := []string{"user_message", "tool_call:run_go", "usage",
		"tool_call:echo_back", "tool_result:echo_back", "tool_call:weather_get", "tool_result:weather_get",
		"tool_call:tool_search", "tool_result:tool_search", "tool_result:run_go", "assistant_text", "usage"}
	if got := kinds(ev); !reflect.DeepEqual(got, want) {
		t.Fatalf("events %q\nwant   %q\nlast: %s", got, want, ev[len(ev)-3].Text)
	}
	for _, x := range ev[3:9] {
		if x.ParentCallID != "c1" || !strings.HasPrefix(x.ToolCallID, "c1.") {
			t.Errorf("inner event %s %s has parent %q id %q; want parent c1, id c1.N", x.Type, x.ToolName, x.ParentCallID, x.ToolCallID)
		}
	}
	res := ev[9]
	if res.ParentCallID != "" || res.IsError {
		t.Errorf("run_go result: parent %q error %v", res.ParentCallID, res.IsError)
	}
	wantOut := "echo: hihi <nil>\nsunny, 21°C <nil>\ntrue <nil>\n"
	if res.Text != wantOut {
		t.Errorf("program output %q; want %q", res.Text, wantOut)
	}
	if got := e.rt.called(); !reflect.DeepEqual(got, []string{`echo_back {"text":"hi","times":2}`, `weather_get {"city":"Paris"}`}) {
		t.Errorf("runtime calls %q", got)
	}
	// The model reads the program's output only, never its inner calls.
	reqs := prov.Requests()
	last := reqs[len(reqs)-1].Messages
	var roles []string
	for _, m := range last {
		roles = append(roles, string(m.Role)+":"+m.ToolName)
	}
	if want := []string{"user:", "assistant:", "tool:run_go"}; !reflect.DeepEqual(roles, want) {
		t.Errorf("history sent %q; want %q", roles, want)
	}
	checkSink(t, e.db, id, s, 0)
}

// run_go's description lists the functions of the loaded tools.
func TestCodeModeDescription(t *testing.T) {
	prov := newProvider(t, text("hi"))
	e := codeEnv(t, prov)
	if _, err := e.agent().Turn(t.Context(), e.conv(), "hello", nil); err != nil {
		t.Fatal(err)
	}
	var desc string
	for _, tl := range prov.Requests()[0].Tools {
		if tl.Name == agent.CodeModeTool {
			desc = tl.Description
		}
	}
	for _, want := range []string{"echo_back(EchoBackArgs{Text? string, Times? int})", "shell_exec(ShellExecArgs{Command string", "search(query string)"} {
		if !strings.Contains(desc, want) {
			t.Errorf("run_go description lacks %q:\n%s", want, desc)
		}
	}
	if strings.Contains(desc, "run_go(") {
		t.Errorf("run_go lists itself:\n%s", desc)
	}
}

// Inner calls take the gate's path: blocked, approved, denied, headless;
// a refused call is an error value the program prints.
func TestCodeModeGate(t *testing.T) {
	const tmpl = "package main\n\nfunc main() {\n\tout, err := shell_exec(ShellExecArgs{Command: %q})\n\tfmt.Printf(\"out=%%s err=%%v\\n\", out, err)\n}\n"
	tests := []struct {
		name     string
		command  string
		answers  []gate.Approval
		approver gate.Approver
		inner    []string
		output   string
		ran      bool
	}{
		{name: "blocked by a danger rule", command: "rm -rf /",
			inner:  []string{"tool_call:shell_exec", "approval:blocked", "tool_result:shell_exec:error"},
			output: "err=Blocked by the safety policy; it did not run: recursive delete of the root folder"},
		{name: "needs approval, approved", command: "sudo ls", answers: []gate.Approval{gate.ApproveOnce},
			inner: []string{"tool_call:shell_exec", "approval:approved_once", "tool_result:shell_exec"}, output: "out=ran shell_exec err=<nil>", ran: true},
		{name: "needs approval, denied", command: "sudo ls", answers: []gate.Approval{gate.Deny},
			inner: []string{"tool_call:shell_exec", "approval:denied", "tool_result:shell_exec:error"}, output: "err=Not run: the user denied this call"},
		{name: "headless", command: "sudo ls", approver: gate.DenyAll{},
			inner: []string{"tool_call:shell_exec", "approval:denied", "tool_result:shell_exec:error"}, output: "no one can approve it now"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prov := newProvider(t, program("c1", fmt.Sprintf(tmpl, tt.command)), text("ok"))
			e := codeEnv(t, prov)
			e.appr.answers = tt.answers
			a := e.agent(func(o *agent.Options) {
				if tt.approver != nil {
					o.Approver = tt.approver
				}
			})
			id, err := a.Turn(t.Context(), e.conv(), "run it", nil)
			if err != nil {
				t.Fatal(err)
			}
			ev := events(t, e.db, id)
			want := append(append([]string{"user_message", "tool_call:run_go", "usage"}, tt.inner...), "tool_result:run_go", "assistant_text", "usage")
			if got := kinds(ev); !reflect.DeepEqual(got, want) {
				t.Fatalf("events %q\nwant   %q", got, want)
			}
			if out := ev[len(ev)-3].Text; !strings.Contains(out, tt.output) {
				t.Errorf("program output %q; want %q", out, tt.output)
			}
			if ran := len(e.rt.called()) > 0; ran != tt.ran {
				t.Errorf("ran = %v; want %v", ran, tt.ran)
			}
			if len(tt.answers) > 0 {
				reqs := e.appr.requests()
				if len(reqs) != 1 || reqs[0].ToolCallID != "c1.1" || reqs[0].Tool != "shell_exec" {
					t.Errorf("approval requests %+v; want one for shell_exec, call c1.1", reqs)
				}
			}
		})
	}
}

// Stopping the turn while a program's inner call runs stops the call and
// the program; the history stays well formed.
func TestCodeModeCancelled(t *testing.T) {
	src := "package main\n\nfunc main() {\n\tfor {\n\t\tslow_wait(SlowWaitArgs{})\n\t}\n}\n"
	prov := newProvider(t, program("c1", src))
	e := codeEnv(t, prov)
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		<-e.rt.started
		cancel()
	}()
	id, err := e.agent().Turn(ctx, e.conv(), "wait", nil)
	if !errors.Is(err, agent.ErrInterrupted) {
		t.Fatalf("err = %v; want ErrInterrupted", err)
	}
	ev := events(t, e.db, id)
	var got []string
	for _, x := range ev {
		got = append(got, fmt.Sprintf("%s:%s:%s", x.Type, x.ToolName, x.Status))
	}
	want := []string{"user_message::", "tool_call:run_go:", "usage::", "tool_call:slow_wait:", "tool_result:slow_wait:interrupted",
		"tool_result:run_go:interrupted", "error::interrupted"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("events %q\nwant   %q", got, want)
	}
	if n := len(e.rt.called()); n != 1 {
		t.Errorf("%d inner calls; want 1", n)
	}
	msgs := store.ToMessages(ev)
	if n := len(msgs); n != 3 || msgs[2].Role != provider.RoleTool {
		t.Errorf("replayed history: %+v", msgs)
	}
}

// Outside a conversation (caps call) there is no one to check the
// program's calls: run_go refuses.
func TestCodeModeOutsideTurn(t *testing.T) {
	res, err := agent.NewCodeMode(nil).Call(t.Context(), agent.CodeModeTool, json.RawMessage(`{"program":"package main\nfunc main(){}"}`))
	if err != nil || !res.IsError || !strings.Contains(res.Content, "inside a conversation") {
		t.Errorf("result %+v, err %v", res, err)
	}
}
