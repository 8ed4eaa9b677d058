package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/gate"
	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

func TestSendShowsStreamedReplyAndToolCard(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.ToolCall("calc_eval", `{"expression": "6*7"}`))
	h.model.Reply(pt.Text("The answer ", "is **42**."), pt.Usage(1500, 20))
	h.send("what is 6*7?")

	h.idle()
	if h.chat.Current() == 0 {
		t.Fatal("the first message made no conversation")
	}
	tools := h.rowsOf(rowTool)
	if len(tools) != 1 {
		t.Fatalf("%d tool cards, want 1", len(tools))
	}
	call := tools[0].tool
	if call.name != "calc_eval" || call.capability != "calc" || !call.done || call.isError || call.result == "" {
		t.Errorf("tool card %+v, want calc_eval of calc with a result", *call)
	}
	for _, want := range []string{"calc_eval", "calc", `{"expression":"6*7"}`, "The answer", "42", "what is 6*7?", "fake-model"} {
		if !h.shows(want) {
			t.Errorf("the window does not show %q; it shows:\n%s", want, h.texts())
		}
	}
	// The result is collapsed until expanded.
	if h.shows(call.result) {
		t.Errorf("the result %q shows before the card is expanded", call.result)
	}
	test.Tap(h.button("Result"))
	if !h.shows(strings.SplitN(call.result, "\n", 2)[0]) {
		t.Errorf("the expanded card does not show the result %q", call.result)
	}
	if got := h.chat.status.usage.Text; !strings.Contains(got, "1.5k in") || !strings.Contains(got, "20 out") {
		t.Errorf("status line usage %q, want 1.5k in · 20 out", got)
	}
	if got := h.chat.status.window.Text; got != "Context 1.5k / 32k" {
		t.Errorf("context gauge %q, want Context 1.5k / 32k", got)
	}
	// The reply copies whole, as its Markdown.
	replies := h.rowsOf(rowAssistant)
	h.chat.copyRow(replies[len(replies)-1])
	if got := h.copied[len(h.copied)-1]; got != "The answer is **42**." {
		t.Errorf("Copy gave %q", got)
	}
	// The strip shows calc, loaded by the call, with an × to unload it.
	if !slices.Contains(h.chat.strip.loaded, "calc") {
		t.Fatalf("loaded strip %v, want calc in the conversation's set", h.chat.strip.loaded)
	}
	test.Tap(h.button("calc"))
	if slices.Contains(h.chat.strip.loaded, "calc") {
		t.Errorf("calc still loaded after its × was tapped: %v", h.chat.strip.loaded)
	}
	if saved, _ := h.core.History().Loaded(h.chat.Current()); slices.Contains(saved, "calc") {
		t.Errorf("stored loaded set %v still has calc", saved)
	}
}

func TestStreamedTextShowsWhileTheReplyRuns(t *testing.T) {
	h := newHarness(t)
	release := make(chan struct{})
	h.model.Reply(pt.Text("Hello, ", "wor"), pt.Wait(release), pt.Text("ld"))
	h.send("hi")
	<-h.model.Waiting()
	h.until("the streamed text", func() bool {
		r := h.rowsOf(rowAssistant)
		return len(r) == 1 && r[0].text == "Hello, wor"
	})
	if !h.shows("writing…") || h.chat.composer.send.Text != "Stop" {
		t.Errorf("while streaming: meta shown %v, button %q; want writing… and Stop", h.shows("writing…"), h.chat.composer.send.Text)
	}
	close(release)
	h.idle()
	if r := h.rowsOf(rowAssistant); len(r) != 1 || r[0].text != "Hello, world" || r[0].status != store.StatusComplete {
		t.Fatalf("final reply rows %+v", r)
	}
	if h.chat.composer.send.Text != "Send" {
		t.Errorf("button %q after the turn, want Send", h.chat.composer.send.Text)
	}
}

