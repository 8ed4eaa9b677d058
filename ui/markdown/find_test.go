package markdown

import (
	"testing"

	"fyne.io/fyne/v2/test"
)

// TestFindMarks: occurrences are found in every kind of block as shown,
// in reading order; the current one is told apart; MarkOffset goes down
// the message with n; "" clears them.
func TestFindMarks(t *testing.T) {
	test.NewTempApp(t)
	src := "A **Fern** paragraph.\n\n- a list item\n- the fern in a list\n\n> a quoted fern\n\n```\nfern := 1\n```\n\n| plant |\n|---|\n| fern |\n"
	v := laidOut(t, src, 400, Options{})
	if n := v.SetMark("fern", 2); n != 5 {
		t.Fatalf("SetMark counted %d occurrences, want 5", n)
	}
	var current []int
	for _, o := range v.objects {
		walkFlows(o, 400, -1, func(f *textFlow, _, _ float32) bool {
			if f.markAt >= 0 && f.mark != "" {
				current = append(current, f.markAt)
			}
			return true
		})
	}
	if len(current) != 1 || current[0] != 0 {
		t.Errorf("flows mark %v as current; want one flow with its first occurrence", current)
	}
	last := float32(-1)
	for n := range 5 {
		y, ok := v.MarkOffset("fern", n, 400)
		if !ok || y <= last {
			t.Fatalf("MarkOffset(%d) = %v, %v; want below %v", n, y, ok, last)
		}
		last = y
	}
	if _, ok := v.MarkOffset("fern", 5, 400); ok {
		t.Error("MarkOffset found a sixth occurrence")
	}
	if y, h := last, v.HeightFor(400); y >= h {
		t.Errorf("the last occurrence at %v is below the message's end %v", y, h)
	}
	v.SetMark("", -1)
	for _, o := range v.objects {
		walkFlows(o, 400, -1, func(f *textFlow, _, _ float32) bool {
			if f.mark != "" {
				t.Error("a flow keeps its mark after SetMark(\"\")")
			}
			return true
		})
	}
}
