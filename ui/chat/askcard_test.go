package chat

import (
	"context"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/plugins/mcp"
)

// asked is what Chat.Ask returned.
type asked struct {
	ans   mcp.Answer
	shown bool
	err   error
}

// ask asks q from a goroutine of its own, as a server does.
func (h *harness) ask(ctx context.Context, q mcp.Question) <-chan asked {
	out := make(chan asked, 1)
	h.spawn(func() {
		a, shown, err := h.chat.Ask(ctx, q)
		out <- asked{a, shown, err}
	})
	return out
}

// answered runs queued UI updates until the question's answer came back.
func (h *harness) answered(ch <-chan asked) asked {
	h.t.Helper()
	deadline := time.After(waitLimit)
	for {
		select {
		case got := <-ch:
			return got
		case fn := <-h.queue:
			fn()
		case <-deadline:
			h.t.Fatal("timed out waiting for the answer")
		}
	}
}

// entriesIn lists the entries drawn inside o.
func entriesIn(o fyne.CanvasObject) []*widget.Entry {
	var out []*widget.Entry
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch v := o.(type) {
		case *widget.Entry:
			out = append(out, v)
		case *fyne.Container:
			for _, c := range v.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(v).Objects() {
				walk(c)
			}
		}
	}
	walk(o)
	return out
}

func f64(v float64) *float64 { return &v }

// A server's question during a call of the conversation shows as a card
// in it: the form from its schema with the default filled in; Accept
// with a required field empty says so under it and answers nothing;
// filled in, Accept answers with the values; Decline declines; a stopped
// call takes the card away; a question of a conversation not in the
// window is left to the dialog.
func TestQuestionCardInTheConversation(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.ToolCall("shell_exec", `{"command":"rm -rf build"}`))
	h.model.Reply(pt.Text("done"))
	h.send("book a room")
	h.until("the approval card", func() bool { return len(h.rowsOf(rowApproval)) == 1 })
	conv := h.chat.cur.id.String()
	q := mcp.Question{Server: "rooms", Tool: "book", Conversation: conv, Message: "Which room shall I book?", Fields: []mcp.Field{
		{Name: "guests", Type: "integer", Default: float64(2), Minimum: f64(1)},
		{Name: "room", Title: "Room", Type: "string", Required: true},
		{Name: "breakfast", Type: "boolean"},
	}}

	ch := h.ask(t.Context(), q)
	h.until("the question card", func() bool { return len(h.rowsOf(rowAsk)) == 1 })
	for _, want := range []string{"rooms asks", "During its tool call book.", "Which room shall I book?", "Room *", "* required"} {
		if !h.showsWrapped(want) {
			t.Errorf("the card does not show %q:\n%s", want, h.texts())
		}
	}
	card := h.rowsOf(rowAsk)[0].ask
	entries := entriesIn(card.form.Inputs())
	if len(entries) != 2 || entries[0].Text != "" || entries[1].Text != "2" {
		t.Fatalf("entries %v: want the required room empty, then guests at its default 2", entries)
	}
	test.Tap(h.button("Accept"))
	if len(h.rowsOf(rowAsk)) != 1 || !h.shows("Required.") {
		t.Fatalf("Accept with the room empty: the card should stay and say it is required:\n%s", h.texts())
	}
	test.Type(entries[0], "Blue room")
	test.Tap(h.button("Accept"))
	got := h.answered(ch)
	if !got.shown || got.err != nil || got.ans.Action != mcp.ActionAccept {
		t.Fatalf("answer %+v, want accepted in the card", got)
	}
	if c := got.ans.Content; c["room"] != "Blue room" || c["guests"] != int64(2) || c["breakfast"] != false {
		t.Errorf("content %v, want room, guests 2 and breakfast false", c)
	}
	h.until("the card to go", func() bool { return len(h.rowsOf(rowAsk)) == 0 })

	// Decline.
	ch = h.ask(t.Context(), q)
	h.until("the question card", func() bool { return len(h.rowsOf(rowAsk)) == 1 })
	test.Tap(h.button("Decline"))
	if got := h.answered(ch); got.ans.Action != mcp.ActionDecline || !got.shown {
		t.Errorf("answer %+v, want declined", got)
	}

	// The server gives up (the call was stopped): the card goes.
	ctx, cancel := context.WithCancel(t.Context())
	ch = h.ask(ctx, q)
	h.until("the question card", func() bool { return len(h.rowsOf(rowAsk)) == 1 })
	cancel()
	if got := h.answered(ch); got.err == nil || got.ans.Action != mcp.ActionCancel {
		t.Errorf("answer %+v, want cancelled with an error", got)
	}
	h.until("the card to go", func() bool { return len(h.rowsOf(rowAsk)) == 0 })

	// Another conversation's question (a scheduled task's): not here.
	other := q
	other.Conversation = "999999"
	if got := h.answered(h.ask(t.Context(), other)); got.shown {
		t.Errorf("a question of a conversation not in the window was shown: %+v", got)
	}

	// Stop (Esc) ends the turn: a question the server did not withdraw
	// itself is cancelled with it.
	ch = h.ask(t.Context(), q)
	h.until("the question card", func() bool { return len(h.rowsOf(rowAsk)) == 1 })
	h.chat.Stop()
	if got := h.answered(ch); got.ans.Action != mcp.ActionCancel || !got.shown {
		t.Errorf("answer after Stop %+v, want cancelled", got)
	}
	h.idle()
	if n := len(h.rowsOf(rowAsk)); n != 0 {
		t.Errorf("%d question cards after Stop", n)
	}
}

