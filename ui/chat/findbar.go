package chat

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// findBar finds text in the conversation shown (Ctrl/Cmd+F): it counts
// the messages and cards that contain it, and Next and Previous scroll to
// each one and highlight it. Enter goes to the next, Esc closes.
type findBar struct {
	c       *Chat
	entry   *findEntry
	count   *widget.Label
	object  *fyne.Container
	matches []int
	at      int
}

func newFindBar(c *Chat) *findBar {
	f := &findBar{c: c}
	f.entry = &findEntry{}
	f.entry.ExtendBaseWidget(f.entry)
	f.entry.SetPlaceHolder("Find in this conversation")
	f.entry.OnChanged = func(string) { f.search() }
	f.entry.onEnter = f.next
	f.entry.onEscape = f.close
	f.count = widget.NewLabel("")
	prev := widget.NewButtonWithIcon("", theme.MoveUpIcon(), f.prev)
	next := widget.NewButtonWithIcon("", theme.MoveDownIcon(), f.next)
	closeBtn := widget.NewButtonWithIcon("", theme.CancelIcon(), f.close)
	f.object = container.NewBorder(nil, nil, widget.NewIcon(theme.SearchIcon()),
		container.NewHBox(f.count, prev, next, closeBtn), f.entry)
	f.object.Hide()
	return f
}

func (f *findBar) show() {
	f.object.Show()
	if f.c.env.Window != nil {
		f.c.env.Window.Canvas().Focus(f.entry)
	}
	f.search()
}

// showQuery opens the bar looking for q (a sidebar search hit).
func (f *findBar) showQuery(q string) {
	f.entry.SetText(q) // searches
	f.show()
}

func (f *findBar) close() {
	f.object.Hide()
	f.matches = nil
	f.c.list.clearHighlight()
	f.c.FocusComposer()
}

// reset forgets matches (another conversation, or it changed).
func (f *findBar) reset() {
	f.matches = nil
	f.count.SetText("")
	f.c.list.clearHighlight()
}

// search finds the rows containing the query, case-insensitively, and
// goes to the last one (the newest, nearest the end where the view is).
func (f *findBar) search() {
	q := strings.ToLower(strings.TrimSpace(f.entry.Text))
	f.matches = nil
	if q == "" || !f.object.Visible() {
		f.count.SetText("")
		f.c.list.clearHighlight()
		return
	}
	for i := range f.c.rowCount() {
		if strings.Contains(strings.ToLower(f.c.rowAt(i).plain()), q) {
			f.matches = append(f.matches, i)
		}
	}
	if len(f.matches) == 0 {
		f.count.SetText("no matches")
		f.c.list.clearHighlight()
		return
	}
	f.at = len(f.matches) - 1
	f.goTo()
}

func (f *findBar) next() {
	if len(f.matches) == 0 {
		return
	}
	f.at = (f.at + 1) % len(f.matches)
	f.goTo()
}

func (f *findBar) prev() {
	if len(f.matches) == 0 {
		return
	}
	f.at = (f.at - 1 + len(f.matches)) % len(f.matches)
	f.goTo()
}

func (f *findBar) goTo() {
	f.count.SetText(fmt.Sprintf("%d of %d", f.at+1, len(f.matches)))
	f.c.list.show(f.matches[f.at])
}

// findEntry is the find bar's entry: Enter finds the next, Esc closes.
type findEntry struct {
	widget.Entry
	onEnter, onEscape func()
}

func (e *findEntry) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		e.onEnter()
	case fyne.KeyEscape:
		e.onEscape()
	default:
		e.Entry.TypedKey(k)
	}
}
