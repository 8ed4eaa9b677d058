package agent_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
)

// runCancelled runs a turn in the background, cancels it once started is
// closed, and returns the turn's id and error.
func runCancelled(t *testing.T, a *agent.Agent, id store.ID, started <-chan struct{}, s agent.Sink) (store.ID, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	type out struct {
		id  store.ID
		err error
	}
	done := make(chan out, 1)
	go func() {
		id, err := a.Turn(ctx, id, "start", s)
		done <- out{id, err}
	}()
	<-started
	cancel()
	o := <-done
	return o.id, o.err
}

// checkWellFormed asserts every tool call of the model-facing history has
// exactly one result right after its assistant message.
func checkWellFormed(t *testing.T, msgs []provider.Message) {
	t.Helper()
	for i, m := range msgs {
		if m.Role != provider.RoleAssistant {
			continue
		}
		for j, c := range m.ToolCalls {
			k := i + 1 + j
			if k >= len(msgs) || msgs[k].Role != provider.RoleTool || msgs[k].ToolCallID != c.ID {
				t.Errorf("call %s of message %d has no result in place: %+v", c.ID, i, msgs)
			}
		}
	}
}

func TestCancelMidStream(t *testing.T) {
	prov := newProvider(t,
		turn{providertest.Text("partial ", "answer"), tc("c1", "echo_back", `{"text":"x"}`), providertest.Hold()},
		text("fresh answer"))
	e := newEnv(t, prov)
	s := &sink{}
	id, err := runCancelled(t, e.agent(), e.conv(), prov.Waiting(), s)
	if !errors.Is(err, agent.ErrInterrupted) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	ev := events(t, e.db, id)
	want := []string{"user_message", "assistant_text:interrupted", "tool_call:echo_back", "tool_result:echo_back:error", "error"}
	if got := kinds(ev); !reflect.DeepEqual(got, want) {
		t.Fatalf("events %q\nwant   %q", got, want)
	}
	if ev[1].Text != "partial answer" || !strings.Contains(ev[3].Text, "did not run") || !strings.Contains(ev[4].Text, "interrupted") {
		t.Errorf("events %+v", ev)
	}
	if len(e.rt.called()) != 0 {
		t.Error("a call ran after the stop")
	}
	checkSink(t, e.db, id, s, 0)

	if _, err := e.agent().Turn(t.Context(), id, "go on", nil); err != nil {
		t.Fatal(err)
	}
	msgs := prov.Requests()[1].Messages
	checkWellFormed(t, msgs)
	if len(msgs) != 4 || msgs[1].Content != "partial answer" || msgs[3].Content != "go on" {
		t.Errorf("next request %+v", msgs)
	}
}

func TestCancelBeforeAnyText(t *testing.T) {
	prov := newProvider(t, turn{providertest.Hold()})
	e := newEnv(t, prov)
	id, err := runCancelled(t, e.agent(), e.conv(), prov.Waiting(), nil)
	if !errors.Is(err, agent.ErrInterrupted) {
		t.Fatalf("err = %v", err)
	}
	if got := kinds(events(t, e.db, id)); !reflect.DeepEqual(got, []string{"user_message", "error"}) {
		t.Errorf("events %q", got)
	}
}

func TestCancelMidTool(t *testing.T) {
	prov := newProvider(t,
		calls(tc("c1", "slow_wait", `{}`), tc("c2", "echo_back", `{"text":"after"}`)),
		text("recovered"))
	e := newEnv(t, prov)
	s := &sink{}
	id, err := runCancelled(t, e.agent(), e.conv(), e.rt.started, s)
	if !errors.Is(err, agent.ErrInterrupted) {
		t.Fatalf("err = %v", err)
	}
	ev := events(t, e.db, id)
	want := []string{"user_message", "tool_call:slow_wait", "tool_call:echo_back", "usage",
		"tool_result:slow_wait:error", "tool_result:echo_back:error", "error"}
	if got := kinds(ev); !reflect.DeepEqual(got, want) {
		t.Fatalf("events %q\nwant   %q", got, want)
	}
	if !strings.Contains(ev[4].Text, "outcome is unknown") || !strings.Contains(ev[5].Text, "did not run") {
		t.Errorf("results %q / %q", ev[4].Text, ev[5].Text)
	}
	if got := e.rt.called(); len(got) != 1 {
		t.Errorf("ran %q: the second call must not run", got)
	}
	checkSink(t, e.db, id, s, 0)
	if _, err := e.agent().Turn(t.Context(), id, "again", nil); err != nil {
		t.Fatal(err)
	}
	checkWellFormed(t, prov.Requests()[1].Messages)
}

func TestCancelWhileAsking(t *testing.T) {
	started := make(chan struct{})
	appr := gate.ApproverFunc(func(ctx context.Context, _ gate.Request) (gate.Approval, error) {
		close(started)
		<-ctx.Done()
		return gate.Deny, ctx.Err()
	})
	prov := newProvider(t, calls(tc("c1", "shell_exec", `{"command":"sudo ls"}`)))
	e := newEnv(t, prov)
	id, err := runCancelled(t, e.agent(func(o *agent.Options) { o.Approver = appr }), e.conv(), started, nil)
	if !errors.Is(err, agent.ErrInterrupted) {
		t.Fatalf("err = %v", err)
	}
	ev := events(t, e.db, id)
	want := []string{"user_message", "tool_call:shell_exec", "usage", "tool_result:shell_exec:error", "error"}
	if got := kinds(ev); !reflect.DeepEqual(got, want) {
		t.Fatalf("events %q\nwant   %q", got, want)
	}
	if len(e.rt.called()) != 0 {
		t.Error("ran without approval")
	}
}
