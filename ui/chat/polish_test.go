package chat

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/provider"
	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/ui/markdown"
)

// The find bar's space comes and goes with it, without waiting for the
// window to be resized.
func TestFindBarGivesItsSpaceBackWhenClosed(t *testing.T) {
	for _, tc := range []struct {
		name  string
		close func(h *harness)
	}{
		{"Esc", func(h *harness) { h.chat.find.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) }},
		{"the close button", func(h *harness) { test.Tap(h.chat.find.closeBtn) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			l := h.chat.list
			y, height := l.Position().Y, l.Size().Height
			h.chat.ShowFind()
			if l.Position().Y <= y || l.Size().Height >= height {
				t.Fatalf("with the find bar open the messages start at %v (height %v), before at %v (%v)", l.Position().Y, l.Size().Height, y, height)
			}
			tc.close(h)
			if l.Position().Y != y || l.Size().Height != height {
				t.Errorf("after closing the find bar the messages start at %v (height %v), want %v (%v)", l.Position().Y, l.Size().Height, y, height)
			}
		})
	}
}

func TestExportSaysWhereItWent(t *testing.T) {
	h := newHarness(t)
	timers := &manualTimers{}
	h.chat.after = timers.schedule
	h.model.Reply(pt.Text("hello"))
	h.send("hi")
	h.idle()
	path := filepath.Join(t.TempDir(), "hi.md")
	w, err := storage.Writer(storage.NewFileURI(path))
	if err != nil {
		t.Fatal(err)
	}
	h.chat.exportTo(h.chat.Current(), "Hi", w)
	h.until("the export", func() bool { return h.chat.notice.Visible() })
	if want := "Exported to " + path; h.chat.notice.Text != want {
		t.Errorf("notice %q, want %q", h.chat.notice.Text, want)
	}
	if b, err := os.ReadFile(path); err != nil || !strings.Contains(string(b), "# Hi") {
		t.Errorf("the file holds %q (%v)", b, err)
	}
	timers.drain(t)
	if h.chat.notice.Visible() {
		t.Error("the notice stays")
	}
}

// rowViewOf is the row widget showing r, or nil when r is not in view.
func (h *harness) rowViewOf(r *row) *rowView {
	for _, o := range h.visible() {
		if v, ok := o.(*rowView); ok && v.key.r == r {
			return v
		}
	}
	return nil
}

// Find's current match shows on every kind of row: the outline is drawn
// over the row's own background, and plain text marks the words found.
func TestFindHighlightShowsOnEveryRowKind(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.ToolCall("calc_eval", `{"expression":"6*7 + zebra"}`))
	h.model.Reply(pt.Text("a zebra reply"))
	h.send("my zebra question")
	h.idle()

	h.chat.ShowFind()
	test.Type(h.chat.find.entry, "Zebra")
	// Every occurrence counts: the card has the word in its arguments
	// and twice in the calculator's error about it.
	if got := h.chat.find.count.Text; got != "5 of 5" {
		t.Fatalf("count %q, want 5 of 5 (the message, three in the card, the reply)", got)
	}
	for _, tc := range []struct {
		kind rowKind
		text func(v *rowView) *wrapText // where the word is marked; nil: Markdown
	}{
		{rowAssistant, nil},
		{rowTool, func(v *rowView) *wrapText { return v.tool.args }},
		{rowTool, func(v *rowView) *wrapText { return v.tool.args }},
		{rowTool, func(v *rowView) *wrapText { return v.tool.args }},
		{rowUser, func(v *rowView) *wrapText { return v.msg.user }},
	} {
		r := h.chat.list.highlight
		if r == nil || r.kind != tc.kind {
			t.Fatalf("highlighted %+v, want a row of kind %d", r, tc.kind)
		}
		v := h.rowViewOf(r)
		if v == nil {
			t.Fatalf("the highlighted row (kind %d) is not shown", tc.kind)
		}
		objs := test.WidgetRenderer(v).Objects()
		if !v.hl.Visible() || objs[len(objs)-1] != v.hl || v.hl.StrokeWidth == 0 {
			t.Errorf("row kind %d: highlight shown %v, drawn last %v, stroke %v; want an outline over the row",
				tc.kind, v.hl.Visible(), objs[len(objs)-1] == v.hl, v.hl.StrokeWidth)
		}
		if tc.text != nil {
			if wr := test.WidgetRenderer(tc.text(v)).(*wrapRenderer); wr.marked != 1 {
				t.Errorf("row kind %d: %d words marked, want 1", tc.kind, wr.marked)
			}
		}
		h.chat.find.prev()
	}
	h.chat.find.close()
	if v := h.rowViewOf(h.rowsOf(rowUser)[0]); v == nil || v.hl.Visible() || test.WidgetRenderer(v.msg.user).(*wrapRenderer).marked != 0 {
		t.Error("closing find leaves the highlight or the marks")
	}
}

