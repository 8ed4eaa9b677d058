package tip_test

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/wrasse-app/wrasse/ui/tip"
)

// An icon-only button says what it does while the pointer rests on it,
// and the tip goes when it leaves or taps.
func TestTipButton(t *testing.T) {
	test.NewTempApp(t)
	tapped := 0
	b := tip.NewButton("", theme.ContentCopyIcon(), "Copy the call and its result", func() { tapped++ })
	layer := tip.NewLayer()
	w := test.NewTempWindow(t, container.NewStack(container.NewCenter(b), layer))
	w.Resize(fyne.NewSize(300, 200))
	b.MouseIn(&desktop.MouseEvent{})
	if got := layer.Text(); got != "Copy the call and its result" {
		t.Fatalf("tip %q while hovering", got)
	}
	b.MouseOut()
	if got := layer.Text(); got != "" {
		t.Errorf("tip %q after the pointer left", got)
	}
	// A click while the tip shows reaches the button (a pop-up tip took
	// every click for itself, and only went away).
	b.MouseIn(&desktop.MouseEvent{})
	if len(w.Canvas().Overlays().List()) != 0 {
		t.Fatal("the tip is an overlay: it takes the clicks meant for the button")
	}
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(b).Add(fyne.NewPos(b.Size().Width/2, b.Size().Height/2))
	test.TapCanvas(w.Canvas(), at)
	if got := layer.Text(); got != "" || tapped != 1 {
		t.Errorf("after a click on the button: tip %q, tapped %d", got, tapped)
	}
}