func TestApprovalAnswers(t *testing.T) {
	for _, tc := range []struct {
		button   string
		decision store.DecisionKind
		ran      bool
	}{
		{"Approve", store.ApprovedOnce, true},
		{"Approve for this chat", store.ApprovedConversation, true},
		{"Deny", store.Denied, false},
	} {
		t.Run(tc.button, func(t *testing.T) {
			h := newHarness(t)
			h.model.Reply(pt.ToolCall("shell_exec", `{"command":"echo wrasse-ran"}`))
			h.model.Reply(pt.Text("done"))
			h.send("run it")
			h.until("the approval card", func() bool { return len(h.rowsOf(rowApproval)) == 1 })
			for _, want := range []string{"Approve shell_exec (shell)?", "shell_exec command=echo wrasse-ran", "Why: "} {
				if !h.shows(want) {
					t.Errorf("approval card lacks %q; window shows:\n%s", want, h.texts())
				}
			}
			test.Tap(h.button(tc.button))
			h.idle()
			if n := len(h.rowsOf(rowApproval)); n != 0 {
				t.Errorf("%d approval cards after answering", n)
			}
			call := h.rowsOf(rowTool)[0].tool
			if call.decision == nil || call.decision.Kind != tc.decision {
				t.Fatalf("decision %+v, want %s", call.decision, tc.decision)
			}
			if ran := strings.Contains(call.result, "wrasse-ran"); ran != tc.ran {
				t.Errorf("result %q: ran %v, want %v", call.result, ran, tc.ran)
			}
		})
	}
}

func TestApprovalSurvivesConversationSwitch(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.Text("first"))
	h.send("an earlier chat")
	h.idle()
	earlier := h.chat.Current()

	h.chat.NewConversation()
	h.model.Reply(pt.ToolCall("shell_exec", `{"command":"echo survived"}`))
	h.model.Reply(pt.Text("ok"))
	h.send("needs approval")
	h.until("the approval card", func() bool { return len(h.rowsOf(rowApproval)) == 1 })
	asking := h.chat.Current()

	h.chat.Open(earlier)
	if n := len(h.rowsOf(rowApproval)); n != 0 || h.shows("Approve shell_exec") {
		t.Fatalf("the other conversation shows %d approval cards", n)
	}
	if !h.shows("waiting for your approval") {
		t.Errorf("the sidebar does not mark the conversation waiting for approval")
	}
	h.chat.Open(asking)
	if n := len(h.rowsOf(rowApproval)); n != 1 || !h.shows("Approve shell_exec") {
		t.Fatalf("back in the asking conversation: %d approval cards", n)
	}
	test.Tap(h.button("Approve"))
	h.idle()
	if r := h.rowsOf(rowTool)[0].tool.result; !strings.Contains(r, "survived") {
		t.Errorf("result %q, want the command's output", r)
	}
}

func TestBlockedCallShowsNote(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.ToolCall("shell_exec", `{"command":"rm -rf /"}`))
	h.model.Reply(pt.Text("I may not."))
	h.send("wipe it")
	h.idle()
	call := h.rowsOf(rowTool)[0].tool
	if call.decision == nil || call.decision.Kind != store.Blocked {
		t.Fatalf("decision %+v, want blocked", call.decision)
	}
	if !h.shows("Blocked by the safety policy: recursive delete") {
		t.Errorf("no blocked note; window shows:\n%s", h.texts())
	}
}

func TestEditAndResend(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.Text("reply one"))
	h.send("first question")
	h.idle()
	h.model.Reply(pt.Text("reply two"))
	h.send("second question")
	h.idle()

	first := h.rowsOf(rowUser)[0]
	h.chat.beginEdit(first)
	if h.chat.composer.entry.Text != "first question" || !h.chat.composer.banner.Visible() {
		t.Fatalf("editing: composer %q, banner shown %v", h.chat.composer.entry.Text, h.chat.composer.banner.Visible())
	}
	h.model.Reply(pt.Text("reply to the edit"))
	h.send("edited question")
	h.idle()

	var got []string
	for _, r := range h.chat.cur.rows {
		got = append(got, r.text)
	}
	want := []string{"edited question", "reply to the edit"}
	if !slices.Equal(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
	var stored []string
	for _, e := range h.stored(h.chat.Current()) {
		if e.Type == store.EventUserMessage || e.Type == store.EventAssistantText {
			stored = append(stored, e.Text)
		}
	}
	if !slices.Equal(stored, want) {
		t.Errorf("stored %q, want %q", stored, want)
	}
}