func TestFindSpans(t *testing.T) {
	for _, tc := range []struct {
		line, q string
		want    [][2]int
	}{
		{"a Zebra and a zebra", "zebra", [][2]int{{2, 7}, {14, 19}}},
		{"nothing", "zebra", nil},
		{"aaaa", "aa", [][2]int{{0, 2}, {2, 4}}},
		{"", "x", nil},
		{"İstanbul zebra", "zebra", [][2]int{{10, 15}}}, // lower case is longer: matched as written
	} {
		got := markdown.FindSpans(tc.line, tc.q)
		if len(got) != len(tc.want) {
			t.Errorf("markdown.FindSpans(%q, %q) = %v, want %v", tc.line, tc.q, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("markdown.FindSpans(%q, %q) = %v, want %v", tc.line, tc.q, got, tc.want)
			}
		}
	}
}

// Sending while scrolled up goes to the end and follows the reply.
func TestSendScrollsToTheEnd(t *testing.T) {
	h := newHarness(t)
	h.chat.Open(fillWith(t, h.core.Engine().DB, 40, wrapped))
	l := h.chat.list
	l.list.ScrollToOffset(0)
	if l.atEnd() {
		t.Fatal("the conversation is too short to scroll")
	}
	release := make(chan struct{})
	h.model.Reply(pt.Text(wrapped(1)), pt.Wait(release), pt.Text(wrapped(2)+wrapped(3)))
	h.send("one more")
	<-h.model.Waiting()
	h.until("the streamed text", func() bool {
		r := h.rowsOf(rowAssistant)
		return r[len(r)-1].text == wrapped(1)
	})
	if !l.atEnd() {
		t.Errorf("while the reply streams the view is at %v of %v (height %v), want the end", l.list.GetScrollOffset(), l.contentHeight(), l.list.Size().Height)
	}
	close(release)
	h.idle()
	if want := l.contentHeight() - l.list.Size().Height; l.list.GetScrollOffset() < want-1 {
		t.Errorf("after the reply the view is at %v, want the end at %v", l.list.GetScrollOffset(), want)
	}
}

// A conversation waiting for an approval opens at the card, wherever it
// was left.
func TestOpenShowsThePendingApproval(t *testing.T) {
	h := newHarness(t)
	id := fillWith(t, h.core.Engine().DB, 40, wrapped)
	h.chat.Open(id)
	h.model.Reply(pt.ToolCall("shell_exec", `{"command":"echo hi"}`))
	h.model.Reply(pt.Text("ok"))
	h.send("run it")
	h.until("the approval card", func() bool { return len(h.rowsOf(rowApproval)) == 1 })
	l := h.chat.list
	inView := func() bool {
		i := h.chat.rowCount() - 1
		top, off := l.top(i), l.list.GetScrollOffset()
		return h.chat.rowAt(i).kind == rowApproval && top >= off && top < off+l.list.Size().Height
	}
	if !inView() {
		t.Errorf("the new approval card is not in view")
	}
	l.list.ScrollToOffset(0)
	h.chat.NewConversation()
	h.chat.Open(id)
	h.chat.list.Refresh()
	if !inView() {
		t.Errorf("reopened at offset %v: the approval card (top %v) is not in view", l.list.GetScrollOffset(), l.top(h.chat.rowCount()-1))
	}
	test.Tap(h.button("Deny"))
	h.idle()
}

