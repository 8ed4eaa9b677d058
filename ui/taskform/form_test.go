package taskform

import (
	"context"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// Esc closes the task form as Cancel does, from whichever field has the
// keyboard (a focused entry took Esc, so the form stayed), and saves
// nothing; other keys stay with the field.
func TestEscapeClosesTheForm(t *testing.T) {
	app := test.NewTempApp(t)
	core, err := assistant.Open(assistant.Options{Workspace: t.TempDir(), LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(900, 700))
	env := &bridge.Env{App: app, Window: w, Core: core, Do: func(fn func()) { fn() }, Go: func(fn func()) { fn() }}
	for _, field := range []string{"name", "prompt", "schedule"} {
		t.Run(field, func(t *testing.T) {
			saved := 0
			f := Show(env, "New scheduled task", "Add", assistant.TaskSpec{Enabled: true},
				func(context.Context, assistant.TaskSpec) error { saved++; return nil }, nil)
			if w.Canvas().Focused() != f.Name {
				t.Fatalf("the focus is on %T when the form opens, want its name", w.Canvas().Focused())
			}
			e := map[string]*Entry{"name": f.Name, "prompt": f.Prompt, "schedule": f.Schedule}[field]
			w.Canvas().Focus(e)
			test.Type(e, "x")
			w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyLeft})
			if e.Text != "x" || w.Canvas().Overlays().Top() == nil {
				t.Fatalf("typing in the %s: text %q, form shown %v", field, e.Text, w.Canvas().Overlays().Top() != nil)
			}
			w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
			if top := w.Canvas().Overlays().Top(); top != nil {
				t.Errorf("Esc in the %s left the form open", field)
				top.Hide()
			}
			if saved != 0 {
				t.Errorf("Esc saved the task")
			}
		})
	}
}
