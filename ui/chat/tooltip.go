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

// MouseIn shows the tip under the label.
func (l *tipLabel) MouseIn(*desktop.MouseEvent) {
	if l.Tip == "" {
		return
	}
	c := fyne.CurrentApp().Driver().CanvasForObject(l)
	if c == nil {
		return
	}
	text := widget.NewLabel(l.Tip)
	l.pop = widget.NewPopUp(text, c)
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(l)
	size := text.MinSize()
	// Above the label: the status line is the window's last.
	l.pop.ShowAtPosition(fyne.NewPos(max(pos.X+l.Size().Width-size.Width, 0), max(pos.Y-size.Height-4, 0)))
}

// MouseMoved keeps the tip.
func (l *tipLabel) MouseMoved(*desktop.MouseEvent) {}

// MouseOut hides the tip.
func (l *tipLabel) MouseOut() {
	if l.pop != nil {
		l.pop.Hide()
		l.pop = nil
	}
}