func TestRegenerate(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.Text("a bad answer"))
	h.send("question")
	h.idle()
	h.model.Reply(pt.Text("a better answer"))
	test.Tap(h.regenButton())
	h.idle()
	replies := h.rowsOf(rowAssistant)
	if len(replies) != 1 || replies[0].text != "a better answer" {
		t.Fatalf("replies %+v, want only the regenerated one", replies)
	}
	if h.shows("a bad answer") {
		t.Error("the replaced reply still shows")
	}
}

// regenButton is the Regenerate button of the last reply.
func (h *harness) regenButton() fyne.Tappable {
	h.t.Helper()
	for _, o := range h.visible() {
		if rv, ok := o.(*rowView); ok && rv.msg != nil && rv.shown == rv.msg.col && rv.msg.regen.Visible() {
			return rv.msg.regen
		}
	}
	h.t.Fatal("no Regenerate button shows")
	return nil
}

func TestProviderErrorShowsRetryAndFix(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.Status(401, `{"error":{"message":"bad key"}}`))
	h.send("hello")
	h.idle()
	errs := h.rowsOf(rowError)
	if len(errs) != 1 {
		t.Fatalf("%d error rows, want 1", len(errs))
	}
	if hh, ok := hint.Of(errs[0].err); !ok || hh.Page != hint.PageModel {
		t.Fatalf("error %v carries hint %+v, want the Model page", errs[0].err, hh)
	}
	test.Tap(h.button("Model settings"))
	if !slices.Equal(h.navigated, []hint.Page{hint.PageModel}) {
		t.Errorf("navigated %v, want the Model page", h.navigated)
	}
	h.model.Reply(pt.Text("now it works"))
	test.Tap(h.button("Retry"))
	h.idle()
	if len(h.rowsOf(rowError)) != 0 || len(h.rowsOf(rowAssistant)) != 1 {
		t.Errorf("after Retry: %d errors, %d replies; want the reply only", len(h.rowsOf(rowError)), len(h.rowsOf(rowAssistant)))
	}
	if h.chat.Current() == 0 {
		t.Error("the retried first message made no conversation")
	}
}

func TestStopEndsTheTurn(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.Text("partial"), pt.Hold())
	h.send("long answer please")
	<-h.model.Waiting()
	h.until("the partial text", func() bool {
		r := h.rowsOf(rowAssistant)
		return len(r) == 1 && r[0].text == "partial"
	})
	h.chat.composer.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	h.idle()
	r := h.rowsOf(rowAssistant)
	if len(r) != 1 || r[0].status != store.StatusInterrupted || r[0].text != "partial" {
		t.Fatalf("reply rows %+v, want the partial reply interrupted", r)
	}
	if len(h.rowsOf(rowError)) != 1 {
		t.Errorf("no row says the turn was stopped")
	}
}

func TestEnterSendsShiftEnterAddsALine(t *testing.T) {
	h := newHarness(t)
	e := h.chat.composer.entry
	h.win.Canvas().Focus(e)
	test.Type(e, "line one")
	e.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	e.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	test.Type(e, "line two")
	if e.Text != "line one\nline two" || h.chat.running(h.chat.cur) {
		t.Fatalf("after Shift+Enter: %q (running %v), want two lines and nothing sent", e.Text, h.chat.running(h.chat.cur))
	}
	h.model.Reply(pt.Text("got both"))
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if e.Text != "" {
		t.Errorf("composer %q after Enter, want it emptied", e.Text)
	}
	h.idle()
	if u := h.rowsOf(rowUser); len(u) != 1 || u[0].text != "line one\nline two" {
		t.Errorf("sent %+v", u)
	}
}