// overlaps names two visible parts of header h that overlap or stick out
// of it, or says "".
func overlaps(h *headerRow) string {
	var objs []fyne.CanvasObject
	for _, o := range h.all() {
		if l, ok := o.(*widget.Label); ok && l.Visible() && l.Text != "" && l.Size().Width < 10 {
			// A label given no width draws its whole text over the rest.
			return fmt.Sprintf("label %q shows in %v", l.Text, l.Size())
		}
		if o.Visible() && o.Size().Width > 0 {
			objs = append(objs, o)
		}
	}
	for i, a := range objs {
		ap, as := a.Position(), a.Size()
		if ap.X < 0 || ap.Y < 0 || ap.X+as.Width > h.Size().Width+0.5 || ap.Y+as.Height > h.Size().Height+0.5 {
			return fmt.Sprintf("part %d at %v size %v sticks out of %v", i, ap, as, h.Size())
		}
		for j, b := range objs[i+1:] {
			bp, bs := b.Position(), b.Size()
			if ap.X < bp.X+bs.Width-0.5 && bp.X < ap.X+as.Width-0.5 && ap.Y < bp.Y+bs.Height-0.5 && bp.Y < ap.Y+as.Height-0.5 {
				return fmt.Sprintf("parts %d (%v %v) and %d (%v %v) overlap", i, ap, as, i+1+j, bp, bs)
			}
		}
	}
	return ""
}

// layOut gives column c its measured height at width and lays it out.
func layOut(c *column, width float32) {
	c.Resize(fyne.NewSize(width, c.heightFor(width)))
	test.WidgetRenderer(c).Layout(c.Size())
	for _, p := range c.parts {
		if w, ok := p.(fyne.Widget); ok {
			test.WidgetRenderer(w).Layout(p.Size())
		}
	}
}

// Headers truncate, and a tool card's wraps its state and buttons to a
// second line, rather than overlap at narrow widths; the height the list
// is given says so.
func TestHeadersDoNotOverlapWhenNarrow(t *testing.T) {
	h := newHarness(t)
	start := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	tool := &row{kind: rowTool, tool: &toolCall{id: "c1", name: "shell_exec", capability: "shell",
		args: json.RawMessage(`{"command":"ls"}`), result: "no such file", isError: true, done: true,
		started: start, ended: start.Add(4300 * time.Millisecond)}}
	reply := &row{kind: rowAssistant, text: "hi", model: "qwen3-coder-30b-a3b-instruct-q4_k_m", status: store.StatusComplete}
	card, msg := newToolCard(h.chat), newMessageView(h.chat)
	card.bind(tool)
	msg.bind(reply, true)
	header := card.col.parts[0].(*headerRow)
	wide := header.heightFor(900)
	for _, w := range []float32{260, 320, 420, 900} {
		layOut(card.col, w)
		if o := overlaps(header); o != "" {
			t.Errorf("tool card header at %v: %s", w, o)
		}
		if got := header.Size().Height; w >= 420 && got != wide {
			t.Errorf("tool card header at %v is %v high, want one line (%v)", w, got, wide)
		} else if w <= 260 && got <= wide {
			t.Errorf("tool card header at %v is %v high: it did not wrap", w, got)
		}
		layOut(msg.col, w)
		if o := overlaps(msg.col.parts[0].(*headerRow)); o != "" {
			t.Errorf("message header at %v: %s", w, o)
		}
	}
	// The status line: a long model name truncates before the gauge.
	h.chat.status.model.SetText(reply.model)
	h.chat.status.usage.SetText(usageText(provider.Usage{InputTokens: 18200, OutputTokens: 300, CachedTokens: 17900})) // the widest form
	status := h.chat.status.object.(*headerRow)
	for _, w := range []float32{380, chatMinWidth, 600, 1200} {
		status.Resize(fyne.NewSize(w, status.MinSize().Height))
		test.WidgetRenderer(status).Layout(status.Size())
		if o := overlaps(status); o != "" {
			t.Errorf("status line at %v: %s", w, o)
		}
		if usage := h.chat.status.usage; w == 1200 && (!usage.Visible() || usage.Size().Width < status.natural(usage)-1) {
			t.Errorf("status line at %v: the usage is cut (%v shown %v) though there is room", w, usage.Size(), usage.Visible())
		}
	}
	// The window's parts keep room to truncate into.
	if w := h.chat.Sidebar().MinSize().Width; w < sidebarMinWidth {
		t.Errorf("the sidebar's least width is %v, want %v", w, sidebarMinWidth)
	}
	if w := h.chat.Object().MinSize().Width; w < chatMinWidth {
		t.Errorf("the chat area's least width is %v, want %v", w, chatMinWidth)
	}
}

