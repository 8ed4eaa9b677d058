package chat

import (
	"context"
	"fmt"
	"github.com/wrasse-app/wrasse/ui/tip"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/ui/confirm"
)

// searchLimit bounds the sidebar's search hits.
const searchLimit = 50

// sidebar lists conversations, pinned ones first and the rest by date
// (sidebargroups.go), with New, a menu to pin, rename and archive, delete
// (confirmed), and a search by title and content. Tapping one opens it.
// Archived conversations are listed apart, behind the Archived button.
type sidebar struct {
	c     *Chat
	convs []store.Conversation
	// items are convs as rows: section titles, scheduled runs under
	// their task (taskgroups.go); runs are the task runs they were
	// arranged with.
	items []sidebarItem
	runs  map[store.ID]assistant.TaskRunRef
	hits  []store.Hit
	query string
	gen   int // numbers searches, so a stale answer is dropped
	// searched: the search for query has answered (hits are its).
	searched bool
	// archived: the list shows the archived conversations alone;
	// nArchived counts them.
	archived  bool
	nArchived int
	// arrangedOn is the day of the year the sections were last
	// arranged on: the minute tick arranges them again on a new one.
	arrangedOn int
	list       *widget.List
	search     *widget.Entry
	// empty says why the list shows nothing ("No conversations match").
	empty       *widget.Label
	archivedBtn *widget.Button
	// rowH and sectionH are the heights of a conversation's row and a
	// section's title.
	rowH, sectionH float32
	// rowMin is a row's measured size, which every row of the list
	// reports (sidebarRow).
	rowMin fyne.Size
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
	// section: a section's title ("Today"), not a conversation.
	section          bool
	pinned, archived bool
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
		if e.section {
			s.selectID(c.cur.id)
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
	s.empty = widget.NewLabel("")
	s.empty.Alignment = fyne.TextAlignCenter
	s.empty.Wrapping = fyne.TextWrapWord
	s.empty.Importance = widget.LowImportance
	s.empty.Hide()
	s.archivedBtn = widget.NewButtonWithIcon("", theme.FolderIcon(), s.toggleArchived)
	s.archivedBtn.Importance = widget.LowImportance
	s.archivedBtn.Alignment = widget.ButtonAlignLeading
	s.archivedBtn.Hide()
	s.object = container.New(minWidth(sidebarMinWidth),
		container.NewBorder(container.NewVBox(newBtn, s.search), s.archivedBtn, nil, nil,
			container.NewStack(s.list, container.NewVBox(s.empty))))
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
	if it.section != "" {
		return sidebarEntry{title: it.section, section: true}, true
	}
	if it.heading {
		return headingEntry(it), true
	}
	cv := it.conv
	pend := len(s.c.approvals.For(cv.ID.String())) > 0
	detail := ago(s.c.clock.Now(), cv.Updated)
	if pend {
		detail = "waiting for your approval"
	}
	return sidebarEntry{id: cv.ID, title: runTitle(it, titleOf(cv.Title)), detail: detail, pending: pend,
		pinned: cv.Pinned, archived: cv.Archived}, true
}

func titleOf(t string) string {
	if t == "" {
		return "New conversation"
	}
	return t
}

// sidebarRow is one row of the sidebar's list. Its content is made with
// it, but its size is the one measured once for the sidebar: Fyne's list
// makes a throwaway row at every full refresh (each turn's end reloads the
// sidebar) only to ask its size, and measuring the real content would
// make the renderers of its labels and buttons (each button parsing its
// SVG icon), which Fyne's renderer cache then keeps for a minute.
type sidebarRow struct {
	widget.BaseWidget
	stack *fyne.Container
	// min is the sidebar's measured row size, zero until measured.
	min *fyne.Size
}

func (r *sidebarRow) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(r.stack)
}

func (r *sidebarRow) MinSize() fyne.Size {
	if r.min != nil && !r.min.IsZero() {
		return *r.min
	}
	return r.BaseWidget.MinSize()
}

func (s *sidebar) createRow() fyne.CanvasObject {
	r := &sidebarRow{stack: s.rowContent(), min: &s.rowMin}
	r.ExtendBaseWidget(r)
	return r
}

// rowContent is a row's widgets: a conversation's title, detail and
// buttons, and a section's title, one of the two shown.
func (s *sidebar) rowContent() *fyne.Container {
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
	more := tip.NewButton("", theme.MoreVerticalIcon(), "Pin, rename or archive", nil)
	del := tip.NewButton("", theme.DeleteIcon(), "Delete this conversation", nil)
	texts := container.New(layout.NewCustomPaddedVBoxLayout(-theme.Padding()*2), title, detail)
	conv := container.NewBorder(nil, nil, nil, container.NewVBox(container.NewHBox(more, del)), texts)
	// A section's title: small and quiet, like a list's group heading.
	section := widget.NewLabel("")
	section.SizeName = theme.SizeNameCaptionText
	section.Importance = widget.MediumImportance
	section.TextStyle.Bold = true
	section.Hide()
	return container.NewStack(conv, section)
}

