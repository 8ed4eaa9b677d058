package chat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"

	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// The find bar's space comes and goes with it, without waiting for the
// window to be resized.
func TestFindBarGivesItsSpaceBackWhenClosed(t *testing.T) {
	for _, tc := range []struct {
		name  string
		close func(h *harness)
	}{
		{"Esc", func(h *harness) { h.chat.find.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) }},
		{"the close button", func(h *harness) { test.Tap(h.chat.find.closeBtn) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			l := h.chat.list
			y, height := l.Position().Y, l.Size().Height
			h.chat.ShowFind()
			if l.Position().Y <= y || l.Size().Height >= height {
				t.Fatalf("with the find bar open the messages start at %v (height %v), before at %v (%v)", l.Position().Y, l.Size().Height, y, height)
			}
			tc.close(h)
			if l.Position().Y != y || l.Size().Height != height {
				t.Errorf("after closing the find bar the messages start at %v (height %v), want %v (%v)", l.Position().Y, l.Size().Height, y, height)
			}
		})
	}
}

func TestExportSaysWhereItWent(t *testing.T) {
	h := newHarness(t)
	timers := &manualTimers{}
	h.chat.after = timers.schedule
	h.model.Reply(pt.Text("hello"))
	h.send("hi")
	h.idle()
	path := filepath.Join(t.TempDir(), "hi.md")
	w, err := storage.Writer(storage.NewFileURI(path))
	if err != nil {
		t.Fatal(err)
	}
	h.chat.exportTo(h.chat.Current(), "Hi", w)
	h.until("the export", func() bool { return h.chat.notice.Visible() })
	if want := "Exported to " + path; h.chat.notice.Text != want {
		t.Errorf("notice %q, want %q", h.chat.notice.Text, want)
	}
	if b, err := os.ReadFile(path); err != nil || !strings.Contains(string(b), "# Hi") {
		t.Errorf("the file holds %q (%v)", b, err)
	}
	timers.drain(t)
	if h.chat.notice.Visible() {
		t.Error("the notice stays")
	}
}
