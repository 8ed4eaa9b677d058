package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// hoverTipButton is a button, usually icon-only, that says what it does in
// a small pop-up while the pointer rests on it (Fyne has no tooltips of
// its own; tipLabel is the same for a label).
type hoverTipButton struct {
	widget.Button
	// Tip is the pop-up's text ("" shows none).
	Tip string
	pop *widget.PopUp
}

var _ desktop.Hoverable = (*hoverTipButton)(nil)

func newHoverTipButton(icon fyne.Resource, tip string, tapped func()) *hoverTipButton {
	b := &hoverTipButton{Tip: tip}
	b.Icon, b.OnTapped = icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// MouseIn highlights the button and shows the tip under it.
func (b *hoverTipButton) MouseIn(ev *desktop.MouseEvent) {
	b.Button.MouseIn(ev)
	if b.Tip == "" {
		return
	}
	c := fyne.CurrentApp().Driver().CanvasForObject(b)
	if c == nil {
		return
	}
	b.pop = widget.NewPopUp(widget.NewLabel(b.Tip), c)
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(b)
	b.pop.ShowAtPosition(pos.AddXY(0, b.Size().Height+2))
}

// MouseOut hides the tip.
func (b *hoverTipButton) MouseOut() {
	b.Button.MouseOut()
	if b.pop != nil {
		b.pop.Hide()
		b.pop = nil
	}
}

// Tapped hides the tip and taps the button.
func (b *hoverTipButton) Tapped(ev *fyne.PointEvent) {
	if b.pop != nil {
		b.pop.Hide()
		b.pop = nil
	}
	b.Button.Tapped(ev)
}
