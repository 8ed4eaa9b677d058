package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// tipLabel is a label that shows a longer text in a small pop-up while
// the pointer rests on it (Fyne has no tooltips of its own): the status
// line's gauge says where its window figure came from.
type tipLabel struct {
	widget.Label
	// Tip is the pop-up's text ("" shows none).
	Tip string
	pop *widget.PopUp
}

var _ desktop.Hoverable = (*tipLabel)(nil)

func newTipLabel() *tipLabel {
	l := &tipLabel{}
	l.ExtendBaseWidget(l)
	return l
}

// MouseIn shows the tip by the label.
func (l *tipLabel) MouseIn(*desktop.MouseEvent) { l.pop = showTip(l, l.Tip) }

// MouseMoved keeps the tip.
func (l *tipLabel) MouseMoved(*desktop.MouseEvent) {}

// MouseOut hides the tip.
func (l *tipLabel) MouseOut() { l.pop = hideTip(l.pop) }

// tipButton is a button, usually icon-only, that says what it does in a
// tooltip while the pointer rests on it: an icon alone does not tell a
// new user, and a screen reader has nothing else to read.
type tipButton struct {
	widget.Button
	// Tip is the pop-up's text ("" shows none).
	Tip string
	pop *widget.PopUp
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
	b.pop = showTip(b, b.Tip)
}

// MouseOut hides the tip and the hover.
func (b *tipButton) MouseOut() {
	b.Button.MouseOut()
	b.pop = hideTip(b.pop)
}

// Tapped hides the tip (the button may open a menu over it) and taps.
func (b *tipButton) Tapped(e *fyne.PointEvent) {
	b.pop = hideTip(b.pop)
	b.Button.Tapped(e)
}

// showTip shows text in a pop-up by o: above it in the lower half of the
// window (the status line is the window's last), below it in the upper
// half (the header, the sidebar), kept inside the window.
func showTip(o fyne.CanvasObject, text string) *widget.PopUp {
	if text == "" || fyne.CurrentApp() == nil {
		return nil
	}
	c := fyne.CurrentApp().Driver().CanvasForObject(o)
	if c == nil {
		return nil
	}
	label := widget.NewLabel(text)
	pop := widget.NewPopUp(label, c)
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
	size := label.MinSize()
	x := min(max(pos.X+o.Size().Width-size.Width, 0), max(c.Size().Width-size.Width, 0))
	y := pos.Y + o.Size().Height + 4
	if pos.Y > c.Size().Height/2 {
		y = max(pos.Y-size.Height-4, 0)
	}
	pop.ShowAtPosition(fyne.NewPos(x, y))
	return pop
}

func hideTip(p *widget.PopUp) *widget.PopUp {
	if p != nil {
		p.Hide()
	}
	return nil
}