func TestFind(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.Text("apples are red"))
	h.send("tell me about apples")
	h.idle()
	h.model.Reply(pt.Text("pears are green"))
	h.send("and pears?")
	h.idle()

	h.chat.ShowFind()
	test.Type(h.chat.find.entry, "APPLES")
	if got := h.chat.find.count.Text; got != "2 of 2" {
		t.Fatalf("count %q, want 2 of 2", got)
	}
	if r := h.chat.list.highlight; r == nil || r.text != "apples are red" {
		t.Fatalf("highlighted %+v, want the reply about apples", r)
	}
	h.chat.find.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if got := h.chat.find.count.Text; got != "1 of 2" || h.chat.list.highlight.text != "tell me about apples" {
		t.Errorf("after Enter: %q, highlight %q", got, h.chat.list.highlight.text)
	}
	h.chat.find.prev()
	if got := h.chat.find.count.Text; got != "2 of 2" {
		t.Errorf("after Previous: %q", got)
	}
	h.chat.find.entry.SetText("kiwi")
	if got := h.chat.find.count.Text; got != "no matches" || h.chat.list.highlight != nil {
		t.Errorf("for kiwi: %q, highlight %v", got, h.chat.list.highlight)
	}
	h.chat.find.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if h.chat.find.object.Visible() {
		t.Error("Esc left the find bar open")
	}
}

type bufCloser struct {
	bytes.Buffer
	closed bool
}

func (b *bufCloser) Close() error { b.closed = true; return nil }

func TestExportWritesMarkdown(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.ToolCall("calc_eval", `{"expression":"2+2"}`))
	h.model.Reply(pt.Text("It is 4."))
	h.send("2+2?")
	h.idle()
	var out bufCloser
	done := false
	h.chat.export(h.chat.Current(), "Sums", &out, func(err error) {
		if err != nil {
			t.Error(err)
		}
		done = true
	})
	h.until("the export", func() bool { return done })
	md := out.String()
	for _, want := range []string{"# Sums", "## You", "2+2?", "## Wrasse (fake-model)", "It is 4.", "**Tool call** `calc_eval`", `{"expression":"2+2"}`} {
		if !strings.Contains(md, want) {
			t.Errorf("export lacks %q:\n%s", want, md)
		}
	}
	if !out.closed {
		t.Error("the file was not closed")
	}
}

func TestDeleteIsConfirmed(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.Text("hi"))
	h.send("delete me later")
	h.idle()
	id := h.chat.Current()
	h.chat.sidebar.confirmDelete(id)
	if !h.shows("Delete conversation?") {
		t.Fatalf("no confirmation; window shows:\n%s", h.texts())
	}
	test.Tap(h.button("Cancel"))
	if _, err := h.core.History().GetConversation(id); err != nil {
		t.Fatalf("cancelled delete deleted: %v", err)
	}
	h.chat.sidebar.confirmDelete(id)
	test.Tap(h.button("Delete"))
	h.until("the delete", func() bool {
		_, err := h.core.History().GetConversation(id)
		return err != nil && h.chat.Current() == 0
	})
	if h.chat.Current() != 0 || len(h.chat.sidebar.convs) != 0 {
		t.Errorf("after delete: current %v, sidebar %v", h.chat.Current(), h.chat.sidebar.convs)
	}
}

