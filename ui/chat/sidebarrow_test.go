package chat

import (
	"testing"

	"fyne.io/fyne/v2"

	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// Fyne's list makes a throwaway row at every full refresh (each turn's
// end reloads the sidebar) only to ask its size: the row reports the size
// measured once, without measuring its labels and buttons (which would
// make their renderers, each button parsing its SVG icon, for Fyne's
// renderer cache to keep a minute), and shows the same content.
func TestSidebarRowReportsItsSizeWithoutMeasuringItsContent(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.Text("hello"))
	h.send("hi")
	h.idle()
	s := h.chat.sidebar
	if s.rowMin.IsZero() {
		t.Fatal("the sidebar never measured its rows")
	}
	if got, want := s.createRow().MinSize(), s.rowContent().MinSize(); got != want {
		t.Errorf("a row reports %v, its content measures %v", got, want)
	}
	var size fyne.Size
	template := testing.AllocsPerRun(20, func() { size = s.createRow().MinSize() })
	measured := testing.AllocsPerRun(20, func() { size = s.rowContent().MinSize() })
	if template*10 > measured {
		t.Errorf("a template row costs %.0f allocations, measuring a row's content %.0f: the template measures its content", template, measured)
	}
	_ = size
}
