package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/store"
)

// A conversation's menu in the sidebar (its ⋮ button): pin, rename,
// archive. Pin and archive go through the core, which publishes the
// change; the sidebar follows it like any other.

// menuItems are e's menu entries.
func (s *sidebar) menuItems(e sidebarEntry) []*fyne.MenuItem {
	id := e.id
	pin := fyne.NewMenuItem("Pin to top", func() { s.pin(id, true) })
	pin.Icon = theme.UploadIcon()
	if e.pinned {
		pin = fyne.NewMenuItem("Unpin", func() { s.pin(id, false) })
		pin.Icon = theme.DownloadIcon()
	}
	rename := fyne.NewMenuItem("Rename…", func() { s.rename(id) })
	rename.Icon = theme.DocumentCreateIcon()
	archive := fyne.NewMenuItem("Archive", func() { s.archive(id, true) })
	archive.Icon = theme.FolderIcon()
	if e.archived {
		archive = fyne.NewMenuItem("Unarchive", func() { s.archive(id, false) })
		archive.Icon = theme.FolderOpenIcon()
	}
	items := []*fyne.MenuItem{rename, archive}
	if !e.archived {
		items = append([]*fyne.MenuItem{pin}, items...)
	}
	return items
}

// showMenu opens e's menu under its button.
func (s *sidebar) showMenu(e sidebarEntry, b fyne.CanvasObject) {
	if s.c.env.Window == nil || e.section || e.heading {
		return
	}
	c := s.c.env.Window.Canvas()
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(b)
	widget.ShowPopUpMenuAtPosition(fyne.NewMenu("", s.menuItems(e)...), c, pos.AddXY(0, b.Size().Height))
}

func (s *sidebar) pin(id store.ID, pinned bool) {
	if err := s.c.core.PinConversation(id, pinned); err != nil {
		s.showError(err)
	}
}

func (s *sidebar) archive(id store.ID, archived bool) {
	if err := s.c.core.ArchiveConversation(id, archived); err != nil {
		s.showError(err)
	}
}

func (s *sidebar) showError(err error) {
	s.c.core.Logger().Warn("organising conversations", "error", err)
	if s.c.env.Window != nil {
		dialog.ShowError(err, s.c.env.Window)
	}
}