func TestSidebarRenameAndSearch(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.Text("about zebras"))
	h.send("tell me something")
	h.idle()
	first := h.chat.Current()
	h.chat.NewConversation()
	h.model.Reply(pt.Text("ok"))
	h.send("second chat")
	h.idle()
	if len(h.chat.sidebar.convs) != 2 || h.chat.sidebar.convs[0].ID != h.chat.Current() {
		t.Fatalf("sidebar %+v, want two, newest first", h.chat.sidebar.convs)
	}
	h.chat.sidebar.setTitle(first, "Striped horses")
	if h.chat.sidebar.convs[1].Title != "Striped horses" || !h.shows("Striped horses") {
		t.Errorf("rename not shown: %+v", h.chat.sidebar.convs)
	}
	h.chat.sidebar.search.SetText("zebras")
	h.until("the search", func() bool { return len(h.chat.sidebar.hits) == 1 })
	if h.chat.sidebar.hits[0].Conversation != first {
		t.Errorf("hit %+v, want the first conversation", h.chat.sidebar.hits[0])
	}
	h.chat.sidebar.list.Select(0)
	if h.chat.Current() != first || h.chat.find.count.Text != "1 of 1" {
		t.Errorf("tapping the hit: current %v, find %q", h.chat.Current(), h.chat.find.count.Text)
	}
}

func TestOpenRemembersScroll(t *testing.T) {
	h := newHarness(t)
	long := strings.Repeat("a long line of text that wraps. ", 40)
	for range 6 {
		h.model.Reply(pt.Text(long))
		h.send("more")
		h.idle()
	}
	first := h.chat.Current()
	if !h.chat.list.atEnd() {
		l := h.chat.list
		t.Fatalf("a conversation does not open at its end: offset %v, height %v, content %v (list content %v)",
			l.list.GetScrollOffset(), l.list.Size().Height, l.contentHeight(), l.list.MinSize())
	}
	h.chat.list.list.ScrollToOffset(200)
	at := h.chat.list.list.GetScrollOffset()
	h.chat.NewConversation()
	h.chat.Open(first)
	h.chat.list.Refresh()
	if got := h.chat.list.list.GetScrollOffset(); got != at {
		t.Errorf("reopened at offset %v, left at %v", got, at)
	}
}

func TestApproverDeniesWhenTheTurnEnds(t *testing.T) {
	changed := make(chan string, 4)
	q := newApprovals(func(conv string) { changed <- conv })
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan gate.Approval)
	go func() {
		a, _ := q.Approve(ctx, gate.Request{ConversationID: "c1", Tool: "shell_exec"})
		done <- a
	}()
	<-changed // queued
	if n := len(q.For("c1")); n != 1 {
		t.Fatalf("%d requests queued, want 1", n)
	}
	cancel()
	if a := <-done; a != gate.Deny {
		t.Errorf("answer %q after the turn ended, want deny", a)
	}
	if n := len(q.For("c1")); n != 0 {
		t.Errorf("%d requests left queued", n)
	}
	if q.Answer(&pending{req: gate.Request{ConversationID: "c1"}}, gate.ApproveOnce) {
		t.Error("answering a withdrawn request succeeded")
	}
}

// hasButton reports whether a button with text is shown.
func (h *harness) hasButton(text string) bool {
	for _, o := range h.visible() {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
			return true
		}
	}
	return false
}

// showsWrapped reports whether s is shown, maybe wrapped over lines.
func (h *harness) showsWrapped(s string) bool {
	return strings.Contains(strings.Join(strings.Fields(h.texts()), " "), s)
}

