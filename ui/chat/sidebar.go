package chat

import (
	"context"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/store"
)

// searchLimit bounds the sidebar's search hits.
const searchLimit = 50

// sidebar lists conversations newest first, with New, rename and delete
// (confirmed), and a search by title and content. Tapping one opens it.
type sidebar struct {
	c      *Chat
	convs  []store.Conversation
	items  []sidebarItem // convs, scheduled runs under their task (taskgroups.go)
	hits   []store.Hit
	query  string
	gen    int // numbers searches, so a stale answer is dropped
	list   *widget.List
	search *widget.Entry
	object fyne.CanvasObject
	// selecting is set while the list's selection follows Open, so
	// OnSelected does not open it again.
	selecting bool
}

// sidebarEntry is one row of the sidebar: a conversation or a hit.
type sidebarEntry struct {
	id      store.ID
	title   string
	detail  string
	pending bool
	// heading: a scheduled task's heading; a tap opens its newest run.
	heading bool
	open    store.ID
}

func newSidebar(c *Chat) *sidebar {
	s := &sidebar{c: c}
	s.search = widget.NewEntry()
	s.search.SetPlaceHolder("Search conversations")
	s.search.OnChanged = func(q string) { s.setQuery(q) }
	s.list = widget.NewList(s.length, s.createRow, s.updateRow)
	s.list.OnSelected = func(i widget.ListItemID) {
		if s.selecting {
			return
		}
		e, ok := s.entry(i)
		if !ok {
			return
		}
		if e.heading {
			e.id = e.open
		}
		q := s.query
		c.Open(e.id)
		if q != "" {
			c.find.showQuery(q)
		}
		if c.OnOpen != nil {
			c.OnOpen()
		}
	}
	newBtn := widget.NewButtonWithIcon("New chat", theme.ContentAddIcon(), func() {
		c.NewConversation()
		if c.OnOpen != nil {
			c.OnOpen()
		}
	})
	newBtn.Importance = widget.HighImportance
	s.object = container.New(minWidth(sidebarMinWidth),
		container.NewBorder(container.NewVBox(newBtn, s.search), nil, nil, nil, s.list))
	return s
}

func (s *sidebar) length() int {
	if s.query != "" {
		return len(s.hits)
	}
	return len(s.items)
}

func (s *sidebar) entry(i int) (sidebarEntry, bool) {
	if s.query != "" {
		if i < 0 || i >= len(s.hits) {
			return sidebarEntry{}, false
		}
		h := s.hits[i]
		return sidebarEntry{id: h.Conversation, title: titleOf(h.Title), detail: h.Snippet}, true
	}
	if i < 0 || i >= len(s.items) {
		return sidebarEntry{}, false
	}
	it := s.items[i]
	if it.heading {
		return headingEntry(it), true
	}
	cv := it.conv
	pend := len(s.c.approvals.For(cv.ID.String())) > 0
	detail := ago(s.c.clock.Now(), cv.Updated)
	if pend {
		detail = "waiting for your approval"
	}
	return sidebarEntry{id: cv.ID, title: runTitle(it, titleOf(cv.Title)), detail: detail, pending: pend}, true
}

func titleOf(t string) string {
	if t == "" {
		return "New conversation"
	}
	return t
}

func (s *sidebar) createRow() fyne.CanvasObject {
	title := widget.NewLabel("")
	title.Truncation = fyne.TextTruncateEllipsis
	title.TextStyle.Bold = true
	detail := widget.NewLabel("")
	detail.Truncation = fyne.TextTruncateEllipsis
	// Smaller rather than italic: Fyne parses every font, the 4.2 MB
	// emoji font among them, once per text style it draws, and an idle
	// window would draw italic only here and in the loaded strip (about
	// 9 MB of heap; docs/performance.md, the desktop window).
	detail.SizeName = theme.SizeNameCaptionText
	rename := widget.NewButtonWithIcon("", theme.DocumentCreateIcon(), nil)
	rename.Importance = widget.LowImportance
	del := widget.NewButtonWithIcon("", theme.DeleteIcon(), nil)
	del.Importance = widget.LowImportance
	texts := container.New(layout.NewCustomPaddedVBoxLayout(-theme.Padding()*2), title, detail)
	return container.NewBorder(nil, nil, nil, container.NewVBox(container.NewHBox(rename, del)), texts)
}

func (s *sidebar) updateRow(i widget.ListItemID, o fyne.CanvasObject) {
	e, ok := s.entry(i)
	if !ok {
		return
	}
	row := o.(*fyne.Container)
	texts := row.Objects[0].(*fyne.Container)
	buttons := row.Objects[1].(*fyne.Container).Objects[0].(*fyne.Container)
	title := texts.Objects[0].(*widget.Label)
	detail := texts.Objects[1].(*widget.Label)
	title.SetText(e.title)
	detail.SetText(e.detail)
	if e.pending {
		detail.Importance = widget.WarningImportance
	} else {
		detail.Importance = widget.MediumImportance
	}
	detail.Refresh()
	id := e.id
	for _, b := range buttons.Objects {
		if e.heading {
			b.Hide()
		} else {
			b.Show()
		}
	}
	buttons.Objects[0].(*widget.Button).OnTapped = func() { s.rename(id) }
	buttons.Objects[1].(*widget.Button).OnTapped = func() { s.confirmDelete(id) }
}

