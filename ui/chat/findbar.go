package chat

import (
	"fmt"
	"github.com/wrasse-app/wrasse/ui/tip"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/ui/markdown"
)

// findBar finds text in the conversation shown (Ctrl/Cmd+F), all of it,
// not only the pages loaded: it counts every occurrence ("3 of 17"), and
// Next and Previous go from one occurrence to the next, scrolling a tall
// message to the one found and marking it apart from the others, loading
// older pages first when the match lies in one. Enter goes to the next,
// Esc closes.
//
// The loaded rows are searched at once; the stored events before them
// are searched in the background (a transcript built from them, so a
// match is a row exactly as it will show), and their matches join in
// front when found.
type findBar struct {
	c        *Chat
	entry    *findEntry
	count    *widget.Label
	closeBtn *tip.Button
	object   *fyne.Container
	matches  []match
	at       int
	// gen moves with every search and reset, so a background search's
	// answer for an older query or another conversation is dropped.
	gen int
	// searching is true while the stored events are being searched.
	searching bool
	// loading is true while the pages up to the current match load.
	loading bool
	// lit is the row showing the current match (of a long message, the
	// row of its piece that holds it), litN the occurrence in its text.
	lit  *row
	litN int
}

// match is one occurrence found: in a row, loaded or not yet.
type match struct {
	key rowKey
	// seq is where the row begins (a tool card: its call), to know which
	// pages to load to show it.
	seq uint64
	// n is which occurrence in the row's text it is (from 0).
	n int
}

// rowMatches are the occurrences of q in r's text.
func rowMatches(r *row, q string) []match {
	var out []match
	for n := range markdown.FindSpans(r.plain(), q) {
		out = append(out, match{key: keyOf(r), seq: r.seq, n: n})
	}
	return out
}

// rowKey names a row across rebuilds of the transcript (loading an older
// page makes its rows anew).
type rowKey struct {
	seq  uint64   // a message or an error
	call string   // a tool card: its call
	p    *pending // an approval card
}

func keyOf(r *row) rowKey {
	switch r.kind {
	case rowTool:
		return rowKey{call: r.tool.id}
	case rowApproval:
		return rowKey{p: r.pending}
	}
	return rowKey{seq: r.seq}
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
	prev := tip.NewButton("", theme.MoveUpIcon(), "Previous match (Shift+Enter)", f.prev)
	next := tip.NewButton("", theme.MoveDownIcon(), "Next match (Enter)", f.next)
	f.closeBtn = tip.NewButton("", theme.CancelIcon(), "Close find (Esc)", f.close)
	f.object = container.NewBorder(nil, nil, widget.NewIcon(theme.SearchIcon()),
		container.NewHBox(f.count, prev, next, f.closeBtn), f.entry)
	f.object.Hide()
	return f
}

func (f *findBar) show() {
	f.object.Show()
	f.c.relayout()
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
	f.c.relayout()
	f.gen++
	f.matches, f.searching, f.loading = nil, false, false
	f.unlight()
	f.c.list.clearHighlight()
	f.c.FocusComposer()
}

// closeForDeleted closes the bar when its conversation was deleted: it
// has nothing left to search.
func (f *findBar) closeForDeleted() {
	if f.object.Visible() {
		f.close()
	}
}

// reset forgets matches (another conversation, or it changed).
func (f *findBar) reset() {
	f.gen++
	f.matches, f.searching, f.loading = nil, false, false
	f.count.SetText("")
	f.unlight()
	f.c.list.clearHighlight()
}

func (f *findBar) query() string { return strings.ToLower(strings.TrimSpace(f.entry.Text)) }

// search finds the rows containing the query, case-insensitively, and
// goes to the last one (the newest, nearest the end where the view is).
func (f *findBar) search() {
	f.gen++
	f.matches, f.searching, f.loading = nil, false, false
	q := f.query()
	if q == "" || !f.object.Visible() {
		f.count.SetText("")
		f.unlight()
		f.c.list.clearHighlight()
		return
	}
	f.matches = f.loadedMatches(q)
	f.at = len(f.matches) - 1
	tr := f.c.cur
	if !tr.complete && tr.id != 0 && len(tr.events) > 0 {
		f.searching = true
		f.searchStored(tr, q)
	}
	f.goTo()
}

// loadedMatches are the matching rows loaded now, in order.
func (f *findBar) loadedMatches(q string) []match {
	var out []match
	for i := range f.c.rowCount() {
		out = append(out, rowMatches(f.c.rowAt(i), q)...)
	}
	return out
}

// searchStored searches tr's stored events before its first loaded one in
// the background, then puts their matches in front of the loaded ones.
func (f *findBar) searchStored(tr *transcript, q string) {
	gen, id, before, owner := f.gen, tr.id, tr.oldest(), tr.owner
	f.c.env.Go(func() {
		older, err := f.c.core.History().PageBefore(id, before, 0)
		var found []match
		if err == nil {
			found = matchEvents(older, q, owner)
		}
		f.c.env.Do(func() {
			if f.gen != gen || f.c.cur != tr {
				return
			}
			f.searching = false
			if err != nil {
				f.c.core.Logger().Warn("finding in older messages", "conversation", id.String(), "error", err)
			}
			f.merge(tr, q, found)
		})
	})
}

