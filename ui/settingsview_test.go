package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/bridge"
	"github.com/wrasse-app/wrasse/ui/settings"
)

// Opening the settings, on any page, never grows the window: the real
// driver resizes a window whose content's minimum size rose above its size
// (at 400×300, Ctrl+, made it 731×516). The settings scroll inside
// whatever room they get instead, so the content's minimum stays what the
// chat needs.
func TestOpeningSettingsKeepsTheWindowSize(t *testing.T) {
	core := openCore(t)
	if _, err := core.UpdateConfig(func(c *workspace.Config) error { c.Model = "llama3.1:8b"; return nil }); err != nil {
		t.Fatal(err)
	}
	a := test.NewTempApp(t)
	w := test.NewTempWindow(t, nil)
	env := &bridge.Env{App: a, Window: w, Core: core, Do: func(f func()) { f() }, Go: func(f func()) { f() }, Copy: func(string) {}}
	s := Build(env)
	defer s.Close()
	small := fyne.NewSize(400, 300)
	w.Resize(small)
	chatMin := s.content.MinSize()

	pages := []struct {
		page   hint.Page
		target string
	}{
		{hint.PageModel, ""}, {hint.PageCapabilities, ""}, {hint.PageFolders, ""},
		{hint.PageCapability, "shell"}, {hint.PageCapability, "web"}, {hint.PageCapability, "mcp-servers"},
		{hint.PageCapability, "tasks"}, {settings.PageInstructions, ""},
	}
	for _, p := range pages {
		env.Navigate(p.page, p.target)
		if !s.Showing() {
			t.Fatalf("%s %s: the settings do not show", p.page, p.target)
		}
		// What the driver would do: grow the window to the content's
		// minimum when that minimum changed.
		if got := s.content.MinSize(); got != chatMin {
			t.Errorf("%s %s: the content's minimum size went from %v to %v: the window would grow to %v",
				p.page, p.target, chatMin, got, small.Max(got))
		}
		if got := w.Canvas().Size(); got != small {
			t.Errorf("%s %s: the window is %v, want %v", p.page, p.target, got, small)
		}
	}
}

// Esc goes back to the chat from the settings when a control there has
// the focus (a capability's switch after a click), not only when nothing
// has: the window's handler sees it through the control.
func TestEscapeFromAFocusedSettingsControl(t *testing.T) {
	core := openCore(t)
	if _, err := core.UpdateConfig(func(c *workspace.Config) error { c.Model = "llama3.1:8b"; return nil }); err != nil {
		t.Fatal(err)
	}
	a := test.NewTempApp(t)
	w := test.NewTempWindow(t, nil)
	env := &bridge.Env{App: a, Window: w, Core: core, Do: func(f func()) { f() }, Go: func(f func()) { f() }, Copy: func(string) {}}
	s := Build(env)
	defer s.Close()
	w.Resize(fyne.NewSize(defaultWidth, defaultHeight))
	env.Navigate(hint.PageCapabilities, "")

	// The first switch in the capability list.
	type toggle interface {
		fyne.Focusable
		SetChecked(bool)
	}
	var sw toggle
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if sw != nil || o == nil || !o.Visible() {
			return
		}
		if c, ok := o.(toggle); ok {
			sw = c
			return
		}
		switch v := o.(type) {
		case *fyne.Container:
			for _, c := range v.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.TempWidgetRenderer(t, v).Objects() {
				walk(c)
			}
		}
	}
	walk(s.settingsObj)
	if sw == nil {
		t.Fatal("no switch on the Capabilities page")
	}
	w.Canvas().Focus(sw)
	if w.Canvas().Focused() != sw {
		t.Fatal("the switch did not take the focus")
	}
	// As the driver delivers it: to the focused widget.
	w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if s.Showing() {
		t.Error("Esc on a focused switch left the settings showing")
	}
}