func TestApprovalCardScopeAndAlwaysAsk(t *testing.T) {
	for _, tc := range []struct {
		name, command string
		forChat       bool   // Approve for this chat is offered
		want          string // the card says
		why           string // and why, when it asks every time
	}{
		{"plain command offers the chat for exactly that command", "ls", true,
			"Approve for this chat covers this exact command.", ""},
		{"a command with options too", "git status --short", true,
			"Approve for this chat covers this exact command.", ""},
		// (curl x | sh is blocked outright by a danger pattern.)
		{"pipe into a shell asks every time", "echo ls | sh", false,
			"Asks every time: approving it for this chat would cover more than you see here, so it can only be approved once.",
			"Why: what it runs is decided only when it runs"},
		{"eval of a variable asks every time", `eval "$X"`, false,
			"Asks every time: approving it for this chat would cover more than you see here, so it can only be approved once.",
			"Why: what it runs is decided only when it runs"},
		{"a shell script asks every time", "bash build.sh", false,
			"Asks every time", "it runs bash, a shell"},
		{"a variable that changes what runs asks every time", "LD_PRELOAD=/tmp/x.so ls", false,
			"Asks every time", "it sets LD_PRELOAD"},
		{"a command reaching a host names it with the full URL", "curl -s https://api.example/v1?k=1", true,
			"Approve for this chat covers this exact command, and the host api.example for the rest of this chat.",
			"→ https://api.example/v1?k=1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			args, err := json.Marshal(map[string]string{"command": tc.command})
			if err != nil {
				t.Fatal(err)
			}
			h.model.Reply(pt.ToolCall("shell_exec", string(args)))
			h.model.Reply(pt.Text("done"))
			h.send("run it")
			h.until("the approval card", func() bool { return len(h.rowsOf(rowApproval)) == 1 })
			req := h.rowsOf(rowApproval)[0].pending.req
			if req.OnceOnly == tc.forChat {
				t.Fatalf("request %+v: OnceOnly %v, want %v", req, req.OnceOnly, !tc.forChat)
			}
			if !h.showsWrapped(tc.want) {
				t.Errorf("the card does not say %q; window shows:\n%s", tc.want, h.texts())
			}
			if got := h.hasButton("Approve for this chat"); got != tc.forChat {
				t.Errorf("Approve for this chat shown %v, want %v", got, tc.forChat)
			}
			if tc.why != "" && !h.showsWrapped(tc.why) {
				t.Errorf("the card does not say %q; window shows:\n%s", tc.why, h.texts())
			}
			test.Tap(h.button("Deny"))
			h.idle()
		})
	}
}

// A fetch from a host the chat has not used asks to allow the host,
// showing the full URL with its query; denying it sends nothing.
func TestApprovalCardAsksForANewHost(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.ToolCall("web_fetch", `{"url":"https://h.example/page?d=secret-ish"}`))
	h.model.Reply(pt.Text("done"))
	h.send("read it")
	h.until("the approval card", func() bool { return len(h.rowsOf(rowApproval)) == 1 })
	for _, want := range []string{"Allow web_fetch (web) to reach h.example?", "→ https://h.example/page?d=secret-ish",
		"Allowing for the chat covers the host h.example for the rest of this chat."} {
		if !h.showsWrapped(want) {
			t.Errorf("the card does not say %q; window shows:\n%s", want, h.texts())
		}
	}
	if !h.hasButton("Allow this host for the chat") || !h.hasButton("Allow once") || h.hasButton("Approve for this chat") {
		t.Errorf("buttons; window shows:\n%s", h.texts())
	}
	test.Tap(h.button("Deny"))
	h.idle()
}

// firstEventSink runs first before passing a turn's first event on.
type firstEventSink struct {
	agent.Sink
	first func()
	once  sync.Once
}

func (s *firstEventSink) OnEvent(e store.Event) {
	s.once.Do(s.first)
	s.Sink.OnEvent(e)
}

// A conversation made elsewhere (another window, a forwarded CLI command)
// just as a first turn starts is not taken for the turn's: the chat learns
// its conversation from the core (TurnOptions.Started), not by comparing
// conversation lists.
func TestFirstTurnKnowsItsConversation(t *testing.T) {
	h := newHarness(t)
	release := make(chan struct{})
	h.model.Reply(pt.Text("hi"), pt.Wait(release), pt.Text(" there"))
	others := make(chan store.ID, 1)
	h.chat.startTurn(h.chat.cur, "hello", func(ctx context.Context, opt assistant.TurnOptions) (store.ID, error) {
		opt.Sink = &firstEventSink{Sink: opt.Sink, first: func() {
			c, err := h.core.Engine().DB.CreateConversation("elsewhere")
			if err != nil {
				t.Error(err)
			}
			others <- c.ID
		}}
		return h.core.Turn(ctx, 0, "hello", opt)
	})
	other := <-others
	<-h.model.Waiting()
	h.until("the streamed text", func() bool {
		r := h.rowsOf(rowAssistant)
		return len(r) == 1 && r[0].text == "hi"
	})
	id := h.chat.Current()
	if id == 0 || id == other {
		t.Fatalf("while the first turn runs the chat shows conversation %v; the other one is %v", id, other)
	}
	if ev := h.stored(id); len(ev) == 0 || ev[0].Text != "hello" {
		t.Errorf("conversation %v holds %+v, want the message sent", id, ev)
	}
	close(release)
	h.idle()
	if h.chat.Current() != id {
		t.Errorf("after the turn the chat shows %v, want %v", h.chat.Current(), id)
	}
}

