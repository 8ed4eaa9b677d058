package tip

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// A tip shows on the window's layer, inside the window, under an object in
// its upper half and over one in its lower half; hiding it twice, or after
// another object's tip replaced it, leaves the other tip alone.
func TestShowPlacesTheTipInsideTheWindow(t *testing.T) {
	test.NewTempApp(t)
	top, bottom := widget.NewButton("top", nil), widget.NewButton("bottom", nil)
	layer := NewLayer()
	w := test.NewTempWindow(t, container.NewStack(container.NewBorder(top, bottom, nil, nil), layer))
	w.Resize(fyne.NewSize(400, 300))
	if Find(w.Content()) != layer {
		t.Fatal("Find does not find the layer at the top of the content")
	}
	hideTop := Show(top, "a tip for the top button")
	if layer.Text() != "a tip for the top button" || layer.label.Position().Y < top.Position().Y+top.Size().Height {
		t.Errorf("the top button's tip %q at %v, want it below the button", layer.Text(), layer.label.Position())
	}
	hideBottom := Show(bottom, "a tip for the bottom button, long enough to reach the window's right edge")
	p, s := layer.label.Position(), layer.label.Size()
	if p.Y+s.Height > bottom.Position().Y || p.X < 0 || p.X+s.Width > 400 {
		t.Errorf("the bottom button's tip at %v size %v, want above the button and inside the window", p, s)
	}
	hideTop() // the top button's tip was replaced: nothing to hide
	if layer.Text() == "" {
		t.Error("hiding a replaced tip hid the tip showing now")
	}
	hideBottom()
	if layer.Text() != "" {
		t.Errorf("tip %q after hiding it", layer.Text())
	}
	if hide := Show(widget.NewLabel("not in a window"), "x"); hide == nil {
		t.Error("Show of an object in no window returned no hide func")
	}
}
