package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// tipButton is a low-importance icon button that says what it does in a
// small pop-up while the pointer rests on it (Fyne has no tooltips of its
// own; tipLabel is the same for a label).
type tipButton struct {
	widget.Button
	Tip string
	pop *widget.PopUp
}

var _ desktop.Hoverable = (*tipButton)(nil)

func newTipButton(icon fyne.Resource, tip string, tapped func()) *tipButton {
	b := &tipButton{Tip: tip}
	b.Icon, b.OnTapped, b.Importance = icon, tapped, widget.LowImportance
	b.ExtendBaseWidget(b)
	return b
}

// MouseIn shows the tip under the button, and the button's hover.
func (b *tipButton) MouseIn(e *desktop.MouseEvent) {
	b.Button.MouseIn(e)
	if b.Tip == "" {
		return
	}
	c := fyne.CurrentApp().Driver().CanvasForObject(b)
	if c == nil {
		return
	}
	text := widget.NewLabel(b.Tip)
	b.pop = widget.NewPopUp(text, c)
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(b)
	size := text.MinSize()
	// Above the button: the composer is at the window's bottom.
	b.pop.ShowAtPosition(fyne.NewPos(max(min(pos.X, c.Size().Width-size.Width), 0), max(pos.Y-size.Height-4, 0)))
}

// MouseOut hides the tip.
func (b *tipButton) MouseOut() {
	b.Button.MouseOut()
	b.hideTip()
}

// Tapped hides the tip (the button may go away) and taps.
func (b *tipButton) Tapped(e *fyne.PointEvent) {
	b.hideTip()
	b.Button.Tapped(e)
}

func (b *tipButton) hideTip() {
	if b.pop != nil {
		b.pop.Hide()
		b.pop = nil
	}
}
