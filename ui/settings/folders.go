package settings

import (
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/ui/bridge"
)

// foldersPage lists the folders the assistant may work in (config.json
// folders; none until the person picks some) with Remove, the common
// folders not granted yet as one-click choices, and Add folder… for any
// other. Adding the whole home folder is allowed, with a warning.
type foldersPage struct {
	env *bridge.Env

	// folders are the granted folders, absolute.
	folders []string

	about   *widget.Label
	common  *fyne.Container // a button per suggested folder
	list    *escList
	outcome *problemLine
	obj     fyne.CanvasObject
}

func newFoldersPage(env *bridge.Env) *foldersPage {
	p := &foldersPage{env: env}
	p.about = widget.NewLabel("")
	p.about.Wrapping = fyne.TextWrapWord
	p.outcome = newProblemLine(env.Show)
	p.common = container.NewHBox()
	p.list = newList(
		func() int { return len(p.folders) },
		func() fyne.CanvasObject {
			rm := newButtonWithIcon("Remove", theme.ContentRemoveIcon(), nil)
			return container.NewBorder(nil, nil, widget.NewIcon(theme.FolderIcon()), rm, widget.NewLabel(""))
		},
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id >= len(p.folders) {
				return
			}
			f := p.folders[id]
			c := o.(*fyne.Container)
			label := c.Objects[0].(*widget.Label)
			rm := c.Objects[2].(*escButton)
			text := f
			if f == p.env.Core.HomeFolder() {
				text += "  (your whole home folder)"
			}
			label.SetText(text)
			rm.OnTapped = func() { p.Remove(f) }
		})
	add := newButtonWithIcon("Add folder…", theme.ContentAddIcon(), func() {
		dialog.NewFolderOpen(p.FolderPicked, env.Window).Show()
	})
	add.Importance = widget.HighImportance
	head := container.NewVBox(p.about, container.NewHBox(add), p.common, p.outcome.Object())
	p.obj = container.NewBorder(container.NewPadded(head), nil, nil, nil, p.list)
	p.Refresh()
	return p
}

func (p *foldersPage) Object() fyne.CanvasObject { return p.obj }

// Refresh re-reads the folders from the core.
func (p *foldersPage) Refresh() {
	p.folders = p.env.Core.Folders()
	if len(p.folders) == 0 {
		p.about.SetText("No folder is granted: the assistant's file and shell tools can use none of your files. " +
			"Pick the folders it may work in; it never reaches more than you grant here.")
	} else {
		p.about.SetText("The assistant's file and shell tools may work in these folders and nowhere else.")
	}
	p.common.Objects = nil
	if s := p.env.Core.SuggestedFolders(); len(s) > 0 {
		p.common.Add(widget.NewLabel("Common folders:"))
		for _, f := range s {
			b := newButtonWithIcon(p.short(f), theme.ContentAddIcon(), func() { p.Add(f) })
			p.common.Add(b)
		}
	}
	p.common.Refresh()
	p.list.Refresh()
}

// short names a folder for a button: ~/Documents for one in the home folder.
func (p *foldersPage) short(f string) string {
	home := p.env.Core.HomeFolder()
	if rel, err := filepath.Rel(home, f); err == nil && !strings.HasPrefix(rel, "..") && rel != "." {
		return "~" + string(filepath.Separator) + rel
	}
	return f
}

// Folders are the folders listed.
func (p *foldersPage) Folders() []string { return slices.Clone(p.folders) }

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

// Add grants path too: the granted folders stay. The whole home folder is
// granted only when asked for by hand, and the outcome warns about it.
func (p *foldersPage) Add(path string) {
	path = filepath.Clean(path)
	home := p.env.Core.HomeFolder()
	p.env.Go(func() {
		added, err := p.env.Core.GrantFolders(path)
		p.env.Do(func() {
			switch {
			case err != nil:
				p.outcome.Error(err)
			case len(added) == 0:
				p.outcome.Info(path + " is granted already.")
			case path == home:
				p.outcome.set(widget.WarningImportance, "Added your whole home folder ("+path+"): the assistant may now read and change "+
					"anything in it. Granting the folders you work in (Documents, a projects folder) is safer.")
			default:
				p.outcome.OK("Added " + path + ".")
			}
			p.Refresh()
		})
	})
}

// Remove stops granting path.
func (p *foldersPage) Remove(path string) {
	p.env.Go(func() {
		err := p.env.Core.RevokeFolder(path)
		p.env.Do(func() {
			if err != nil {
				p.outcome.Error(err)
			} else if len(p.env.Core.Folders()) == 0 {
				p.outcome.OK("Removed " + path + ". No folder is granted now.")
			} else {
				p.outcome.OK("Removed " + path + ".")
			}
			p.Refresh()
		})
	})
}
