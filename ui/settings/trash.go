package settings

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/cerebellum/manage"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// trashView lists removed capabilities, newest first, each restorable
// until its 7 days are up.
type trashView struct {
	env     *bridge.Env
	restore func(name string)
	items   []manage.Trashed
	list    *escList
	note    *widget.Label
	obj     fyne.CanvasObject
}

func newTrashView(env *bridge.Env, restore func(string)) *trashView {
	t := &trashView{env: env, restore: restore}
	t.note = widget.NewLabel("")
	t.note.Wrapping = fyne.TextWrapWord
	t.list = newList(
		func() int { return len(t.items) },
		func() fyne.CanvasObject {
			name := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
			when := widget.NewLabel("")
			btn := newButtonWithIcon("Restore", theme.ContentUndoIcon(), nil)
			return container.NewBorder(nil, nil, nil, btn, container.NewHBox(name, when))
		},
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id >= len(t.items) {
				return
			}
			it := t.items[id]
			c := o.(*fyne.Container)
			texts := c.Objects[0].(*fyne.Container)
			texts.Objects[0].(*widget.Label).SetText(it.Name)
			texts.Objects[1].(*widget.Label).SetText(trashWhen(it.RemovedAt))
			c.Objects[1].(*escButton).OnTapped = func() { t.restore(it.Name) }
		})
	t.obj = container.NewBorder(t.note, nil, nil, nil, t.list)
	return t
}

func (t *trashView) Object() fyne.CanvasObject { return t.obj }

// Load reads the Trash (a folder listing) in the background.
func (t *trashView) Load() {
	t.env.Go(func() {
		items, err := t.env.Core.Trash()
		t.env.Do(func() {
			t.items = items
			switch {
			case err != nil:
				t.note.SetText("Cannot read the Trash: " + err.Error())
			case len(items) == 0:
				t.note.SetText("The Trash is empty. Removed capabilities stay here for 7 days.")
			default:
				t.note.SetText(fmt.Sprintf("%s, restorable for 7 days after removal.", plural(len(items), "removed capability", "removed capabilities")))
			}
			t.list.Refresh()
		})
	})
}

// Names lists what the Trash holds, as last loaded.
func (t *trashView) Names() []string {
	out := make([]string, len(t.items))
	for i, it := range t.items {
		out[i] = it.Name
	}
	return out
}

func trashWhen(removed time.Time) string {
	until := removed.Add(manage.TrashRetention)
	return "removed " + removed.Local().Format("2 Jan 15:04") + ", restorable until " + until.Local().Format("2 Jan 15:04")
}
