package confirm

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// all lists every visible object under o with its absolute position.
func all(t *testing.T, o fyne.CanvasObject, at fyne.Position, out map[fyne.CanvasObject]fyne.Position) {
	if o == nil || !o.Visible() {
		return
	}
	pos := at.Add(o.Position())
	out[o] = pos
	switch v := o.(type) {
	case *fyne.Container:
		for _, c := range v.Objects {
			all(t, c, pos, out)
		}
	case fyne.Widget:
		for _, c := range test.TempWidgetRenderer(t, v).Objects() {
			all(t, c, pos, out)
		}
	}
}

func overlap(p1 fyne.Position, s1 fyne.Size, p2 fyne.Position, s2 fyne.Size) bool {
	return p1.X < p2.X+s2.Width && p2.X < p1.X+s1.Width && p1.Y < p2.Y+s2.Height && p2.Y < p1.Y+s1.Height
}

// A long question wraps beside its icon, never over it, shows every
// line, and its buttons say what they do and answer the callback.
func TestQuestionTextStaysClearOfItsIcon(t *testing.T) {
	msg := strings.Repeat("Move the MCP server demo to the Trash? It can be restored for 7 days from the Capabilities page. ", 3)
	tests := []struct {
		name string
		size fyne.Size
	}{
		{"default window", fyne.NewSize(1100, 720)},
		{"small window", fyne.NewSize(480, 360)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { question(t, tt.size, msg) })
	}
}

func question(t *testing.T, size fyne.Size, msg string) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel("window"))
	w.Resize(size)
	var answer []bool
	q := Show("Remove demo?", msg, "Remove", "Keep it", func(ok bool) { answer = append(answer, ok) }, w)
	objs := map[fyne.CanvasObject]fyne.Position{}
	for _, o := range w.Canvas().Overlays().List() {
		all(t, o, fyne.Position{}, objs)
	}
	mp, ok1 := objs[q.Message]
	ip, ok2 := objs[q.Icon]
	if !ok1 || !ok2 {
		t.Fatalf("%v: the message (%v) or the icon (%v) is not showing", size, ok1, ok2)
	}
	if overlap(mp, q.Message.Size(), ip, q.Icon.Size()) {
		t.Errorf("%v: the message at %v %v runs over the icon at %v %v", size, mp, q.Message.Size(), ip, q.Icon.Size())
	}
	if need := q.Message.MinSize().Height; q.Message.Size().Height < need {
		t.Errorf("%v: the message is %v tall, its lines need %v", size, q.Message.Size().Height, need)
	}
	if right := mp.X + q.Message.Size().Width; right > size.Width {
		t.Errorf("%v: the message ends at x=%v, past the window", size, right)
	}
	var yes *widget.Button
	for o := range objs {
		if b, ok := o.(*widget.Button); ok && b.Text == "Remove" {
			yes = b
		}
	}
	if yes == nil {
		t.Fatalf("%v: no Remove button", size)
	}
	test.Tap(yes)
	if len(answer) != 1 || !answer[0] {
		t.Errorf("%v: the callback got %v, want [true]", size, answer)
	}
}
