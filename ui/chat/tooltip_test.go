package chat

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// An icon-only button says what it does while the pointer rests on it,
// and the tip goes when it leaves or taps.
func TestTipButton(t *testing.T) {
	test.NewTempApp(t)
	tapped := 0
	b := newTipButton("", theme.ContentCopyIcon(), "Copy the call and its result", func() { tapped++ })
	w := test.NewTempWindow(t, b)
	w.Resize(fyne.NewSize(200, 100))
	tip := func() string {
		for _, o := range w.Canvas().Overlays().List() {
			if p, ok := o.(*widget.PopUp); ok && p.Visible() {
				if l, ok := p.Content.(*widget.Label); ok {
					return l.Text
				}
			}
		}
		return ""
	}
	b.MouseIn(&desktop.MouseEvent{})
	if got := tip(); got != "Copy the call and its result" {
		t.Fatalf("tip %q while hovering", got)
	}
	b.MouseOut()
	if got := tip(); got != "" {
		t.Errorf("tip %q after the pointer left", got)
	}
	b.MouseIn(&desktop.MouseEvent{})
	test.Tap(b)
	if got := tip(); got != "" || tapped != 1 {
		t.Errorf("after a tap: tip %q, tapped %d", got, tapped)
	}
}
