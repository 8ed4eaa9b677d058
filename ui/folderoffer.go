package ui

import (
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// folderOffer is the first-run folder offer: while no folder is granted
// (a new workspace grants none), a bar above the chat and the settings
// says so and offers the common folders that exist, one click each,
// "Other folder…" (the Folders page) and "Not now", which hides it until
// the window opens again. It never offers the whole home folder.
type folderOffer struct {
	env *bridge.Env
	// upgraded: the workspace has conversations, so it dates from when
	// the home folder was granted by default; the bar says what changed.
	upgraded  bool
	dismissed bool

	text    *widget.Label
	buttons *fyne.Container
	obj     *fyne.Container
}

func newFolderOffer(env *bridge.Env) *folderOffer {
	o := &folderOffer{env: env}
	o.text = widget.NewLabel("")
	o.text.Wrapping = fyne.TextWrapWord
	o.text.Importance = widget.WarningImportance
	o.buttons = container.NewHBox()
	o.obj = container.NewVBox(container.NewPadded(container.NewVBox(o.text, o.buttons)), widget.NewSeparator())
	if env.Core != nil {
		if convs, err := env.Core.History().ListConversations(); err == nil {
			o.upgraded = len(convs) > 0
		}
	}
	o.Refresh()
	return o
}

// Object is the bar (hidden when nothing is offered).
func (o *folderOffer) Object() fyne.CanvasObject { return o.obj }

// Showing reports whether the bar is shown.
func (o *folderOffer) Showing() bool { return o.obj.Visible() }

// Refresh shows the bar while no folder is granted and it was not
// dismissed, with a button per common folder not granted yet. Call on
// the UI goroutine.
func (o *folderOffer) Refresh() {
	if o.env.Core == nil || o.dismissed || len(o.env.Core.Folders()) > 0 {
		o.obj.Hide()
		return
	}
	if o.upgraded {
		o.text.SetText("Wrasse no longer lets the assistant use your whole home folder by default. " +
			"Pick the folders its file and shell tools may work in:")
	} else {
		o.text.SetText("The assistant's file and shell tools may not use any of your folders yet. Pick the ones they may work in:")
	}
	o.buttons.Objects = nil
	home := o.env.Core.HomeFolder()
	for _, f := range o.env.Core.SuggestedFolders() {
		label := f
		if rel, err := filepath.Rel(home, f); err == nil && !strings.HasPrefix(rel, "..") {
			label = "~" + string(filepath.Separator) + rel
		}
		b := widget.NewButtonWithIcon(label, theme.FolderIcon(), func() { o.grant(f) })
		b.Importance = widget.HighImportance
		o.buttons.Add(b)
	}
	o.buttons.Add(widget.NewButton("Other folder…", func() {
		if o.env.Navigate != nil {
			o.env.Navigate(hint.PageFolders, "")
		}
	}))
	o.buttons.Add(widget.NewButton("Not now", func() {
		o.dismissed = true
		o.Refresh()
	}))
	o.buttons.Refresh()
	o.obj.Show()
	o.obj.Refresh()
}

// grant adds folder to the granted ones (off the UI goroutine: it writes
// config.json); the config event that follows hides the bar.
func (o *folderOffer) grant(folder string) {
	o.env.Go(func() {
		_, err := o.env.Core.GrantFolders(folder)
		o.env.Do(func() {
			if err != nil {
				o.text.SetText(err.Error())
				o.text.Importance = widget.DangerImportance
				o.text.Refresh()
				return
			}
			o.Refresh()
		})
	})
}