// stripButton is the loaded-capabilities strip's button for name.
func (h *harness) stripButton(name string) *widget.Button {
	h.t.Helper()
	for _, o := range h.chat.strip.box.Objects {
		if b, ok := o.(*widget.Button); ok && b.Text == name {
			return b
		}
	}
	h.t.Fatalf("the strip has no %s button; it shows %v", name, h.chat.strip.loaded)
	return nil
}

func TestUnloadThroughTheCore(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.ToolCall("calc_eval", `{"expression":"1+1"}`))
	h.model.Reply(pt.Text("two"))
	h.send("1+1?")
	h.idle()
	id := h.chat.Current()

	// The chat's own turn: the × is disabled while it runs.
	release := make(chan struct{})
	h.model.Reply(pt.Text("thinking"), pt.Wait(release), pt.Text(" done"))
	h.send("again")
	<-h.model.Waiting()
	if !h.stripButton("calc").Disabled() {
		t.Error("calc's × is enabled while the conversation's turn runs")
	}
	close(release)
	h.idle()
	if h.stripButton("calc").Disabled() {
		t.Fatal("calc's × is disabled after the turn")
	}

	// A turn the chat does not know of (run through the core directly, as
	// a forwarded command would): the core refuses and the strip says so.
	release = make(chan struct{})
	h.model.Reply(pt.Text("elsewhere"), pt.Wait(release), pt.Text(" done"))
	// otherEnded is set on the test goroutine (through env.Do) once the
	// core's Turn has returned, that is once it released the conversation:
	// its last event is stored, and the chat shows it, a moment before.
	otherEnded := false
	h.env.Go(func() {
		defer h.env.Do(func() { otherEnded = true })
		if _, err := h.core.Turn(context.Background(), id, "from elsewhere", assistant.TurnOptions{}); err != nil {
			t.Error(err)
		}
	})
	<-h.model.Waiting()
	test.Tap(h.stripButton("calc"))
	if !slices.Contains(h.chat.strip.loaded, "calc") {
		t.Errorf("calc left the strip though the core refused: %v", h.chat.strip.loaded)
	}
	if want := "calc stays loaded while a reply is being written: unload it when the reply ends."; !h.shows(want) {
		t.Errorf("the strip does not say %q; window shows:\n%s", want, h.texts())
	}
	close(release)
	h.until("the other turn's news", func() bool {
		if !otherEnded {
			return false // still holding the conversation: an unload now is refused
		}
		// One read: the other turn keeps writing between reads.
		events := h.stored(id)
		return len(events) > 0 && events[len(events)-1].Status == store.StatusComplete &&
			slices.ContainsFunc(h.chat.cur.rows, func(r *row) bool { return r.text == "elsewhere done" })
	})

	// Unloading keeps the find bar as it was: the messages did not change.
	h.chat.ShowFind()
	test.Type(h.chat.find.entry, "again")
	findCount := h.chat.find.count.Text
	test.Tap(h.stripButton("calc"))
	if slices.Contains(h.chat.strip.loaded, "calc") {
		t.Errorf("calc still in the strip after unloading: %v", h.chat.strip.loaded)
	}
	if saved, err := h.core.History().Loaded(id); err != nil || slices.Contains(saved, "calc") {
		t.Errorf("stored loaded set %v (%v) still has calc", saved, err)
	}
	if h.shows("stays loaded") {
		t.Error("the earlier problem still shows after a successful unload")
	}
	h.until("the core's news of the unload", func() bool { return len(h.queue) == 0 })
	if got := h.chat.find.count.Text; got != findCount || got == "" {
		t.Errorf("find shows %q after unloading, was %q", got, findCount)
	}
}

