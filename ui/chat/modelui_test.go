package chat

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider"
	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

// exportOf exports the current conversation as Markdown.
func (h *harness) exportOf() string {
	h.t.Helper()
	var out bufCloser
	done := false
	h.chat.export(h.chat.Current(), "T", &out, func(err error) {
		if err != nil {
			h.t.Error(err)
		}
		done = true
	})
	h.until("the export", func() bool { return done })
	return out.String()
}

// Reasoning streams into a collapsed "Thinking…" block above the answer,
// showing its latest words; once done the block stays collapsed, expands
// on a tap, copies whole, is kept in history (a reopened conversation
// shows it) and in the export, and never becomes answer text.
func TestThinkingBlock(t *testing.T) {
	h := newHarness(t)
	release := make(chan struct{})
	h.model.Reply(pt.Thinking("The user greets me.\n", "I should greet back."), pt.Wait(release), pt.Text("Hello!"))
	h.send("hi")
	<-h.model.Waiting()
	h.until("the reasoning to stream", func() bool {
		r := h.rowsOf(rowThinking)
		return len(r) == 1 && r[0].text == "The user greets me.\nI should greet back."
	})
	if !h.shows("Thinking…") || !h.shows("I should greet back.") || h.shows("The user greets me.") {
		t.Errorf("while thinking, the block shows its title and latest line only:\n%s", h.texts())
	}
	close(release)
	h.idle()

	rows := h.rowsOf(rowThinking)
	replies := h.rowsOf(rowAssistant)
	if len(rows) != 1 || len(replies) != 1 || replies[0].text != "Hello!" {
		t.Fatalf("thinking rows %+v, replies %+v", rows, replies)
	}
	if h.chat.rowAt(h.chat.cur.index(rows[0])+1) != replies[0] {
		t.Error("the thinking block is not right above the answer")
	}
	if h.shows("I should greet back.") || !h.shows("Thinking") || !h.shows("8 words") {
		t.Errorf("a finished block is collapsed to its title:\n%s", h.texts())
	}
	test.Tap(h.button("Thinking"))
	if !h.shows("The user greets me.") || !h.shows("I should greet back.") {
		t.Errorf("the expanded block does not show the reasoning:\n%s", h.texts())
	}
	h.chat.copyRow(rows[0])
	if got := h.copied[len(h.copied)-1]; got != "The user greets me.\nI should greet back." {
		t.Errorf("Copy gave %q", got)
	}
	// The request after it never carries the reasoning as the answer.
	h.model.Reply(pt.Text("Fine."))
	h.send("how are you?")
	h.idle()
	reqs := h.model.Requests()
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == "assistant" && strings.Contains(m.Content, "greet back") {
			t.Errorf("the reasoning went back as answer text: %+v", m)
		}
	}

	// Kept in history: reopened from the store, the block is there.
	id := h.chat.Current()
	h.chat.NewConversation()
	h.chat.Open(id)
	if r := h.rowsOf(rowThinking); len(r) != 1 || r[0].text != "The user greets me.\nI should greet back." || r[0].expanded {
		t.Fatalf("reopened: %+v", r)
	}
	md := h.exportOf()
	if !strings.Contains(md, "<details>\n<summary>Thinking (fake-model)</summary>\n\n```text\nThe user greets me.\nI should greet back.\n```\n\n</details>") {
		t.Errorf("the export lacks the reasoning block:\n%s", md)
	}
	if i, j := strings.Index(md, "<details>"), strings.Index(md, "Hello!"); i < 0 || j < i {
		t.Errorf("the reasoning is not before the answer in the export:\n%s", md)
	}
}

