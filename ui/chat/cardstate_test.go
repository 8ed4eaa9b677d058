package chat

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/gate"
	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// A call whose approval was pending when the app quit is stored with no
// decision and no result (the decision is recorded once given), and no
// turn runs in its conversation any more. The window opened afterwards
// says the call did not run and why, instead of "running…" for ever; a
// call that needed no approval and never finished says its outcome is
// unknown. The state is written as a killed app leaves it.
func TestUnfinishedCallAfterRestartSaysWhatHappened(t *testing.T) {
	h := newHarness(t)
	db := h.core.Engine().DB
	conv, err := db.CreateConversation("fake-model")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []store.Event{
		{Type: store.EventUserMessage, Text: "clean up, then add"},
		{Type: store.EventToolCall, ToolCallID: "c1", ToolName: "shell_exec", Arguments: []byte(`{"command":"rm -rf notes"}`)},
		{Type: store.EventToolCall, ToolCallID: "c2", ToolName: "calc_eval", Arguments: []byte(`{"expression":"1+1"}`)},
	} {
		if _, err := db.AppendEvent(conv.ID, e); err != nil {
			t.Fatal(err)
		}
	}
	h.chat.Open(conv.ID)
	calls := h.rowsOf(rowTool)
	if len(calls) != 2 {
		t.Fatalf("%d calls shown, want 2", len(calls))
	}
	card := newToolCard(h.chat)
	card.bind(calls[0])
	if card.state.Text != "not run" || card.state.Importance != widget.DangerImportance {
		t.Errorf("state %q (importance %v), want a red \"not run\"", card.state.Text, card.state.Importance)
	}
	if !strings.Contains(card.note.text, "the app closed while this call waited for your approval") || !card.note.Visible() {
		t.Errorf("note %q, want it to say the app closed while the call waited for approval", card.note.text)
	}
	card.bind(calls[1])
	if card.state.Text != "did not finish" || !strings.Contains(card.note.text, "outcome is unknown") {
		t.Errorf("a call that ran: state %q, note %q; want did not finish, outcome unknown", card.state.Text, card.note.text)
	}
}

// While the window's own turn waits for the answer, the same kind of call
// reads "waiting for approval".
func TestWaitingCallReadsWaiting(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.ToolCall("shell_exec", `{"command":"rm -rf notes"}`))
	h.send("clean up")
	h.until("the approval card", func() bool { return len(h.rowsOf(rowApproval)) == 1 })
	card := newToolCard(h.chat)
	card.bind(h.rowsOf(rowTool)[0])
	if card.state.Text != "waiting for approval" {
		t.Errorf("the asking window's card says %q, want waiting for approval", card.state.Text)
	}
}

// A command that ran and exited non-zero is a failure: red, "failed" with
// its exit code, never a green "ok".
func TestFailedCommandIsNotOK(t *testing.T) {
	h := newHarness(t)
	cmd := `{"command":"echo 'rm: cannot remove: Permission denied' >&2; exit 1"}`
	h.model.Reply(pt.ToolCall("shell_exec", cmd))
	h.model.Reply(pt.Text("It failed."))
	h.send("remove it")
	h.until("the approval card", func() bool { return len(h.rowsOf(rowApproval)) == 1 })
	test.Tap(h.button("Approve"))
	h.idle()
	r := h.rowsOf(rowTool)[0]
	if !strings.Contains(r.tool.result, "exit code: 1") || r.tool.isError {
		t.Fatalf("result %q (isError %v): the shell reports its exit code, not an error", r.tool.result, r.tool.isError)
	}
	card := newToolCard(h.chat)
	card.bind(r)
	if !strings.HasPrefix(card.state.Text, "failed · exit code 1") || card.state.Importance != widget.DangerImportance {
		t.Errorf("state %q (importance %v), want a red failed · exit code 1", card.state.Text, card.state.Importance)
	}
	if card.toggle.Text != "Error" {
		t.Errorf("toggle %q, want Error", card.toggle.Text)
	}
}

