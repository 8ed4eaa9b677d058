package chat

import (
	"fmt"
	"github.com/wrasse-app/wrasse/ui/tip"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/store"
)

// shownThinking bounds the reasoning a block shows expanded; Copy takes
// all of it.
const shownThinking = 12000

// thinkingBlock shows the model's reasoning above its answer: collapsed
// to a "Thinking…" line (with the latest words while it streams, so a
// long think never looks frozen), expanded to the whole text on a tap,
// with Copy. It is never part of the answer's text.
type thinkingBlock struct {
	c      *Chat
	quiet  bool
	r      *row
	col    *column
	toggle *widget.Button
	meta   *widget.Label
	copy   *tip.Button
	// preview is the latest line while it streams collapsed.
	preview *widget.Label
	body    *wrapText
}

func newThinkingBlock(c *Chat) *thinkingBlock {
	b := &thinkingBlock{c: c}
	b.toggle = widget.NewButtonWithIcon("Thinking", theme.MenuExpandIcon(), func() { c.toggleResult(b.r) })
	b.toggle.Importance = widget.LowImportance
	b.meta = widget.NewLabel("")
	b.copy = tip.NewButton("", theme.ContentCopyIcon(), "Copy the model's thinking", nil)
	b.copy.OnTapped = func() { c.copyWithTick(b.r, &b.copy.Button) }
	header := newHeaderRow(false, []fyne.CanvasObject{b.toggle}, []*widget.Label{b.meta}, b.copy)
	b.preview = widget.NewLabel("")
	b.preview.Truncation = fyne.TextTruncateEllipsis
	b.preview.TextStyle.Italic = true
	b.preview.Importance = widget.LowImportance
	b.body = newWrapText("", fyne.TextStyle{}, theme.ColorNamePlaceHolder)
	b.col = newColumn(theme.ColorNameHover, header, b.preview, b.body)
	return b
}

func (b *thinkingBlock) bind(r *row) {
	b.r = r
	streaming := r.status == store.StatusStreaming
	title, icon := "Thinking", theme.MenuExpandIcon()
	switch {
	case streaming:
		title = "Thinking…"
	case r.status == store.StatusInterrupted:
		title = "Thinking (interrupted)"
	}
	if r.expanded {
		icon = theme.MenuDropDownIcon()
	}
	if r.redacted {
		title = "Thinking (encrypted by the provider)"
	}
	if b.quiet {
		b.toggle.Text, b.toggle.Icon = title, icon
	} else {
		b.toggle.SetText(title)
		b.toggle.SetIcon(icon)
	}
	setLabel(b.meta, thinkingMeta(r.text), b.quiet)
	setVisible(b.copy, r.text != "")
	setLabel(b.preview, lastLine(r.text), b.quiet)
	setVisible(b.preview, streaming && !r.expanded && r.text != "")
	text := r.text
	if n := utf8.RuneCountInString(text); n > shownThinking {
		text = string([]rune(text)[:shownThinking]) + fmt.Sprintf("\n… (%d more characters: Copy takes them all)", n-shownThinking)
	}
	if r.redacted {
		text = "The provider sent this reasoning encrypted; it goes back to the model unchanged and cannot be shown."
	}
	b.body.setText(text, b.quiet)
	setVisible(b.body, r.expanded)
	if !b.quiet {
		b.col.Refresh()
	}
}

// thinkingMeta is how much was thought: "412 words".
func thinkingMeta(text string) string {
	n := len(strings.Fields(text))
	switch n {
	case 0:
		return ""
	case 1:
		return "1 word"
	}
	return fmt.Sprintf("%d words", n)
}

// lastLine is the end of the text so far on one line: what the model is
// thinking about now.
func lastLine(text string) string {
	text = strings.TrimSpace(text)
	if i := strings.LastIndexByte(text, '\n'); i >= 0 {
		text = text[i+1:]
	}
	if r := []rune(text); len(r) > 300 {
		text = "…" + string(r[len(r)-300:])
	}
	return text
}
