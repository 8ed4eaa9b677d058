package agent_test

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/store"
)

// Each case is one call through the gate with the real shell patterns.
func TestGateDecisionsInTurn(t *testing.T) {
	tests := []struct {
		name     string
		call     string // tool + " " + args
		answers  []gate.Approval
		approver gate.Approver // overrides the scripted one
		asked    int
		events   []string // the turn's events after the tool call
		decision string   // substring of the approval reason
		result   string   // substring of the tool result
		ran      bool
	}{
		{name: "tool that is not destructive runs unasked", call: `echo_back {"text":"hi"}`,
			events: []string{"tool_result:echo_back"}, result: "echo: hi", ran: true},
		{name: "plain command asks: shell_exec is destructive", call: `shell_exec {"command":"ls -la"}`, answers: []gate.Approval{gate.ApproveOnce}, asked: 1,
			events: []string{"approval:approved_once", "tool_result:shell_exec"}, decision: "shell_exec is marked destructive", result: "ran shell_exec", ran: true},
		{name: "plain command headless is denied", call: `shell_exec {"command":"ls -la"}`, approver: gate.DenyAll{},
			events: []string{"approval:denied", "tool_result:shell_exec:error"}, decision: "no one to ask", result: "no one can approve it now"},
		{name: "quoted danger blocks", call: `shell_exec {"command":"r''m -rf \"$HOME\""}`,
			events: []string{"approval:blocked", "tool_result:shell_exec:error"}, decision: "home folder", result: "Blocked by the safety policy"},
		{name: "danger pattern blocks", call: `shell_exec {"command":"rm -rf /"}`,
			events: []string{"approval:blocked", "tool_result:shell_exec:error"}, decision: "recursive delete of the root folder",
			result: "Blocked by the safety policy; it did not run: recursive delete of the root folder"},
		{name: "confirm approved once", call: `shell_exec {"command":"sudo ls"}`, answers: []gate.Approval{gate.ApproveOnce}, asked: 1,
			events: []string{"approval:approved_once", "tool_result:shell_exec"}, decision: "administrator rights", result: "ran shell_exec", ran: true},
		{name: "confirm denied", call: `shell_exec {"command":"git push --force"}`, answers: []gate.Approval{gate.Deny}, asked: 1,
			events: []string{"approval:denied", "tool_result:shell_exec:error"}, decision: "the user said no",
			result: "Not run: the user denied this call (it needed approval because: publishes commits to a remote; can change or delete things (shell_exec is marked destructive))"},
		{name: "unknown answer fails closed", call: `shell_exec {"command":"sudo ls"}`, answers: []gate.Approval{"maybe"}, asked: 1,
			events: []string{"approval:denied", "tool_result:shell_exec:error"}, result: "the user denied"},
		{name: "headless denies", call: `shell_exec {"command":"sudo reboot"}`, approver: gate.DenyAll{},
			events: []string{"approval:denied", "tool_result:shell_exec:error"}, decision: "no one to ask",
			result: "no one can approve it now"},
		{name: "approver failure denies", call: `shell_exec {"command":"sudo ls"}`,
			approver: gate.ApproverFunc(func(context.Context, gate.Request) (gate.Approval, error) {
				return gate.ApproveOnce, errors.New("window closed")
			}),
			events: []string{"approval:denied", "tool_result:shell_exec:error"}, decision: "window closed", result: "counts as denied"},
		{name: "destructive annotation confirms", call: `wipe_all {}`, answers: []gate.Approval{gate.ApproveOnce}, asked: 1,
			events: []string{"approval:approved_once", "tool_result:wipe_all"}, decision: "wipe_all is marked destructive", ran: true, result: "ran wipe_all"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool, args, _ := strings.Cut(tt.call, " ")
			prov := newProvider(t, calls(tc("c1", tool, args)), text("ok"))
			e := newEnv(t, prov)
			e.appr.answers = tt.answers
			a := e.agent(func(o *agent.Options) {
				if tt.approver != nil {
					o.Approver = tt.approver
				}
			})
			id, err := a.Turn(t.Context(), e.conv(), "do it", nil)
			if err != nil {
				t.Fatal(err)
			}
			ev := events(t, e.db, id)
			want := append(append([]string{"user_message", "tool_call:" + tool, "usage"}, tt.events...), "assistant_text", "usage")
			if got := kinds(ev); !reflect.DeepEqual(got, want) {
				t.Fatalf("events %q\nwant   %q", got, want)
			}
			if got := len(e.appr.requests()); got != tt.asked {
				t.Errorf("asked %d times, want %d", got, tt.asked)
			}
			if tt.decision != "" && !strings.Contains(ev[3].Decision.Reason, tt.decision) {
				t.Errorf("decision reason %q, want %q", ev[3].Decision.Reason, tt.decision)
			}
			res := ev[len(ev)-3]
			if !strings.Contains(res.Text, tt.result) || res.ToolCallID != "c1" {
				t.Errorf("result %q (call %q), want %q", res.Text, res.ToolCallID, tt.result)
			}
			if ran := len(e.rt.called()) > 0; ran != tt.ran {
				t.Errorf("ran = %v, want %v", ran, tt.ran)
			}
		})
	}
}