func TestExitCode(t *testing.T) {
	for _, tc := range []struct {
		result string
		code   int
		ok     bool
	}{
		{"exit code: 0\nhi\n", 0, true},
		{"exit code: 1\nrm: Permission denied\n", 1, true},
		{"note: pipe held open\nexit code: 2\n", 2, true},
		{"timed out after 5s: the command was killed.\n", 0, false},
		{"the answer is 2\nexit code: 1", 0, false},
		{"", 0, false},
	} {
		code, ok := exitCode(tc.result)
		if code != tc.code || ok != tc.ok {
			t.Errorf("exitCode(%q) = %d, %v; want %d, %v", tc.result, code, ok, tc.code, tc.ok)
		}
	}
	t0 := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	call := &toolCall{done: true, started: t0, ended: t0.Add(86 * time.Millisecond), result: "exit code: 1\nPermission denied"}
	if state, _ := toolState(call); state != "failed · exit code 1 · 86ms" {
		t.Errorf("state %q, want failed · exit code 1 · 86ms", state)
	}
	call.decision = &store.Decision{Kind: store.ApprovedOnce}
	call.decided = t0
	if state, _ := toolState(call); state != "failed · exit code 1 · 86ms" {
		t.Errorf("approved: state %q, want failed · exit code 1 · 86ms", state)
	}
}

// The first message of a conversation that no model answered stays on
// screen with its error and Retry, and so the conversation stays listed
// and selected in the sidebar: the screen and the sidebar agree. Retry
// answers it in the same conversation.
func TestFirstFailedTurnKeepsItsConversationListed(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.Status(401, `{"error":{"message":"bad key"}}`))
	h.send("hello?")
	h.idle()
	id := h.chat.Current()
	if id == 0 {
		t.Fatal("the failed first turn left the screen on a conversation that does not exist")
	}
	if len(h.rowsOf(rowError)) != 1 || !h.hasButton("Retry") {
		t.Fatalf("no error card with Retry; window shows:\n%s", h.texts())
	}
	listed := false
	for _, c := range h.chat.sidebar.convs {
		listed = listed || c.ID == id
	}
	if !listed {
		t.Fatalf("conversation %s is shown but not listed in the sidebar", id)
	}
	h.model.Reply(pt.Text("Hello!"))
	test.Tap(h.button("Retry"))
	h.idle()
	if h.chat.Current() != id {
		t.Errorf("Retry moved to conversation %s, want %s", h.chat.Current(), id)
	}
	users := 0
	for _, e := range h.stored(id) {
		if e.Type == store.EventUserMessage {
			users++
		}
	}
	if users != 1 || len(h.rowsOf(rowAssistant)) != 1 {
		t.Errorf("after Retry: %d stored messages, %d replies; want the one message answered once", users, len(h.rowsOf(rowAssistant)))
	}
}

// A call refused because its capability is off offers the fix on its card
// ("Enable calc"), and the button makes it: calc is enabled through the
// core's enable path, the card says so and offers Retry, which answers
// the turn again with calc on. Other cards have no such button.
func TestFailedCallCardMakesItsFix(t *testing.T) {
	h := newHarness(t)
	if err := h.core.Disable("calc"); err != nil {
		t.Fatal(err)
	}
	h.model.Reply(pt.ToolCall("calc_eval", `{"expression":"1+1"}`))
	h.model.Reply(pt.Text("calc is off"))
	h.send("1+1?")
	h.idle()
	test.Tap(h.button("Enable calc"))
	h.until("calc enabled", func() bool { return h.shows("calc is enabled now.") })
	if len(h.navigated) != 0 {
		t.Errorf("the fix navigated to %v instead of enabling", h.navigated)
	}
	if cp, err := h.core.Capabilities().Get("calc"); err != nil || !cp.Usable() {
		t.Fatalf("calc after the fix: %+v, %v; want enabled", cp, err)
	}
	h.model.Reply(pt.ToolCall("calc_eval", `{"expression":"1+1"}`))
	h.model.Reply(pt.Text("two"))
	test.Tap(h.button("Retry"))
	h.idle()
	calls := h.rowsOf(rowTool)
	if len(calls) != 1 || calls[0].tool.failed() || !strings.Contains(calls[0].tool.result, "2") {
		t.Fatalf("after Retry: calls %d, last %+v; want calc run once more, successfully", len(calls), calls[len(calls)-1].tool)
	}
	for _, o := range h.visible() {
		if b, ok := o.(*widget.Button); ok && (strings.HasPrefix(b.Text, "Enable ") || b.Text == "Retry") {
			t.Errorf("a %q button shows after a successful call", b.Text)
		}
	}
}