func (s *sidebar) updateRow(i widget.ListItemID, o fyne.CanvasObject) {
	e, ok := s.entry(i)
	if !ok {
		return
	}
	stack := o.(*sidebarRow).stack
	row, section := stack.Objects[0].(*fyne.Container), stack.Objects[1].(*widget.Label)
	if e.section {
		row.Hide()
		section.SetText(e.title)
		section.Show()
		return
	}
	section.Hide()
	row.Show()
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
	more := buttons.Objects[0].(*tip.Button)
	more.OnTapped = func() { s.showMenu(e, more) }
	buttons.Objects[1].(*tip.Button).OnTapped = func() { s.confirmDelete(id) }
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
	s.runs = s.runRefs()
	s.rearrange()
}

// rearrange lays the conversations read last out again (sections move
// on at midnight) and shows them.
func (s *sidebar) rearrange() {
	now := s.c.clock.Now()
	s.arrangedOn = now.YearDay()
	s.items, s.nArchived = arrange(s.convs, s.runs, now, s.archived)
	if s.archived && s.nArchived == 0 {
		s.archived = false // the last one was unarchived or deleted
		s.items, s.nArchived = arrange(s.convs, s.runs, now, false)
	}
	s.shown()
	s.selectID(s.c.cur.id)
}

// shown brings the list's row heights, its empty note and the Archived
// button up to date with what it lists.
func (s *sidebar) shown() {
	if s.rowH == 0 {
		stack := s.rowContent()
		s.rowMin = stack.MinSize()
		s.rowH, s.sectionH = stack.Objects[0].MinSize().Height, stack.Objects[1].MinSize().Height
	}
	for i := range s.length() {
		h := s.rowH
		if s.query == "" && s.items[i].section != "" {
			h = s.sectionH
		}
		s.list.SetItemHeight(i, h)
	}
	s.list.Refresh()
	note := ""
	switch {
	case s.query != "" && s.searched && len(s.hits) == 0:
		note = "No conversations match “" + s.query + "”."
	case s.query == "" && len(s.items) == 0 && s.nArchived > 0:
		note = "Every conversation is archived: Archived below lists them."
	}
	s.empty.SetText(note)
	s.empty.Hidden = note == ""
	s.empty.Refresh()
	switch {
	case s.archived:
		s.archivedBtn.SetText("Back to conversations")
		s.archivedBtn.SetIcon(theme.NavigateBackIcon())
		s.archivedBtn.Show()
	case s.nArchived > 0:
		s.archivedBtn.SetText(fmt.Sprintf("Archived (%d)", s.nArchived))
		s.archivedBtn.SetIcon(theme.FolderIcon())
		s.archivedBtn.Show()
	default:
		s.archivedBtn.Hide()
	}
}

// textSizeChanged measures the rows again at the new text size: rows of
// the old height would clip their title and detail.
func (s *sidebar) textSizeChanged() {
	s.rowH, s.sectionH, s.rowMin = 0, 0, fyne.Size{}
	s.shown()
}

// toggleArchived switches between the conversations and the archived
// ones.
func (s *sidebar) toggleArchived() {
	s.archived = !s.archived
	s.list.UnselectAll()
	s.rearrange()
	s.list.ScrollToTop()
}

func (s *sidebar) refresh() { s.list.Refresh() }

// tick moves the relative times and the date sections on: the list
// redraws only the rows it shows. Search hits show snippets, not times.
func (s *sidebar) tick() {
	if s.query != "" || len(s.convs) == 0 {
		return
	}
	if s.c.clock.Now().YearDay() != s.arrangedOn {
		s.rearrange() // a new day: the sections move on
		return
	}
	s.list.Refresh()
}

// setQuery switches between the list and search hits.
func (s *sidebar) setQuery(q string) {
	s.query = strings.TrimSpace(q)
	if s.query == "" || len(store.Terms(s.query)) == 0 {
		s.query = ""
		s.hits, s.searched = nil, false
		s.reload()
		return
	}
	s.searched = false
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
			s.hits, s.searched = hits, true
			s.list.UnselectAll()
			s.shown()
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
	q := confirm.New("Delete conversation?", msg, "Delete", "Cancel", func(ok bool) {
		if ok {
			s.delete(id)
		}
	}, s.c.env.Window)
	q.SetConfirmImportance(widget.DangerImportance)
	q.Show()
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
				s.c.find.closeForDeleted()
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