// reload reads the conversations again (or runs the search again).
func (s *sidebar) reload() {
	if s.query != "" {
		s.runSearch()
		return
	}
	convs, err := s.c.core.History().ListConversations()
	if err != nil {
		s.c.core.Logger().Warn("listing conversations", "error", err)
		return
	}
	s.convs = convs
	s.items = groupRuns(convs, s.runRefs())
	s.list.Refresh()
	s.selectID(s.c.cur.id)
}

func (s *sidebar) refresh() { s.list.Refresh() }

// tick moves the relative times on: the list redraws only the rows it
// shows. Search hits show snippets, not times.
func (s *sidebar) tick() {
	if s.query == "" && len(s.items) > 0 {
		s.list.Refresh()
	}
}

// setQuery switches between the list and search hits.
func (s *sidebar) setQuery(q string) {
	s.query = strings.TrimSpace(q)
	if s.query == "" || len(store.Terms(s.query)) == 0 {
		s.query = ""
		s.hits = nil
		s.reload()
		return
	}
	s.runSearch()
}

// runSearch searches titles and content in the background.
func (s *sidebar) runSearch() {
	s.gen++
	gen, q := s.gen, s.query
	s.c.env.Go(func() {
		hits, err := s.c.core.History().Search(q, searchLimit)
		s.c.env.Do(func() {
			if gen != s.gen {
				return
			}
			if err != nil {
				s.c.core.Logger().Warn("searching conversations", "error", err)
			}
			s.hits = hits
			s.list.UnselectAll()
			s.list.Refresh()
			s.selectID(s.c.cur.id)
		})
	})
}

// selectID shows id as the selected conversation.
func (s *sidebar) selectID(id store.ID) {
	s.selecting = true
	defer func() { s.selecting = false }()
	for i := range s.length() {
		if e, _ := s.entry(i); e.id == id && id != 0 {
			s.list.Select(i)
			return
		}
	}
	s.list.UnselectAll()
}

func (s *sidebar) titleOfID(id store.ID) string {
	cv, err := s.c.core.History().GetConversation(id)
	if err != nil {
		return ""
	}
	return cv.Title
}

// rename asks for a new title.
func (s *sidebar) rename(id store.ID) {
	if s.c.env.Window == nil {
		return
	}
	e := widget.NewEntry()
	e.SetText(s.titleOfID(id))
	d := dialog.NewForm("Rename conversation", "Rename", "Cancel",
		[]*widget.FormItem{widget.NewFormItem("Title", e)}, func(ok bool) {
			if ok {
				s.setTitle(id, e.Text)
			}
		}, s.c.env.Window)
	e.OnSubmitted = func(string) { d.Submit() } // Enter renames
	d.Resize(fyne.NewSize(renameWidth, d.MinSize().Height))
	d.Show()
	s.c.env.Window.Canvas().Focus(e)
}

// renameWidth is the Rename dialog's width: room for a title.
const renameWidth = 460

func (s *sidebar) setTitle(id store.ID, title string) {
	if err := s.c.core.RenameConversation(id, title); err != nil {
		dialog.ShowError(err, s.c.env.Window)
	}
	s.reload()
}

// confirmDelete asks before deleting a conversation.
func (s *sidebar) confirmDelete(id store.ID) {
	if s.c.env.Window == nil {
		return
	}
	msg := fmt.Sprintf("“%s” and all its messages will be deleted. This cannot be undone.", titleOf(s.titleOfID(id)))
	d := dialog.NewConfirm("Delete conversation?", msg, func(ok bool) {
		if ok {
			s.delete(id)
		}
	}, s.c.env.Window)
	d.SetConfirmText("Delete")
	d.SetConfirmImportance(widget.DangerImportance)
	d.Show()
}

func (s *sidebar) delete(id store.ID) {
	// The core stops a turn running in the conversation and waits for it
	// to end before deleting, off the UI thread: the turn's last updates
	// need the UI thread to land.
	s.c.env.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), deleteWait)
		defer cancel()
		err := s.c.core.DeleteConversation(ctx, id)
		s.c.env.Do(func() {
			if err != nil {
				dialog.ShowError(err, s.c.env.Window)
				return
			}
			delete(s.c.anchors, id)
			if s.c.cur.id == id {
				s.c.cur.id = 0
				s.c.NewConversation()
			}
			s.reload()
		})
	})
}

// deleteWait bounds how long a delete waits for the conversation's turn to
// stop (a tool that ignores cancellation, say) before saying so.
const deleteWait = 30 * time.Second

// ago says how long before now t was, briefly.
func ago(now, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%d h ago", int(d.Hours()))
	case d < 7*24*time.Hour:
		return t.Local().Format("Monday")
	}
	return t.Local().Format("2 Jan 2006")
}