// Between sending and the first token the chat says what it waits for,
// with the time elapsed, updated while it waits; the first text hides it.
func TestWaitingShowsUntilTheFirstToken(t *testing.T) {
	h := newHarness(t)
	release := make(chan struct{})
	h.model.Reply(pt.Wait(release), pt.Text("Hi there."))
	h.send("hi")
	<-h.model.Waiting()
	h.until("the waiting row", func() bool { return h.chat.waitingRow() != nil })
	w := h.chat.waitingRow()
	if last := h.chat.rowAt(h.chat.rowCount() - 1); last != w {
		t.Errorf("the waiting row is not the last row: %+v", last)
	}
	first := w.text
	if !strings.Contains(first, "…") || !strings.HasSuffix(first, " s") {
		t.Errorf("waiting row %q, want a status with its time", first)
	}
	if !h.shows(first) {
		t.Errorf("the window does not show %q:\n%s", first, h.texts())
	}
	// The time moves on while nothing else happens.
	h.until("the elapsed time to move", func() bool {
		w := h.chat.waitingRow()
		return w != nil && w.text != first
	})
	close(release)
	h.idle()
	if h.chat.waitingRow() != nil {
		t.Errorf("the waiting row stays after the answer: %q", h.chat.waitingRow().text)
	}
	if r := h.rowsOf(rowAssistant); len(r) != 1 || r[0].text != "Hi there." {
		t.Fatalf("replies %+v", r)
	}
	for i := range h.chat.rowCount() {
		if h.chat.rowAt(i).kind == rowWaiting {
			t.Error("a waiting row is left in the list")
		}
	}
}

// Statuses from the sink (as a timer's goroutine sends them) replace
// each other, with their own times; text ends them.
func TestWaitingStatusesFromTheSink(t *testing.T) {
	h := newHarness(t)
	since := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	h.chat.now = func() time.Time { return since.Add(12 * time.Second) }
	run := &turnRun{tr: h.chat.cur, cancel: func() {}}
	h.chat.turns[h.chat.cur] = run
	sink := &turnSink{c: h.chat, run: run}
	sink.th = newThrottle(streamInterval, h.chat.now, h.chat.timer, sink.flush)
	tests := []struct {
		st   provider.Status
		want string
	}{
		{provider.Status{Phase: provider.PhaseConnecting, Message: "connecting to Ollama…", Since: since.Add(11 * time.Second)}, "connecting to Ollama… 1 s"},
		{provider.Status{Phase: provider.PhaseLoading, Message: "loading llama3.1 into memory…", Since: since}, "loading llama3.1 into memory… 12 s"},
		{provider.Status{Phase: provider.PhaseRetrying, Message: "retrying (2 of 3) in 1.5 s: connection refused", Since: since.Add(10 * time.Second),
			Attempt: 2, Attempts: 3, Delay: 1500 * time.Millisecond}, "retrying (2 of 3) in 1.5 s: connection refused (2 s)"},
		{provider.Status{Phase: provider.PhaseThinking, Message: "thinking…", Since: since.Add(-65 * time.Second)}, "thinking… 1 min 17 s"},
	}
	for _, tt := range tests {
		done := make(chan struct{})
		go func() { sink.OnStatus(tt.st); close(done) }() // a timer's goroutine
		<-done
		h.until(tt.want, func() bool { w := h.chat.waitingRow(); return w != nil && w.text == tt.want })
		if !h.shows(tt.want) {
			t.Errorf("the window does not show %q:\n%s", tt.want, h.texts())
		}
	}
	sink.OnText(1, "x")
	h.until("the row to go", func() bool { return h.chat.waitingRow() == nil })
	delete(h.chat.turns, h.chat.cur)
}

// A reply that stopped at the length limit says so under it, and
// Continue asks for the rest through the core, as a turn of its own.
func TestContinueAfterALengthStop(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.Text("Chapter one"), pt.MaxTokens())
	h.send("write a story")
	h.idle()
	r := h.rowsOf(rowAssistant)
	if len(r) != 1 || r[0].status != store.StatusLength {
		t.Fatalf("replies %+v", r)
	}
	if !h.shows("The reply stopped at the model's length limit.") || !h.shows("stopped: length") {
		t.Errorf("no length note:\n%s", h.texts())
	}
	h.model.Reply(pt.Text(" and chapter two."))
	test.Tap(h.button("Continue"))
	h.idle()
	users := h.rowsOf(rowUser)
	if len(users) != 2 || users[1].text != assistant.ContinueText {
		t.Fatalf("user rows %+v", users)
	}
	reqs := h.model.Requests()
	msgs := reqs[len(reqs)-1].Messages
	if n := len(msgs); msgs[n-1].Content != assistant.ContinueText || msgs[n-2].Content != "Chapter one" {
		t.Errorf("Continue sent %+v", msgs)
	}
	if r := h.rowsOf(rowAssistant); len(r) != 2 || r[1].text != " and chapter two." {
		t.Fatalf("replies after Continue %+v", r)
	}
	// The note stays on the cut reply, without Continue (not the last).
	if !h.shows("The reply stopped at the model's length limit.") {
		t.Error("the note went")
	}
	if h.hasButton("Continue") {
		t.Error("Continue is still offered on a reply that is no longer the last")
	}
	if !strings.Contains(h.exportOf(), "*(stopped at the model's length limit)*") {
		t.Error("the export does not say the reply stopped")
	}
}