// matchEvents are the rows of events that contain q. It runs off the UI
// goroutine: the transcript it builds is its own.
func matchEvents(events []store.Event, q string, owner func(string) string) []match {
	t := newTranscript(0, owner)
	t.load(events, true)
	var out []match
	for _, r := range t.rows {
		out = append(out, rowMatches(r, q)...)
	}
	return out
}

// merge puts the stored matches found before the loaded rows in front of
// the loaded matches, staying on the match shown.
func (f *findBar) merge(tr *transcript, q string, found []match) {
	var cur *match
	if f.at >= 0 && f.at < len(f.matches) {
		cur = &f.matches[f.at]
	}
	// Rows loaded meanwhile (the view scrolled up), and a tool card whose
	// call lies before the first page but whose result is in it, are
	// loaded matches already.
	oldest := tr.oldest()
	found = slices.DeleteFunc(found, func(m match) bool {
		return m.seq >= oldest || (m.key.call != "" && tr.calls[m.key.call] != nil)
	})
	f.matches = append(found, f.loadedMatches(q)...)
	f.at = len(f.matches) - 1
	if cur != nil {
		if i := slices.IndexFunc(f.matches, func(m match) bool { return m == *cur }); i >= 0 {
			f.at = i
		}
	}
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

// goTo shows the current match, loading the pages up to it first when it
// is not loaded yet.
func (f *findBar) goTo() {
	if len(f.matches) == 0 {
		if f.searching {
			f.count.SetText("searching…")
		} else {
			f.count.SetText("no matches")
		}
		f.unlight()
		f.c.list.clearHighlight()
		return
	}
	text := fmt.Sprintf("%d of %d", f.at+1, len(f.matches))
	if f.searching {
		text += ", searching older messages…"
	}
	f.count.SetText(text)
	m := f.matches[f.at]
	f.loading = false
	if i := f.c.rowIndex(m.key); i >= 0 {
		i, r, n := f.locate(i, m.n)
		f.light(r, n)
		f.c.list.showAt(i, f.c.list.matchOffset(i, f.query(), n))
		return
	}
	tr := f.c.cur
	if tr.complete || m.seq >= tr.oldest() {
		return // gone from the conversation meanwhile
	}
	f.count.SetText(text + " (loading…)")
	f.loading = true
	gen, at := f.gen, f.at
	f.c.loadBack(m.seq, func() {
		if f.gen == gen && f.at == at && f.loading {
			f.goTo()
		}
	})
}

// rowsRebuilt highlights the current match again after the transcript
// made its rows anew (an older page was loaded), and goes to it when it
// was waiting for that page.
func (f *findBar) rowsRebuilt() {
	if !f.object.Visible() || f.at < 0 || f.at >= len(f.matches) {
		return
	}
	i := f.c.rowIndex(f.matches[f.at].key)
	switch {
	case i >= 0 && f.loading:
		f.goTo()
	case i >= 0:
		_, r, n := f.locate(i, f.matches[f.at].n)
		f.light(r, n)
		f.c.list.highlightRow(r)
	}
}

// locate is the row that shows occurrence n of row i's text: of a long
// message the row of the piece holding it (when that piece is shown),
// with the occurrence's number in that piece; row i itself otherwise.
func (f *findBar) locate(i, n int) (int, *row, int) {
	r := f.c.rowAt(i)
	if r == nil || r.long == nil || r.part != nil {
		return i, r, n
	}
	spans := markdown.FindSpans(r.text, f.query())
	if n >= len(spans) {
		return i, r, n
	}
	off := spans[n][0]
	for k, p := range r.long.split.pieces() {
		if off < p.start || off >= p.end {
			continue
		}
		pr := r
		if k > 0 {
			if k > len(r.long.parts) {
				return i, r, n // a piece not shown yet
			}
			pr = r.long.parts[k-1]
		}
		local := 0
		for _, s := range spans[:n] {
			if s[0] >= p.start {
				local++
			}
		}
		return i + k, pr, local
	}
	return i, r, n
}

// light makes occurrence n of row r's text the one marked current; the
// row is bound again when only n changed (the list binds a row again only
// when it changed).
func (f *findBar) light(r *row, n int) {
	if f.lit == r && f.litN == n {
		return
	}
	if f.lit != nil {
		f.lit.version++
	}
	if r != nil && r != f.lit {
		r.version++
	}
	f.lit, f.litN = r, n
}

// unlight forgets the current occurrence.
func (f *findBar) unlight() {
	if f.lit != nil {
		f.lit.version++
	}
	f.lit, f.litN = nil, 0
}

// markIn is the query to mark in row r and the occurrence to mark as the
// current one: "" and -1 unless r shows the current match.
func (f *findBar) markIn(r *row) (string, int) {
	if r == nil || r != f.lit || !f.object.Visible() {
		return "", -1
	}
	return f.query(), f.litN
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
