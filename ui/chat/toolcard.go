package chat

import (
	"fmt"
	"github.com/wrasse-app/wrasse/ui/tip"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// shownResult bounds the result text a card shows expanded; Copy takes
// all of it.
const shownResult = 6000

// toolCard shows one tool call: the tool, its capability, the arguments
// (always visible, compact JSON; a code-mode program as its Go source),
// the gate's decision when it was asked or blocked, how long it ran, and
// the result or error, collapsed until expanded. The calls a program made
// follow its card, each indented under it (rowView).
type toolCard struct {
	c      *Chat
	quiet  bool
	r      *row
	col    *column
	name   *widget.Label
	meta   *widget.Label
	state  *widget.Label
	args   *wrapText
	note   *wrapText
	toggle *widget.Button
	copy   *widget.Button
	// label says what the expanded text is: the Result or the Error.
	label  *widget.Label
	result *wrapText
	// thumbs shows the result's images.
	thumbs *thumbs
	// fix opens the page where the user fixes a failed call ("Grant
	// network to fetcher"); shown only when the failure has a fix.
	fix    *widget.Button
	fixRow *fyne.Container
	// fixedNote says the fix is made ("calc is enabled now"); the fix
	// button is then Retry (fixed).
	fixedNote *widget.Label
	fixed     bool
	// progress is an MCP server's report on the call under way
	// (progress.go).
	progress *progressRow
}

func newToolCard(c *Chat) *toolCard {
	t := &toolCard{c: c}
	t.name = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	t.meta = widget.NewLabel("")
	t.meta.TextStyle.Italic = true
	t.state = widget.NewLabel("")
	t.toggle = widget.NewButtonWithIcon("Result", theme.MenuExpandIcon(), func() { c.toggleResult(t.r) })
	t.toggle.Importance = widget.LowImportance
	copyBtn := tip.NewButton("", theme.ContentCopyIcon(), "Copy the call and its result", nil)
	copyBtn.OnTapped = func() { c.copyWithTick(t.r, &copyBtn.Button) }
	t.copy = &copyBtn.Button
	t.copy.Importance = widget.LowImportance
	icon := widget.NewIcon(theme.SettingsIcon())
	header := newHeaderRow(true, []fyne.CanvasObject{icon}, []*widget.Label{t.name, t.meta}, t.state, t.toggle, copyBtn)
	t.args = newWrapText("", fyne.TextStyle{Monospace: true}, theme.ColorNameForeground)
	t.note = newWrapText("", fyne.TextStyle{}, theme.ColorNameError)
	t.label = widget.NewLabelWithStyle("Result", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	t.label.SizeName = theme.SizeNameCaptionText
	t.result = newWrapText("", fyne.TextStyle{Monospace: true}, theme.ColorNameForeground)
	t.thumbs = newThumbs()
	t.fix = widget.NewButtonWithIcon("", theme.SettingsIcon(), func() {
		if t.fixed {
			c.regenerate()
			return
		}
		c.applyFix(t.r)
	})
	t.fixedNote = widget.NewLabel("")
	t.fixedNote.Importance = widget.SuccessImportance
	t.fixRow = container.NewHBox(t.fixedNote, t.fix, layout.NewSpacer())
	t.progress = newProgressRow()
	t.col = newColumn(theme.ColorNameHeaderBackground, header, t.args, t.progress.bar, t.progress.text, t.note, t.fixRow, t.thumbs.box, t.label, t.result)
	return t
}

func (t *toolCard) bind(r *row) {
	t.r = r
	call := r.tool
	setLabel(t.name, call.name, t.quiet)
	setLabel(t.meta, call.capability, t.quiet)
	t.args.setText(call.argsText(), t.quiet)
	state, note := toolState(call)
	orphan := false
	switch {
	case call.done:
	case call.decision == nil && t.c.awaiting(call.id):
		state = "waiting for approval"
	case !t.c.running(t.c.cur) && !t.c.core.TurnRunning(t.c.cur.id):
		// No turn runs here (not this window's, nor a scheduled run's),
		// so nothing will finish the call: the app closed (or crashed)
		// while it waited or ran.
		state, note = orphanState(call, t.c.needsApproval)
		orphan = true
	}
	setLabel(t.state, state, t.quiet)
	t.progress.bind(call, t.quiet)
	t.state.Importance = widget.MediumImportance
	denied := call.decision != nil && (call.decision.Kind == store.Blocked || call.decision.Kind == store.Denied)
	switch {
	case call.stopped():
	case call.failed() || denied || orphan:
		t.state.Importance = widget.DangerImportance
	case call.done:
		t.state.Importance = widget.SuccessImportance
	}
	if !t.quiet {
		t.state.Refresh()
	}
	t.note.setText(note, t.quiet)
	// An approval reads as a success, a refusal as an error.
	t.note.colorName = theme.ColorNameError
	if call.decision != nil && !denied && !orphan {
		t.note.colorName = theme.ColorNameSuccess
	}
	setVisible(t.note, note != "")
	hasFix := call.fix != nil && call.fix.Page != hint.PageNone && call.fix.Action != ""
	f, capFix := capFixOf(call.fix)
	t.fixed = hasFix && capFix && f.done(t.c.core.Capabilities())
	fixText, fixIcon := "", theme.SettingsIcon()
	if hasFix {
		fixText = call.fix.Action
	}
	if t.fixed {
		fixText, fixIcon = "Retry", theme.ViewRefreshIcon()
		setLabel(t.fixedNote, f.doneText(), t.quiet)
	}
	if hasFix && !t.quiet {
		t.fix.SetText(fixText)
		t.fix.SetIcon(fixIcon)
	}
	setVisible(t.fixedNote, t.fixed)
	setVisible(t.fix, hasFix && (!t.fixed || t.c.canRetryAt(r)))
	setVisible(t.fixRow, hasFix)
	setVisible(t.toggle, call.done && call.result != "")
	what := "Result"
	if call.failed() {
		what = "Error"
	}
	// ▸ collapsed, ▾ expanded.
	if r.expanded {
		t.toggle.SetIcon(theme.MenuDropDownIcon())
		t.toggle.SetText("Hide")
	} else {
		t.toggle.SetIcon(theme.MenuExpandIcon())
		t.toggle.SetText(what)
	}
	setLabel(t.label, what, t.quiet)
	t.result.setText(clip(call.result, shownResult), t.quiet)
	t.result.colorName = theme.ColorNameForeground
	if call.failed() && !call.stopped() {
		t.result.colorName = theme.ColorNameError
	}
	setVisible(t.label, r.expanded && call.result != "")
	setVisible(t.result, r.expanded && call.result != "")
	src := t.c.imageSource()
	src.seq = call.imagesSeq
	t.thumbs.set(call.images, src, t.quiet)
	if !t.quiet {
		t.col.Refresh()
	}
}

func (t *toolCard) heightFor(width float32) float32 { return t.col.heightFor(width) }

// toolState is the card's short state ("running…", "ok · 1.2 s") and a
// note on the gate's decision when it is worth one.
func toolState(call *toolCall) (state, note string) {
	d := call.decision
	if d != nil {
		switch d.Kind {
		case store.Blocked:
			return "blocked", "Blocked by the safety policy: " + d.Reason
		case store.Denied:
			note = "Denied"
			switch {
			case strings.Contains(d.Reason, gate.ErrNoApprover.Error()):
				// The window always asks: a turn that had no one to ask
				// came from elsewhere (a command-line chat forwarded here
				// or run on its own) and was denied there.
				note = "Denied in a command-line chat: it had no terminal to ask for approval on, so the call did not run."
			case d.Reason != "":
				note += ": " + d.Reason
			}
		case store.ApprovedOnce:
			note = "Approved once"
		case store.ApprovedConversation:
			note = "Approved for this chat"
		}
		if w := call.waited(); w >= time.Second {
			note += " · waited " + formatDuration(w)
		}
	}
	switch {
	case !call.done:
		return "running…", note
	case call.stopped():
		return "stopped", note
	case d != nil && d.Kind == store.Denied:
		// It did not run: no duration, the wait is in the note.
		return "denied", note
	case call.isError:
		state = "failed"
	default:
		state = "ok"
	}
	if code, ok := exitCode(call.result); ok && code != 0 {
		// A command that ran and exited non-zero failed, though the tool
		// itself worked: its output says why (Permission denied, ...).
		state = "failed · exit code " + strconv.Itoa(code)
	}
	if dur := call.duration(); dur > 0 {
		state += " · " + formatDuration(dur)
	}
	return state, note
}

// failed reports whether the call failed: the tool said so, or the
// command it ran exited with a non-zero code.
func (t *toolCall) failed() bool {
	if !t.done {
		return false
	}
	code, ok := exitCode(t.result)
	return t.isError || ok && code != 0
}

// exitCode reads the exit code a command tool puts at the top of its
// result ("exit code: 1", after any "note:" lines: the shell capability's
// form); ok is false when the result does not start with one.
func exitCode(result string) (code int, ok bool) {
	for range 3 {
		line, rest, _ := strings.Cut(result, "\n")
		if v, found := strings.CutPrefix(line, "exit code: "); found {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			return n, err == nil
		}
		if !strings.HasPrefix(line, "note: ") {
			return 0, false
		}
		result = rest
	}
	return 0, false
}

// orphanState is the state and note of a call that never finished and
// that no turn runs any more: the app closed while the call waited for
// the person's approval (it did not run), or while it ran (its outcome is
// unknown). asks tells whether the gate asks about the call (a call with
// no recorded decision either waited for one or needed none).
func orphanState(call *toolCall, asks func(tool string, args []byte) bool) (state, note string) {
	if call.decision == nil && asks != nil && asks(call.name, call.args) {
		return "not run", "Not run: the app closed while this call waited for your approval. Send a message to ask again."
	}
	if call.decision != nil && (call.decision.Kind == store.Denied || call.decision.Kind == store.Blocked) {
		return "not run", "Not run: it was refused."
	}
	return "did not finish", "Did not finish: the app closed while this call ran, so its outcome is unknown."
}

// formatDuration writes a duration one way throughout: 340ms, 4.3s,
// 1m27s, 2h3m0s.
func formatDuration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return "<1ms"
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return d.Round(time.Second).String()
}

// clip cuts s to n characters, saying how much was left out.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + fmt.Sprintf("\n… (%d more characters; Copy takes all)", len(r)-n)
}
