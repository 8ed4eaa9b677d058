package settings

import (
	"path/filepath"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// foldersPage lists the folders the assistant may work in (config.json
// folders, or the home folder when none is set) with Add and Remove.
type foldersPage struct {
	env *bridge.Env

	// folders are as config.json has them; isDefault when it has none and
	// the home folder applies.
	folders   []string
	isDefault bool

	about   *widget.Label
	list    *widget.List
	outcome *problemLine
	obj     fyne.CanvasObject
}

func newFoldersPage(env *bridge.Env) *foldersPage {
	p := &foldersPage{env: env}
	p.about = widget.NewLabel("")
	p.about.Wrapping = fyne.TextWrapWord
	p.outcome = newProblemLine(env.Show)
	p.list = widget.NewList(
		func() int { return len(p.folders) },
		func() fyne.CanvasObject {
			rm := widget.NewButtonWithIcon("Remove", theme.ContentRemoveIcon(), nil)
			return container.NewBorder(nil, nil, widget.NewIcon(theme.FolderIcon()), rm, widget.NewLabel(""))
		},
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id >= len(p.folders) {
				return
			}
			f := p.folders[id]
			c := o.(*fyne.Container)
			label := c.Objects[0].(*widget.Label)
			rm := c.Objects[2].(*widget.Button)
			if p.isDefault {
				label.SetText(f + "  (default: your home folder)")
				rm.Hide()
				return
			}
			label.SetText(f)
			rm.Show()
			rm.OnTapped = func() { p.Remove(f) }
		})
	add := widget.NewButtonWithIcon("Add folder…", theme.ContentAddIcon(), func() {
		dialog.NewFolderOpen(p.FolderPicked, env.Window).Show()
	})
	add.Importance = widget.HighImportance
	head := container.NewVBox(p.about, container.NewHBox(add), p.outcome.Object())
	p.obj = container.NewBorder(container.NewPadded(head), nil, nil, nil, p.list)
	p.Refresh()
	return p
}

func (p *foldersPage) Object() fyne.CanvasObject { return p.obj }

// Refresh re-reads the folders from the core.
func (p *foldersPage) Refresh() {
	p.folders = slices.Clone(p.env.Core.Config().Folders)
	p.isDefault = len(p.folders) == 0
	if p.isDefault {
		p.folders = p.env.Core.Folders()
		p.about.SetText("The assistant's file and shell tools may work in these folders. None is set, so your home folder applies. Adding a folder replaces that default: the assistant then works only in the folders you add (add your home folder too to keep it).")
	} else {
		p.about.SetText("The assistant's file and shell tools may work in these folders and nowhere else. Removing the last one goes back to your home folder.")
	}
	p.list.Refresh()
}

// Folders are the folders listed and whether that is the default.
func (p *foldersPage) Folders() ([]string, bool) { return slices.Clone(p.folders), p.isDefault }

// FolderPicked is the folder picker's callback.
func (p *foldersPage) FolderPicked(l fyne.ListableURI, err error) {
	if err != nil {
		p.outcome.Error(err)
		return
	}
	if l == nil || l.Scheme() != "file" {
		return
	}
	p.Add(l.Path())
}

// Add saves path as one more allowed folder. The first folder added
// replaces the home-folder default, as the page says: the list is then
// exactly what the user added.
func (p *foldersPage) Add(path string) {
	path = filepath.Clean(path)
	done := "Added " + path + "."
	if p.isDefault {
		done += " Your home folder is no longer allowed unless you add it too."
	}
	p.save(func(c *workspace.Config) {
		if !slices.Contains(c.Folders, path) {
			c.Folders = append(c.Folders, path)
		}
	}, done)
}

// Remove saves the list without path.
func (p *foldersPage) Remove(path string) {
	p.save(func(c *workspace.Config) {
		c.Folders = slices.DeleteFunc(c.Folders, func(f string) bool { return f == path })
	}, "Removed "+path+".")
}

func (p *foldersPage) save(edit func(*workspace.Config), done string) {
	p.env.Go(func() {
		_, err := p.env.Core.UpdateConfig(func(c *workspace.Config) error { edit(c); return nil })
		p.env.Do(func() {
			if err != nil {
				p.outcome.Error(err)
			} else {
				p.outcome.OK(done)
			}
			p.Refresh()
		})
	})
}