// The Rename dialog is wide enough for a title, its field has the
// keyboard, and Enter renames.
func TestRenameDialogFocusedAndEnterSubmits(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.Text("ok"))
	h.send("name me")
	h.idle()
	id := h.chat.Current()
	h.chat.sidebar.rename(id)
	e, ok := h.win.Canvas().Focused().(*widget.Entry)
	if !ok {
		t.Fatalf("focused %T, want the title field", h.win.Canvas().Focused())
	}
	overlays := h.win.Canvas().Overlays().List()
	if len(overlays) == 0 {
		t.Fatal("no dialog")
	}
	if p, ok := overlays[len(overlays)-1].(*widget.PopUp); !ok || p.Content.Size().Width < renameWidth*0.9 {
		t.Errorf("the dialog (%v) is narrower than %v", p.Content.Size(), float32(renameWidth))
	}
	e.SetText("")
	test.Type(e, "A better title")
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if c, err := h.core.History().GetConversation(id); err != nil || c.Title != "A better title" {
		t.Errorf("title %q (%v) after Enter, want A better title", c.Title, err)
	}
	if h.shows("Rename conversation") {
		t.Error("the dialog stays open after Enter")
	}
}

func TestFormatDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{300 * time.Microsecond, "<1ms"},
		{340 * time.Millisecond, "340ms"},
		{4300 * time.Millisecond, "4.3s"},
		{87 * time.Second, "1m27s"},
		{2*time.Hour + 3*time.Minute, "2h3m0s"},
	} {
		if got := formatDuration(tc.d); got != tc.want {
			t.Errorf("formatDuration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// A card's state and note: the run is timed from the approval, the wait
// said apart; a stopped call reads "stopped"; a refusal by a command-line
// chat says so.
func TestToolStateAndNote(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name        string
		call        toolCall
		state, note string
	}{
		{"no approval", toolCall{done: true, started: t0, ended: t0.Add(1200 * time.Millisecond)}, "ok · 1.2s", ""},
		{"approved after a wait",
			toolCall{done: true, started: t0, decided: t0.Add(12 * time.Second), ended: t0.Add(12500 * time.Millisecond),
				decision: &store.Decision{Kind: store.ApprovedOnce}},
			"ok · 500ms", "Approved once · waited 12.0s"},
		{"approved for the chat at once",
			toolCall{done: true, started: t0, decided: t0, ended: t0.Add(87 * time.Second),
				decision: &store.Decision{Kind: store.ApprovedConversation}},
			"ok · 1m27s", "Approved for this chat"},
		{"stopped", toolCall{done: true, isError: true, interrupted: true, started: t0, ended: t0.Add(time.Second),
			result: "interrupted: the turn was stopped before this call ran; it did not run"}, "stopped", ""},
		{"failed", toolCall{done: true, isError: true, started: t0, ended: t0.Add(4300 * time.Millisecond), result: "exit 1"}, "failed · 4.3s", ""},
		{"denied by a command-line chat",
			toolCall{done: true, isError: true, result: "Not run",
				decision: &store.Decision{Kind: store.Denied, Reason: gate.ErrNoApprover.Error()}},
			"denied", "Denied in a command-line chat: it had no terminal to ask for approval on, so the call did not run."},
		{"denied by the user", toolCall{done: true, isError: true, result: "Not run",
			decision: &store.Decision{Kind: store.Denied, Reason: "the user said no"}}, "denied", "Denied: the user said no"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state, note := toolState(&tc.call)
			if state != tc.state || note != tc.note {
				t.Errorf("toolState = %q, %q; want %q, %q", state, note, tc.state, tc.note)
			}
		})
	}
}

// The card itself: an approval's note reads as a success, a refusal's as
// an error; ▸ collapsed, ▾ expanded; the expanded text is labelled.
func TestToolCardColoursArrowsAndLabel(t *testing.T) {
	h := newHarness(t)
	card := newToolCard(h.chat)
	approved := &row{kind: rowTool, tool: &toolCall{id: "a", name: "shell_exec", done: true, result: "hi",
		decision: &store.Decision{Kind: store.ApprovedOnce}}}
	card.bind(approved)
	if card.note.colorName != theme.ColorNameSuccess || card.state.Importance != widget.SuccessImportance {
		t.Errorf("approved: note colour %q, state importance %v; want success", card.note.colorName, card.state.Importance)
	}
	if card.toggle.Icon != theme.MenuExpandIcon() || card.toggle.Text != "Result" || card.label.Visible() {
		t.Errorf("collapsed: toggle %q with the wrong arrow, or the label shows", card.toggle.Text)
	}
	approved.expanded = true
	card.bind(approved)
	if card.toggle.Icon != theme.MenuDropDownIcon() || !card.label.Visible() || card.label.Text != "Result" {
		t.Errorf("expanded: toggle %q, label %q shown %v; want ▾ and a Result label", card.toggle.Text, card.label.Text, card.label.Visible())
	}
	denied := &row{kind: rowTool, expanded: true, tool: &toolCall{id: "b", name: "shell_exec", done: true, isError: true, result: "Not run",
		decision: &store.Decision{Kind: store.Denied, Reason: "the user said no"}}}
	card.bind(denied)
	if card.note.colorName != theme.ColorNameError || card.label.Text != "Error" {
		t.Errorf("denied: note colour %q, label %q; want error, Error", card.note.colorName, card.label.Text)
	}
}

// Stopping a turn says "Stopped." neutrally, and the call it cut short
// reads "stopped", not "error".
func TestStopIsANeutralNote(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.ToolCall("shell_exec", `{"command":"echo never"}`))
	h.send("run it")
	h.until("the approval card", func() bool { return len(h.rowsOf(rowApproval)) == 1 })
	h.chat.Stop()
	h.idle()
	errs := h.rowsOf(rowError)
	if len(errs) != 1 || !stoppedByUser(errs[0]) {
		t.Fatalf("error rows %+v, want one saying the turn was stopped", errs)
	}
	v := h.rowViewOf(errs[0])
	if v == nil || v.errc.text.text != "Stopped." || v.errc.text.colorName == theme.ColorNameError {
		t.Errorf("the stopped note is not a neutral Stopped.; window shows:\n%s", h.texts())
	}
	call := h.rowsOf(rowTool)[0].tool
	if state, _ := toolState(call); state != "stopped" {
		t.Errorf("the cut-short call's state is %q (result %q), want stopped", state, call.result)
	}
	// Loaded again from the store (no error value now), it reads the same.
	id := h.chat.Current()
	h.chat.NewConversation()
	h.chat.Open(id)
	errs = h.rowsOf(rowError)
	if v := h.rowViewOf(errs[0]); len(errs) != 1 || v == nil || v.errc.text.text != "Stopped." {
		t.Errorf("reloaded, the stopped note is not Stopped.; window shows:\n%s", h.texts())
	}
}

