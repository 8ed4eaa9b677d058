package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/ui/tip"
)

// tipLabel is a label that shows a longer text in a small pop-up while
// the pointer rests on it (Fyne has no tooltips of its own): the status
// line's gauge says where its window figure came from.
type tipLabel struct {
	widget.Label
	// Tip is the tooltip's text ("" shows none).
	Tip  string
	hide func()
}

var _ desktop.Hoverable = (*tipLabel)(nil)

func newTipLabel() *tipLabel {
	l := &tipLabel{}
	l.ExtendBaseWidget(l)
	return l
}

// MouseIn shows the tip by the label.
func (l *tipLabel) MouseIn(*desktop.MouseEvent) { l.hide = tip.Show(l, l.Tip) }

// MouseMoved keeps the tip.
func (l *tipLabel) MouseMoved(*desktop.MouseEvent) {}

// MouseOut hides the tip.
func (l *tipLabel) MouseOut() { l.hideTip() }

func (l *tipLabel) hideTip() {
	if l.hide != nil {
		l.hide()
		l.hide = nil
	}
}

// tipButton is a button, usually icon-only, that says what it does in a
// tooltip while the pointer rests on it: an icon alone does not tell a
// new user, and a screen reader has nothing else to read.
type tipButton struct {
	widget.Button
	// Tip is the tooltip's text ("" shows none).
	Tip  string
	hide func()
}

var _ desktop.Hoverable = (*tipButton)(nil)

// newTipButton is a low-importance button with icon, and text (often ""),
// that shows tip on hover.
func newTipButton(text string, icon fyne.Resource, tip string, tapped func()) *tipButton {
	b := &tipButton{Tip: tip}
	b.Text, b.Icon, b.OnTapped = text, icon, tapped
	b.Importance = widget.LowImportance
	b.ExtendBaseWidget(b)
	return b
}

// MouseIn shows the tip, and the button's own hover.
func (b *tipButton) MouseIn(e *desktop.MouseEvent) {
	b.Button.MouseIn(e)
	b.hide = tip.Show(b, b.Tip)
}

// MouseOut hides the tip and the hover.
func (b *tipButton) MouseOut() {
	b.Button.MouseOut()
	b.hideTip()
}

// Tapped hides the tip (the button may open a menu over it) and taps.
func (b *tipButton) Tapped(e *fyne.PointEvent) {
	b.hideTip()
	b.Button.Tapped(e)
}

func (b *tipButton) hideTip() {
	if b.hide != nil {
		b.hide()
		b.hide = nil
	}
}