// A server's request for a completion during a call of the conversation
// shows as a card with its whole prompt; Allow lets it go to the model,
// Deny does not.
func TestSamplingCardInTheConversation(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.ToolCall("shell_exec", `{"command":"rm -rf build"}`))
	h.model.Reply(pt.Text("done"))
	h.send("summarise")
	h.until("the approval card", func() bool { return len(h.rowsOf(rowApproval)) == 1 })
	req := mcp.SampleRequest{Server: "everything", Tool: "trigger-sampling-request", Conversation: h.chat.cur.id.String(),
		SystemPrompt: "You are a helpful test server.", Messages: []mcp.SampleMessage{{Role: "user", Text: "What is the capital of France?"}}, MaxTokens: 50}
	for _, tc := range []struct {
		button string
		want   bool
	}{{"Allow", true}, {"Deny", false}} {
		t.Run(tc.button, func(t *testing.T) {
			type approved struct {
				ok, shown bool
				err       error
			}
			ch := make(chan approved, 1)
			h.spawn(func() {
				ok, shown, err := h.chat.ApproveSampling(t.Context(), req)
				ch <- approved{ok, shown, err}
			})
			h.until("the sampling card", func() bool { return len(h.rowsOf(rowAsk)) == 1 })
			for _, want := range []string{"everything asks your model for a completion", "During its tool call trigger-sampling-request.",
				"[system] You are a helpful test server.", "[user] What is the capital of France?", "at most 50 tokens"} {
				if !h.showsWrapped(want) {
					t.Errorf("the card does not show %q:\n%s", want, h.texts())
				}
			}
			test.Tap(h.button(tc.button))
			var got approved
			for done := false; !done; {
				select {
				case got = <-ch:
					done = true
				case fn := <-h.queue:
					fn()
				case <-time.After(waitLimit):
					t.Fatal("timed out waiting for the answer")
				}
			}
			if got.ok != tc.want || !got.shown || got.err != nil {
				t.Errorf("%s: %+v, want allowed %v", tc.button, got, tc.want)
			}
		})
	}
	// The card's Deny is the last button named so: the approval's is
	// found below the transcript's card.
	test.Tap(h.button("Deny"))
	h.idle()
}