// The fix of a plugin missing a permission grants it; other fixes (a
// model setting) are not the chat's to make.
func TestCapFixOf(t *testing.T) {
	for _, tc := range []struct {
		h    hint.Hint
		want capFix
		ok   bool
	}{
		{hint.Hint{Command: []string{"caps", "enable", "calc"}}, capFix{name: "calc"}, true},
		{hint.Hint{Command: []string{"caps", "enable", "shell", "--grant", "exec,network"}}, capFix{name: "shell", grant: []string{"exec", "network"}}, true},
		{hint.Hint{Command: []string{"secrets", "set", "openai_api_key"}}, capFix{}, false},
		{hint.Hint{Page: hint.PageModel}, capFix{}, false},
	} {
		got, ok := capFixOf(&tc.h)
		if ok != tc.ok || got.name != tc.want.name || strings.Join(got.grant, ",") != strings.Join(tc.want.grant, ",") {
			t.Errorf("capFixOf(%v) = %+v, %v; want %+v, %v", tc.h.Command, got, ok, tc.want, tc.ok)
		}
	}
}

// An MCP capability's fix asks first, as the Capabilities page does: the
// dialog shows the command it runs, and only "Approve and enable" enables
// it; Cancel leaves it off.
func TestCardFixOfAnMCPServerAsksFirst(t *testing.T) {
	for _, approve := range []bool{false, true} {
		t.Run(map[bool]string{false: "cancelled", true: "approved"}[approve], func(t *testing.T) {
			h := newHarness(t)
			if _, err := h.core.AddMCP(context.Background(), assistant.MCPServer{Name: "notes", MCPServer: skillmd.MCPServer{Command: "/bin/true", Args: []string{"--notes-server"}}}, false); err != nil {
				t.Fatal(err)
			}
			if err := h.core.Disable("notes"); err != nil {
				t.Fatal(err)
			}
			r := &row{kind: rowTool, tool: &toolCall{id: "x", name: "notes_read", done: true, isError: true,
				fix: &hint.Hint{Action: "Enable notes", Command: []string{"caps", "enable", "notes"}, Page: hint.PageCapabilities, Target: "notes"}}}
			h.chat.applyFix(r)
			h.until("the dialog", func() bool { return h.hasButton("Approve and enable") })
			if !h.shows("--notes-server") {
				t.Errorf("the dialog does not show the command; it shows:\n%s", h.texts())
			}
			if approve {
				test.Tap(h.button("Approve and enable"))
			} else {
				test.Tap(h.button("Cancel"))
			}
			h.idle()
			h.until("the enable", func() bool {
				cp, err := h.core.Capabilities().Get("notes")
				return err == nil && (!approve || cp.State != cerebellum.StateDisabled)
			})
			cp, _ := h.core.Capabilities().Get("notes")
			if on := cp.State != cerebellum.StateDisabled; on != approve {
				t.Errorf("notes state %s after the dialog (approved %v)", cp.State, approve)
			}
		})
	}
}

// A call of a turn the chat did not start (a scheduled run, a command
// forwarded to the window) that is still under way reads as running, not
// as left unfinished.
func TestCallOfAnotherTurnUnderWayIsRunning(t *testing.T) {
	h := newHarness(t)
	asked := make(chan struct{})
	release := make(chan struct{})
	approver := gate.ApproverFunc(func(ctx context.Context, _ gate.Request) (gate.Approval, error) {
		close(asked)
		select {
		case <-release:
			return gate.Deny, nil
		case <-ctx.Done():
			return gate.Deny, ctx.Err()
		}
	})
	h.model.Reply(pt.ToolCall("shell_exec", `{"command":"rm -r build"}`))
	h.model.Reply(pt.Text("denied"))
	ids := make(chan store.ID, 1)
	done := make(chan error, 1)
	go func() {
		_, err := h.core.Turn(context.Background(), 0, "clean up", assistant.TurnOptions{Approver: approver, Started: func(id store.ID) { ids <- id }})
		done <- err
	}()
	id := <-ids
	<-asked
	h.chat.Open(id)
	var call *row
	for _, r := range h.rowsOf(rowTool) {
		call = r
	}
	if call == nil {
		t.Fatal("no call shown")
	}
	card := newToolCard(h.chat)
	card.bind(call)
	if card.state.Text != "running…" {
		t.Errorf("a call of a turn under way reads %q, want running…", card.state.Text)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