// When an error card loses Retry (a turn runs, rows come after it) the
// list gives it the smaller height at once: no empty line stays.
func TestRetryGoesWithItsSpace(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.Text("ok"))
	h.send("hello")
	h.idle()
	h.model.Reply(pt.Text("partial"), pt.Hold())
	h.send("again")
	<-h.model.Waiting()
	h.chat.Stop()
	h.idle()
	l := h.chat.list
	i := h.chat.rowCount() - 1
	if h.chat.rowAt(i).kind != rowError {
		t.Fatalf("the last row is not the error")
	}
	withRetry := l.heightOf(i)
	release := make(chan struct{})
	h.model.Reply(pt.Text("up"), pt.Wait(release), pt.Text(" again"))
	h.send("third time")
	<-h.model.Waiting()
	h.until("the reply", func() bool { return len(h.rowsOf(rowAssistant)) == 2 })
	if got := l.heightOf(i); got >= withRetry {
		t.Errorf("the first error's card is %v high without Retry, %v with it", got, withRetry)
	}
	r := h.chat.rowAt(i)
	l.measurer.bind(r, h.chat.isLast(i), false)
	if got, want := l.heightOf(i), l.measurer.heightFor(l.width); got != want {
		t.Errorf("the list gives the error card %v, its height now is %v", got, want)
	}
	close(release)
	h.idle()
}