// The header's picker lists the server's models with what each can do
// (an embedding model is no choice) and sets the model of this
// conversation only: the next request carries it, another conversation
// keeps the default, and a model picked on a new conversation is its
// model from its first message.
func TestModelPickerSetsTheConversationsModel(t *testing.T) {
	h := newHarness(t)
	o := pt.NewOllama(t, pt.WithOllamaModels(pt.OllamaModel{Name: "fake-model"},
		pt.OllamaModel{Name: "big-model", Capabilities: []string{"completion", "tools", "vision"}, ContextLength: 131072},
		pt.OllamaModel{Name: "embedder", Capabilities: []string{"embedding"}}))
	if _, err := h.core.UpdateConfig(func(c *workspace.Config) error {
		c.Provider, c.BaseURL, c.Model = "ollama", o.URL(), "fake-model"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	last := func() string {
		r := o.Requests()
		return r[len(r)-1].Model
	}
	o.Reply(pt.Text("one"))
	h.send("first")
	h.idle()
	if h.chat.picker.button.Text != "fake-model" {
		t.Errorf("picker shows %q", h.chat.picker.button.Text)
	}
	h.openPicker()
	labels := h.menuLabels()
	if !strings.Contains(labels, "Default: fake-model (Model page)") || !strings.Contains(labels, "big-model    tools · vision · 128k window · 4.9 GB") ||
		strings.Contains(labels, "embedder") {
		t.Errorf("menu:\n%s", labels)
	}
	h.choose("big-model")
	if got, chosen := h.core.ConversationModel(h.chat.Current()); got != "big-model" || !chosen {
		t.Fatalf("conversation model %q, %v", got, chosen)
	}
	if h.chat.picker.button.Text != "big-model" || h.chat.status.model.Text != "big-model" {
		t.Errorf("picker %q, status %q", h.chat.picker.button.Text, h.chat.status.model.Text)
	}
	o.Reply(pt.Text("two"))
	h.send("second")
	h.idle()
	if got := last(); got != "big-model" {
		t.Errorf("the request named %q, want big-model", got)
	}
	if h.core.Model().Model != "fake-model" {
		t.Error("the default moved")
	}

	// A new conversation: picked before its first message.
	h.chat.NewConversation()
	if h.chat.picker.button.Text != "fake-model" {
		t.Errorf("a new conversation's picker shows %q", h.chat.picker.button.Text)
	}
	h.openPicker()
	h.choose("big-model")
	o.Reply(pt.Text("three"))
	h.send("new one")
	h.idle()
	if got := last(); got != "big-model" {
		t.Errorf("the first request named %q", got)
	}
	if got, chosen := h.core.ConversationModel(h.chat.Current()); got != "big-model" || !chosen {
		t.Errorf("the new conversation's model %q, %v", got, chosen)
	}
	// Another new one keeps the default; going back to the default works.
	h.chat.NewConversation()
	o.Reply(pt.Text("four"))
	h.send("plain")
	h.idle()
	if got := last(); got != "fake-model" {
		t.Errorf("another conversation sent %q", got)
	}
	h.openPicker()
	h.choose("Default: fake-model (Model page)")
}

// The gauge shows the window the server gives, and where it came from.
func TestGaugeShowsTheServersWindow(t *testing.T) {
	h := newHarness(t)
	o := pt.NewOllama(t, pt.WithOllamaModels(pt.OllamaModel{Name: "qwen3:8b", ContextLength: 40960}))
	if _, err := h.core.UpdateConfig(func(c *workspace.Config) error {
		c.Provider, c.BaseURL, c.Model, c.ContextWindow = "ollama", o.URL(), "qwen3:8b", 0
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	h.until("the window from the server", func() bool {
		return strings.HasSuffix(h.chat.status.window.Text, " / 40k")
	})
	if tip := h.chat.status.window.Tip; !strings.Contains(tip, "40,960 tokens (Ollama /api/show)") {
		t.Errorf("tip %q", tip)
	}
	h.chat.status.window.MouseIn(nil)
	if !h.shows("40,960 tokens (Ollama /api/show)") {
		t.Errorf("hovering shows no tip:\n%s", h.texts())
	}
	h.chat.status.window.MouseOut()
}

func (h *harness) openPicker() {
	h.t.Helper()
	test.Tap(h.chat.picker.button)
	h.until("the model menu", func() bool { return h.chat.picker.menu != nil && !h.chat.picker.loading })
}

func (h *harness) menuLabels() string {
	var b strings.Builder
	for _, it := range h.chat.picker.menu.Items {
		b.WriteString(it.Label + "\n")
	}
	return b.String()
}

// choose picks the menu's entry for model and waits until it is shown.
func (h *harness) choose(model string) {
	h.t.Helper()
	for _, it := range h.chat.picker.menu.Items {
		if it.Label == model || strings.HasPrefix(it.Label, model+"    ") {
			it.Action()
			want := strings.TrimSuffix(strings.TrimPrefix(model, "Default: "), " (Model page)")
			h.until("the choice to show", func() bool { return h.chat.picker.button.Text == want })
			return
		}
	}
	h.t.Fatalf("no entry %q in\n%s", model, h.menuLabels())
}

// A model the server lists without tool support gets plain chat: the
// request carries no tool schemas, and a note under the reply says why
// and what to pick instead; the note is kept when the conversation is
// opened again and is never sent to the model.
func TestModelWithoutToolsGetsPlainChatWithANote(t *testing.T) {
	h := newHarness(t)
	o := pt.NewOllama(t, pt.WithOllamaModels(pt.OllamaModel{Name: "llama2:7b", Capabilities: []string{"completion"}, ContextLength: 4096}))
	if _, err := h.core.UpdateConfig(func(c *workspace.Config) error {
		c.Provider, c.BaseURL, c.Model, c.ContextWindow = "ollama", o.URL(), "llama2:7b", 0
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	o.Reply(pt.Text("Hello."))
	h.send("hi")
	h.idle()
	reqs := o.Requests()
	if len(reqs) != 1 || len(reqs[0].Tools) != 0 {
		t.Fatalf("requests %d, tools sent %v", len(reqs), reqs[0].Tools)
	}
	const note = "llama2:7b cannot call tools"
	n := h.rowsOf(rowNotice)
	if len(n) != 1 || !strings.Contains(n[0].text, note) || !strings.Contains(n[0].text, "choose a model that can") {
		t.Fatalf("notice rows %+v", n)
	}
	if !h.shows(note) {
		t.Errorf("the window does not show the note:\n%s", h.texts())
	}
	if r := h.rowsOf(rowAssistant); len(r) != 1 || r[0].text != "Hello." {
		t.Fatalf("replies %+v", r)
	}
	o.Reply(pt.Text("Fine."))
	h.send("and now?")
	h.idle()
	reqs = o.Requests()
	for _, m := range reqs[len(reqs)-1].Messages {
		if strings.Contains(m.Content, "cannot call tools") {
			t.Errorf("the note went to the model: %+v", m)
		}
	}
	id := h.chat.Current()
	h.chat.NewConversation()
	h.chat.Open(id)
	if n := h.rowsOf(rowNotice); len(n) == 0 || !strings.Contains(n[0].text, note) {
		t.Errorf("reopened, notice rows %+v", n)
	}
}

// Closing the header's model menu (Escape, a tap outside or on an entry) gives
// the keyboard back to the composer: the hidden menu kept it, so what the
// person typed next, and Ctrl+, went nowhere.
func TestModelPickerGivesTheKeyboardBack(t *testing.T) {
	h := newHarness(t)
	cnv := h.win.Canvas()
	for _, close := range []struct {
		name string
		do   func(*widget.PopUpMenu)
	}{
		{"Escape", func(m *widget.PopUpMenu) { m.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) }},
		// A tap outside and a tapped entry both dismiss the menu.
		{"a tap outside", func(m *widget.PopUpMenu) { m.Dismiss() }},
	} {
		h.openPicker()
		m, ok := cnv.Focused().(*widget.PopUpMenu)
		if !ok {
			t.Fatalf("%s: the open menu does not have the keyboard: %T", close.name, cnv.Focused())
		}
		close.do(m)
		if f := cnv.Focused(); f != h.chat.composer.entry {
			t.Errorf("%s: after the menu closed the keyboard is with %T, want the composer", close.name, f)
		}
	}
}