// fillWith makes a conversation of n messages, the user's and replies
// alternating; message i says text(i).
func fillWith(tb testing.TB, db *store.DB, n int, text func(i int) string) store.ID {
	tb.Helper()
	c, err := db.CreateConversation("fake-model")
	if err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		e := store.Event{Type: store.EventUserMessage, Text: text(i)}
		if i%2 == 1 {
			e = store.Event{Type: store.EventAssistantText, Model: "fake-model", Text: text(i)}
		}
		if _, err := db.AppendEvent(c.ID, e); err != nil {
			tb.Fatal(err)
		}
	}
	return c.ID
}

func TestFindSearchesTheWholeConversation(t *testing.T) {
	h := newHarness(t)
	needles := map[int]bool{4: true, 200: true, 440: true}
	text := func(i int) string {
		if needles[i] {
			return fmt.Sprintf("message %d has the Needle in it", i)
		}
		return fmt.Sprintf("message %d is hay", i)
	}
	id := fillWith(t, h.core.Engine().DB, 450, text)
	h.chat.openWhole = 100 // longer than what opens whole: paged
	h.chat.Open(id)
	tr := h.chat.cur
	if len(tr.events) != pageSize || tr.complete {
		t.Fatalf("opened with %d events, want one page of %d", len(tr.events), pageSize)
	}

	h.chat.ShowFind()
	test.Type(h.chat.find.entry, "needle")
	h.until("the search of the stored messages", func() bool { return !h.chat.find.searching })
	if got := h.chat.find.count.Text; got != "3 of 3" {
		t.Fatalf("count %q, want 3 of 3 over the whole conversation", got)
	}
	if len(tr.events) != pageSize {
		t.Errorf("searching loaded %d events; only going to a match should load pages", len(tr.events))
	}
	wantShown := func(i int) {
		t.Helper()
		r := h.chat.list.highlight
		if r == nil || r.text != text(i) {
			t.Fatalf("highlighted %+v, want message %d", r, i)
		}
		l := h.chat.list
		top := l.top(h.chat.cur.index(r))
		if off := l.list.GetScrollOffset(); top < off || top >= off+l.list.Size().Height {
			t.Errorf("message %d's top %v is not in the view (offset %v, height %v)", i, top, off, l.list.Size().Height)
		}
	}
	wantShown(440)

	// The middle match lies a few pages back: those pages load, no more.
	h.chat.find.prev()
	h.until("message 200 loaded and shown", func() bool {
		r := h.chat.list.highlight
		return r != nil && r.text == text(200)
	})
	if got := h.chat.find.count.Text; got != "2 of 3" {
		t.Errorf("count %q, want 2 of 3", got)
	}
	if h.chat.cur.complete || h.chat.cur.oldest() > 201 {
		t.Errorf("after going to message 200: oldest loaded seq %d, complete %v; want the pages up to it only",
			h.chat.cur.oldest(), h.chat.cur.complete)
	}
	wantShown(200)

	// The oldest match is in the first page.
	h.chat.find.prev()
	h.until("message 4 loaded and shown", func() bool {
		r := h.chat.list.highlight
		return r != nil && r.text == text(4)
	})
	if got := h.chat.find.count.Text; got != "1 of 3" || !h.chat.cur.complete {
		t.Errorf("count %q, complete %v; want 1 of 3 and everything loaded", got, h.chat.cur.complete)
	}
	wantShown(4)

	// Next goes on to the loaded ones without loading.
	h.chat.find.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if got := h.chat.find.count.Text; got != "2 of 3" {
		t.Errorf("after Enter: %q, want 2 of 3", got)
	}
	wantShown(200)
}