// Copy on a message shows a tick for a moment.
func TestCopyShowsATick(t *testing.T) {
	h := newHarness(t)
	timers := &manualTimers{}
	h.chat.after = timers.schedule
	h.model.Reply(pt.Text("copy me"))
	h.send("hi")
	h.idle()
	v := h.rowViewOf(h.rowsOf(rowAssistant)[0])
	if v == nil {
		t.Fatal("the reply is not shown")
	}
	test.Tap(v.msg.copy)
	if v.msg.copy.Icon != theme.ConfirmIcon() || h.copied[len(h.copied)-1] != "copy me" {
		t.Errorf("after Copy: icon %v, copied %q; want a tick", v.msg.copy.Icon.Name(), h.copied)
	}
	timers.drain(t)
	if v.msg.copy.Icon != theme.ContentCopyIcon() {
		t.Errorf("the tick stays: %v", v.msg.copy.Icon.Name())
	}
}

// The composer grows with its text up to composerMaxRows lines.
func TestComposerGrows(t *testing.T) {
	h := newHarness(t)
	e := h.chat.composer.entry
	two := e.MinSize().Height
	listHeight := h.chat.list.Size().Height
	e.SetText("1\n2\n3\n4\n5")
	five := e.MinSize().Height
	if five <= two {
		t.Fatalf("five lines: the composer is %v high, two were %v", five, two)
	}
	if h.chat.list.Size().Height >= listHeight {
		t.Errorf("the messages kept their height (%v) while the composer grew", h.chat.list.Size().Height)
	}
	e.SetText(strings.Repeat("line\n", 30))
	many := e.MinSize().Height
	ref := widget.NewMultiLineEntry()
	ref.SetMinRowsVisible(composerMaxRows)
	if many != ref.MinSize().Height {
		t.Errorf("thirty lines: the composer is %v high, want %d lines (%v)", many, composerMaxRows, ref.MinSize().Height)
	}
	e.SetText("")
	if got := e.MinSize().Height; got != two {
		t.Errorf("emptied: %v high, want %v", got, two)
	}
}

// With no usage reported the gauge shows an estimate, marked ≈.
func TestGaugeEstimatesWithoutUsage(t *testing.T) {
	h := newHarness(t)
	h.chat.Open(fillWith(t, h.core.Engine().DB, 10, wrapped))
	if got := h.chat.status.window.Text; !strings.HasPrefix(got, "Context ≈") || strings.HasPrefix(got, "Context ≈0 ") {
		t.Errorf("gauge %q, want an estimate marked ≈", got)
	}
}
