package settings

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// asButton is o as a button: the pages' own (escButton) or a stock one
// (a dialog's).
func asButton(o fyne.CanvasObject) (*widget.Button, bool) {
	switch b := o.(type) {
	case *widget.Button:
		return b, true
	case *escButton:
		return &b.Button, true
	}
	return nil, false
}

// press delivers a key as the window's driver does: to the focused
// widget when there is one, else to the canvas's handler.
func press(c fyne.Canvas, key fyne.KeyName) {
	ev := &fyne.KeyEvent{Name: key}
	if f := c.Focused(); f != nil {
		f.TypedKey(ev)
		return
	}
	if h := c.OnTypedKey(); h != nil {
		h(ev)
	}
}

// Esc reaches the window's handler (which leaves the settings for the
// chat) whatever control the person clicked last: a capability's switch
// took the focus and swallowed Esc, as did a button Tab had reached.
// Other keys stay with the control.
func TestEscapeLeavesSettingsWhateverHasTheFocus(t *testing.T) {
	tests := []struct {
		name  string
		click func(h *harness) fyne.Focusable
	}{
		{"a capability's switch", func(h *harness) fyne.Focusable {
			h.s.Show(hint.PageCapabilities, "")
			r := h.row("calc")
			tapCheck(r.enabled)
			return r.enabled
		}},
		{"the capability filter", func(h *harness) fyne.Focusable {
			h.s.Show(hint.PageCapabilities, "")
			h.win.Canvas().Focus(h.s.caps.filter) // what a click in it does
			return h.s.caps.filter
		}},
		{"the model's provider", func(h *harness) fyne.Focusable {
			h.s.Show(hint.PageModel, "")
			test.Tap(h.s.model.provider)
			// The select's menu opened: a click away closes it, as in the window.
			for h.win.Canvas().Overlays().Top() != nil {
				h.win.Canvas().Overlays().Top().Hide()
				h.win.Canvas().Overlays().Remove(h.win.Canvas().Overlays().Top())
			}
			return h.s.model.provider
		}},
		{"a button reached with Tab", func(h *harness) fyne.Focusable {
			h.s.Show(hint.PageCapability, "mcp-servers")
			h.s.tabs.Select(h.s.tabOf[pageMCP])
			h.win.Canvas().Focus(h.s.mcp.addShow)
			return h.s.mcp.addShow
		}},
		{"the capability list, reached with Tab", func(h *harness) fyne.Focusable {
			h.s.Show(hint.PageCapabilities, "")
			h.win.Canvas().Focus(h.s.caps.list)
			return h.s.caps.list
		}},
		{"the folder list", func(h *harness) fyne.Focusable {
			h.s.Show(hint.PageFolders, "")
			h.win.Canvas().Focus(h.s.folders.list)
			return h.s.folders.list
		}},
		{"the model's name", func(h *harness) fyne.Focusable {
			h.s.Show(hint.PageModel, "")
			h.win.Canvas().Focus(h.s.model.model)
			return h.s.model.model
		}},
		{"a price on the usage page", func(h *harness) fyne.Focusable {
			h.s.tabs.Select(h.s.tabs.Items[len(h.s.tabs.Items)-1])
			e := h.s.usage.rows[0].input
			h.win.Canvas().Focus(e)
			return e
		}},
		{"the instructions editor", func(h *harness) fyne.Focusable {
			h.s.Show(PageInstructions, "")
			h.win.Canvas().Focus(h.s.instr.editor)
			return h.s.instr.editor
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil)
			escaped := 0
			h.win.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
				if ev.Name == fyne.KeyEscape {
					escaped++
				}
			})
			w := tt.click(h)
			if got := h.win.Canvas().Focused(); got != w {
				t.Fatalf("the click left the focus on %T, want the control clicked", got)
			}
			press(h.win.Canvas(), fyne.KeyEscape)
			if escaped != 1 {
				t.Errorf("Esc reached the window %d times, want 1", escaped)
			}
			press(h.win.Canvas(), fyne.KeyDown)
			if escaped != 1 {
				t.Errorf("another key reached the window's Esc handler")
			}
		})
	}
}
