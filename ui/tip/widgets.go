package tip

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// Label is a label that shows a longer text in a small pop-up while
// the pointer rests on it (Fyne has no tooltips of its own): the status
// line's gauge says where its window figure came from.
type Label struct {
	widget.Label
	// Tip is the tooltip's text ("" shows none).
	Tip  string
	hide func()
}

var _ desktop.Hoverable = (*Label)(nil)

// NewLabel is an empty label with no tip yet.
func NewLabel() *Label {
	l := &Label{}
	l.ExtendBaseWidget(l)
	return l
}

// MouseIn shows the tip by the label.
func (l *Label) MouseIn(*desktop.MouseEvent) { l.hide = Show(l, l.Tip) }

// MouseMoved keeps the tip.
func (l *Label) MouseMoved(*desktop.MouseEvent) {}

// MouseOut hides the tip.
func (l *Label) MouseOut() { l.hideTip() }

func (l *Label) hideTip() {
	if l.hide != nil {
		l.hide()
		l.hide = nil
	}
}

// Button is a button, usually icon-only, that says what it does in a
// tooltip while the pointer rests on it: an icon alone does not tell a
// new user, and a screen reader has nothing else to read.
type Button struct {
	widget.Button
	// Tip is the tooltip's text ("" shows none).
	Tip  string
	hide func()
}

var _ desktop.Hoverable = (*Button)(nil)

// NewButton is a low-importance button with icon, and text (often ""),
// that shows tipText on hover.
func NewButton(text string, icon fyne.Resource, tipText string, tapped func()) *Button {
	b := &Button{Tip: tipText}
	b.Text, b.Icon, b.OnTapped = text, icon, tapped
	b.Importance = widget.LowImportance
	b.ExtendBaseWidget(b)
	return b
}

// MouseIn shows the tip, and the button's own hover.
func (b *Button) MouseIn(e *desktop.MouseEvent) {
	b.Button.MouseIn(e)
	b.hide = Show(b, b.Tip)
}

// MouseOut hides the tip and the hover.
func (b *Button) MouseOut() {
	b.Button.MouseOut()
	b.hideTip()
}

// Tapped hides the tip (the button may open a menu over it) and taps.
func (b *Button) Tapped(e *fyne.PointEvent) {
	b.hideTip()
	b.Button.Tapped(e)
}

func (b *Button) hideTip() {
	if b.hide != nil {
		b.hide()
		b.hide = nil
	}
}