// "Approve for this conversation" covers later calls of exactly the same
// command matching the same patterns, in this turn and later ones, also
// after a restart; other commands and other conversations still ask.
func TestApproveForConversation(t *testing.T) {
	prov := newProvider(t,
		calls(tc("c1", "shell_exec", `{"command":"git push"}`)),
		calls(tc("c2", "shell_exec", `{"command":"git push"}`), tc("c3", "shell_exec", `{"command":"git push origin main"}`)),
		text("done"),
		// Second turn, after a restart.
		calls(tc("c4", "shell_exec", `{"command":"git push"}`)),
		text("done again"),
		// Another conversation.
		calls(tc("c5", "shell_exec", `{"command":"git push"}`)),
		text("asked"),
	)
	e := newEnv(t, prov)
	e.appr.answers = []gate.Approval{gate.ApproveConversation, gate.Deny, gate.ApproveOnce}
	id, err := e.agent().Turn(t.Context(), e.conv(), "publish", nil)
	if err != nil {
		t.Fatal(err)
	}
	reqs := e.appr.requests()
	if len(reqs) != 2 || !strings.Contains(reqs[0].Summary, "git push") || !strings.Contains(reqs[1].Summary, "git push origin main") {
		t.Fatalf("approval requests %+v", reqs)
	}
	if reqs[0].Scope != "this exact command" || reqs[0].ChatCovers() != "this exact command" {
		t.Errorf("scope %q, covers %q", reqs[0].Scope, reqs[0].ChatCovers())
	}
	ev := events(t, e.db, id)
	var decisions []string
	for _, x := range ev {
		if x.Type == store.EventApproval {
			decisions = append(decisions, x.ToolCallID+":"+string(x.Decision.Kind))
		}
	}
	if want := []string{"c1:approved_conversation", "c2:approved_conversation", "c3:denied"}; !slices.Equal(decisions, want) {
		t.Errorf("decisions %q, want %q", decisions, want)
	}
	if got := e.rt.called(); len(got) != 2 {
		t.Errorf("ran %q", got)
	}

	// Restart: a new agent and registry over the same store.
	e.reg = openRegistry(t, e.rt)
	if _, err := e.agent().Turn(t.Context(), id, "more", nil); err != nil {
		t.Fatal(err)
	}
	if n := len(e.appr.requests()); n != 2 {
		t.Errorf("asked again after restart (%d requests)", n)
	}
	if _, err := e.agent().Turn(t.Context(), e.conv(), "new conversation", nil); err != nil {
		t.Fatal(err)
	}
	if n := len(e.appr.requests()); n != 3 {
		t.Errorf("a new conversation must ask again (%d requests)", n)
	}
}

// Approving one shell command for the conversation covers that command
// again, not the same program with other arguments, nor another program.
func TestApproveDestructiveForConversation(t *testing.T) {
	prov := newProvider(t,
		calls(tc("c1", "shell_exec", `{"command":"ls"}`)),
		calls(tc("c2", "shell_exec", `{"command":"ls"}`), tc("c3", "shell_exec", `{"command":"ls -la"}`), tc("c4", "shell_exec", `{"command":"make test"}`)),
		text("done"),
	)
	e := newEnv(t, prov)
	e.appr.answers = []gate.Approval{gate.ApproveConversation, gate.Deny, gate.Deny}
	id, err := e.agent().Turn(t.Context(), e.conv(), "build it", nil)
	if err != nil {
		t.Fatal(err)
	}
	var decisions []string
	for _, x := range events(t, e.db, id) {
		if x.Type == store.EventApproval {
			decisions = append(decisions, x.ToolCallID+":"+string(x.Decision.Kind))
		}
	}
	if want := []string{"c1:approved_conversation", "c2:approved_conversation", "c3:denied", "c4:denied"}; !slices.Equal(decisions, want) {
		t.Errorf("decisions %q, want %q", decisions, want)
	}
	reqs := e.appr.requests()
	if len(reqs) != 3 || !strings.Contains(reqs[1].Summary, "ls -la") || !strings.Contains(reqs[2].Summary, "make test") || reqs[0].Scope == "" {
		t.Errorf("asked %d times: %+v", len(reqs), reqs)
	}
	if got := e.rt.called(); len(got) != 2 {
		t.Errorf("ran %q", got)
	}
}
