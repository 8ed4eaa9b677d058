package chat

import (
	"image/color"
	"slices"
	"sort"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/ui/markdown"
)

// anchor is where a conversation was scrolled to: the row at the top of
// the view and how far into it, or the end.
type anchor struct {
	seq   uint64
	delta float32
	end   bool
	// approval: the first approval card, and as much after it as fits
	// (a conversation that waits for an answer opens there).
	approval bool
}

// cachedHeight is a row's measured height at a width and version.
type cachedHeight struct {
	version int
	last    bool
	running bool // runningFor when measured
	width   float32
	h       float32
	// guess marks an estimate (estimate.go): the row was not measured
	// yet, and is when it comes into view.
	guess bool
}

// resizeSettle is how long the width must stay the same before rows are
// measured again for it: dragging a window's edge changes it every frame.
const resizeSettle = 100 * time.Millisecond

// remeasureChunk is how many rows out of view are measured again for a
// new width at a time, between frames.
const remeasureChunk = 40

// messageList is the conversation: a virtualised widget.List whose row
// heights are measured per row (exactly, without laying rows out) and set
// with SetItemHeight. Only the rows in view have widgets. When the width
// changes and then stays put for resizeSettle, the rows in view are
// measured for it at once and the list rebuilt keeping the row at the top
// in place; the other rows keep their old heights until they are measured
// a chunk at a time afterwards, the view held in place as they change.
type messageList struct {
	widget.BaseWidget

	c        *Chat
	list     *rowList
	width    float32
	heights  map[*row]cachedHeight
	measurer *rowView
	// cards are the cards of the rows shown lately; parser is the
	// Markdown parser every message's view shares.
	cards  *cards
	parser *markdown.Parser
	// shortest is the least height measured of a row of each kind, which
	// bounds how many of them the view can show (see cardsOf).
	shortest map[rowKind]float32
	// highlight is the find bar's current match.
	highlight *row
	// total is the content height the list was last given, so "was the
	// view at the end" is answered before rows grew.
	total float32
	// restore is applied at the next layout (the list needs a size to
	// scroll).
	restore *anchor

	// schedule runs fn on the UI goroutine after d (tests run it by hand).
	schedule func(d time.Duration, fn func())
	// wanted is the width waiting to settle (0: none); widthGen moves with
	// every change, so only the last one's timer applies it.
	wanted   float32
	widthGen int
	// lazy is true while rows out of view still have heights measured at
	// an older width; they are measured from lazyNext on, in steps of the
	// generation lazyGen.
	lazy     bool
	lazyNext int
	lazyGen  int
	// measured counts rows measured, parsed the Markdown parsed by every
	// row's view (calls and bytes), for tests.
	measured    int
	parses      int
	parsedBytes int
	// count is the number of rows the list was last given.
	count int
	// rowViews counts the row widgets the list asked for, for tests.
	rowViews int
	// revealGen moves with every reveal step scheduled (see reveal).
	revealGen int
	// guessing is set while a list is made for more rows than are
	// measured up front: rows out of view get estimated heights.
	guessing bool
	// est learns from the rows measured how far estimates are off.
	est estimator
	// fixing is set while a measure of the guessed rows in view waits.
	fixing bool
	// given are the heights given to the list, by row; tops the rows'
	// offsets from them, the first topsOK of which are up to date (at
	// gap topsGap).
	given   []float32
	tops    []float32
	topsOK  int
	topsGap float32
	// wheel turns the mouse wheel's notches into lines; jump holds the
	// buttons to the first and latest messages (jump.go).
	wheel *wheel
	jump  *jumpButtons
	// lastRows are the rows given to the list as the last reply or error:
	// their height changes (Retry goes) when rows come after them, so
	// changed measures them again whatever its from.
	lastRows []int
}

func newMessageList(c *Chat) *messageList {
	m := &messageList{c: c, heights: map[*row]cachedHeight{}, shortest: map[rowKind]float32{}, schedule: c.after, cards: newCards(), parser: markdown.NewParser()}
	m.measurer = newRowView(c)
	m.measurer.quiet = true
	m.wheel = newWheel(m)
	m.jump = newJumpButtons(c)
	m.list = m.newList()
	m.ExtendBaseWidget(m)
	return m
}

func (m *messageList) newList() *rowList {
	l := newRowList(m.c.rowCount,
		func() fyne.CanvasObject { m.rowViews++; return newRowView(m.c) },
		func(id widget.ListItemID, o fyne.CanvasObject) {
			r := m.c.rowAt(id)
			if r == nil {
				return
			}
			o.(*rowView).bind(r, m.c.isLast(id), r == m.highlight)
			if c, ok := m.heights[r]; ok && c.guess {
				m.fixLater() // in view with an estimated height
			}
			// While a scroll position waits to be restored, the list binds
			// the rows at offset 0, which are not in view.
			if id < 3 && m.restore == nil {
				m.c.nearTop()
			}
		})
	l.HideSeparators = true
	l.OnSelected = func(id widget.ListItemID) { l.Unselect(id) }
	n := m.c.rowCount()
	m.lastRows = nil
	m.given, m.topsOK = m.given[:0], 0 // the heights given to l
	m.prune()
	// A long conversation's rows out of view get estimated heights: the
	// scroll bar spans all of them from the start, and a row is measured
	// when it comes into view (fixView), the view held in place.
	m.guessing = n > measureUpFront
	for i := range n {
		m.setHeight(l, i)
	}
	m.guessing = false
	m.count = n
	m.total = m.contentHeight()
	return l
}

// setHeight gives list l row i's height.
func (m *messageList) setHeight(l *rowList, i int) {
	h := m.heightOf(i)
	l.SetItemHeight(i, h)
	m.give(i, h)
	if m.c.isLast(i) && !slices.Contains(m.lastRows, i) {
		m.lastRows = append(m.lastRows, i)
	}
}

// heightOf is row i's height at the current width, measured once per
// version. While a re-measure for a new width runs (lazy), a row not
// measured again yet keeps the height it had, as the list does.
func (m *messageList) heightOf(i int) float32 {
	r := m.c.rowAt(i)
	if r == nil || m.width <= 0 {
		return 1
	}
	last := m.c.isLast(i)
	c, ok := m.heights[r]
	if ok && c.version == r.version && c.last == last && c.running == m.runningFor(r) && (c.width == m.width || m.lazy && !c.guess) {
		return c.h
	}
	if !ok && m.guessing || ok && c.guess && c.version == r.version {
		return m.guess(r, last)
	}
	return m.measure(r, last)
}

// runningFor is whether a turn runs, for a row whose height depends on it
// (an error card's Retry goes while one does); false for the others, so
// starting a turn measures no other row again.
func (m *messageList) runningFor(r *row) bool {
	return r.kind == rowError && m.c.running(m.c.cur)
}

func (m *messageList) measure(r *row, last bool) float32 {
	m.measurer.bind(r, last, false)
	h := m.measurer.heightFor(m.width)
	m.heights[r] = cachedHeight{version: r.version, last: last, running: m.runningFor(r), width: m.width, h: h}
	m.est.learn(r, h, m.width)
	if least, ok := m.shortest[r.kind]; (!ok || h < least) && h > 0 {
		m.shortest[r.kind] = h
	}
	m.measured++
	return h
}

// stale reports whether row i's height was measured at another width.
func (m *messageList) stale(i int) bool {
	r := m.c.rowAt(i)
	if r == nil {
		return false
	}
	c, ok := m.heights[r]
	return ok && c.width != m.width && !c.guess
}

// guessed reports whether row i's height is an estimate.
func (m *messageList) guessed(i int) bool {
	r := m.c.rowAt(i)
	if r == nil {
		return false
	}
	c, ok := m.heights[r]
	return ok && c.guess
}

// measureNow measures row i at the current width if its height is stale
// or estimated.
func (m *messageList) measureNow(i int) {
	if m.stale(i) || m.guessed(i) {
		m.measure(m.c.rowAt(i), m.c.isLast(i))
	}
}

// widthChanged follows a new width: at once when nothing is measured yet,
// else once it has stayed for resizeSettle.
func (m *messageList) widthChanged(w float32) {
	switch {
	case w == m.width:
		// Back where it was before the wait ended: nothing to do.
		m.wanted = 0
		m.widthGen++
	case m.width <= 0 || m.c.rowCount() == 0:
		m.wanted = 0
		m.widthGen++
		keep := m.anchor()
		m.width = w
		m.list = m.newList()
		m.restore = &keep
	case w != m.wanted:
		m.wanted = w
		m.widthGen++
		gen := m.widthGen
		m.schedule(resizeSettle, func() {
			if gen == m.widthGen {
				m.applyWidth()
			}
		})
	}
}

// applyWidth measures the rows in view at the settled width, rebuilds the
// list keeping the view where it was, and leaves the rest to remeasure.
func (m *messageList) applyWidth() {
	w := m.wanted
	m.wanted = 0
	if w <= 0 || w == m.width {
		return
	}
	keep := m.anchor() // in the heights the list has now
	m.width = w
	m.lazy = true
	m.lazyNext = 0
	m.lazyGen++
	from, to := m.inView(keep)
	for i := from; i < to; i++ {
		m.measureNow(i)
	}
	m.list = m.newList()
	m.restore = &keep
	m.Refresh()
	gen := m.lazyGen
	m.schedule(0, func() { m.remeasure(gen) })
}

// textSizeChanged measures the rows again for the theme's new text size
// (Ctrl+plus, Ctrl+minus): as after a width change, the rows in view at
// once and the rest a chunk at a time, the view kept on the row it shows.
func (m *messageList) textSizeChanged() {
	if m.width <= 0 {
		return
	}
	for r, c := range m.heights {
		if !c.guess {
			c.width = -1 // stale at any width
			m.heights[r] = c
		}
	}
	m.wanted, m.width = m.width, -1
	m.applyWidth()
}

// inView is the range of rows the view shows at a, measuring as it goes.
func (m *messageList) inView(a anchor) (from, to int) {
	n := m.c.rowCount()
	h, gap := m.list.Size().Height, m.gap()
	if a.end || a.approval { // the approval cards are the last rows
		from = n
		for y := float32(0); from > 0 && y < h; {
			from--
			m.measureNow(from)
			y += m.heightOf(from) + gap
		}
		return from, n
	}
	from = n
	for i := range n {
		if r := m.c.rowAt(i); r.seq >= a.seq && r.kind != rowApproval {
			from = i
			break
		}
	}
	to = from
	for y := -a.delta; to < n && y < h; to++ {
		m.measureNow(to)
		y += m.heightOf(to) + gap
	}
	return from, to
}

// remeasure measures the next chunk of rows still at an older width and
// gives the list their heights, keeping the view on the row it shows.
func (m *messageList) remeasure(gen int) {
	if gen != m.lazyGen || !m.lazy {
		return
	}
	keep := m.anchor()
	n, done := m.c.rowCount(), 0
	m.list.batch(func() {
		for ; m.lazyNext < n && done < remeasureChunk; m.lazyNext++ {
			if i := m.lazyNext; m.stale(i) {
				m.measureNow(i)
				m.setHeight(m.list, i)
				done++
			}
		}
	})
	if done > 0 {
		m.total = m.contentHeight()
		m.scrollTo(keep)
	}
	if m.lazyNext >= n {
		m.lazy = false
		return
	}
	m.schedule(0, func() { m.remeasure(gen) })
}

// reset shows the current transcript from scratch, scrolled to a.
func (m *messageList) reset(a anchor) {
	clear(m.heights)
	m.cards.forget()
	m.lazy = false
	m.lazyGen++
	m.highlight = nil
	m.list = m.newList()
	m.restore = &a
	m.Refresh()
}

// rebuild makes a new list for the current rows keeping the scroll
// position (after a resize or an older page was added in front).
func (m *messageList) rebuild(a anchor) {
	m.lazyNext = 0 // rows were added in front
	m.list = m.newList()
	m.restore = &a
	m.Refresh()
}

// changed re-measures rows from index from on (rows changed, were added
// or went) and follows the end when the view was there.
func (m *messageList) changed(from int) {
	follow := m.atEnd()
	n := m.c.rowCount()
	from = max(from, 0)
	last := m.lastRows
	m.lastRows = nil // setHeight puts back those still last
	m.prune()
	// Rows made anew (an edit or a regeneration reloads the transcript)
	// are many in a long conversation: those out of view get estimates.
	guess := n-from > measureUpFront
	m.guessing = guess
	m.list.batch(func() {
		for _, i := range last {
			if i < from && i < n {
				m.setHeight(m.list, i)
			}
		}
		for i := from; i < n; i++ {
			m.setHeight(m.list, i)
		}
		m.forget(n)
		m.count = n
		m.total = m.contentHeight()
		m.list.Refresh()
	})
	m.guessing = false
	if follow {
		m.scrollToEnd()
	}
	if guess {
		m.fixLater()
	}
	m.revealLater()
}

// prune drops the heights of rows no longer in the transcript (a reload
// makes every row anew), once they outnumber the rows: they would keep
// the old rows and their text alive.
func (m *messageList) prune() {
	n := m.c.rowCount()
	if len(m.heights) <= 2*n+64 {
		return
	}
	keep := make(map[*row]cachedHeight, n)
	for i := range n {
		if r := m.c.rowAt(i); r != nil {
			if c, ok := m.heights[r]; ok {
				keep[r] = c
			}
		}
	}
	m.heights = keep
}

// forget drops what was given for rows from n on (rows went).
func (m *messageList) forget(n int) {
	if len(m.given) > n {
		m.given = m.given[:n]
		m.topsOK = min(m.topsOK, n+1)
	}
}

// rowChanged re-renders the rows from i on that changed (a streaming
// reply: its row, or of a long one the row of its last piece shown or
// its bar), nothing else; rows added or gone make it changed.
func (m *messageList) rowChanged(i int) {
	if i < 0 {
		return
	}
	n := m.c.rowCount()
	if n != m.count {
		m.changed(i)
		return
	}
	follow := m.atEnd()
	m.list.batch(func() {
		for ; i < n; i++ {
			r := m.c.rowAt(i)
			if c, ok := m.heights[r]; ok && c.version == r.version {
				continue
			}
			m.setHeight(m.list, i)
			m.list.RefreshItem(i)
		}
	})
	m.total = m.contentHeight()
	if follow {
		m.scrollToEnd()
	}
	m.revealLater()
}

// revealLater schedules the next step of showing long messages' pieces
// (see longtext.go) when some are waiting, between frames.
func (m *messageList) revealLater() {
	if m.revealGen > 0 {
		return // one is scheduled
	}
	for _, r := range m.c.cur.rows {
		if r.revealing() {
			m.revealGen++
			gen, tr := m.revealGen, m.c.cur
			m.schedule(0, func() { m.reveal(gen, tr) })
			return
		}
	}
}

// reveal adds the next pieces of the long messages waiting to show them,
// keeping the view on the row at its top (or at the end while a reply
// streams there), and schedules another step while some wait.
func (m *messageList) reveal(gen int, tr *transcript) {
	if gen != m.revealGen {
		return
	}
	m.revealGen = 0
	if tr != m.c.cur {
		return
	}
	keep := m.anchorTop()
	if m.atEnd() && m.c.running(tr) {
		keep = anchor{end: true} // following a reply as it streams
	}
	from := -1
	for i := 0; i < len(tr.rows); i++ {
		if r := tr.rows[i]; r.revealing() {
			if f := tr.arrange(r); f >= 0 && (from < 0 || f < from) {
				from = f
			}
			i += r.span()
		}
	}
	if from < 0 {
		return
	}
	n := m.c.rowCount()
	m.list.batch(func() {
		for i := from; i < n; i++ {
			m.setHeight(m.list, i)
		}
		m.forget(n)
		m.count = n
		m.total = m.contentHeight()
		m.list.Refresh()
	})
	m.scrollTo(keep)
	m.revealLater()
}

// scrollToEnd shows the last row. The offset is computed from the
// measured heights: the list's scroller only learns its content's new size
// at its next layout.
func (m *messageList) scrollToEnd() {
	if h := m.list.Size().Height; h > 0 {
		m.list.ScrollToOffset(max(m.contentHeight()-h, 0))
	}
}

func (m *messageList) gap() float32 { return m.list.Theme().Size(theme.SizeNamePadding) }

// give records that the list was given height h for row i.
func (m *messageList) give(i int, h float32) {
	for len(m.given) <= i {
		m.given = append(m.given, -1)
	}
	if m.given[i] != h {
		m.given[i] = h
		m.topsOK = min(m.topsOK, i+1)
	}
}

// height is row i's height as the list has it (as measured or estimated
// when it was given, whatever changed since), which is what places rows
// on screen.
func (m *messageList) height(i int) float32 {
	if i < len(m.given) && m.given[i] >= 0 {
		return m.given[i]
	}
	return m.heightOf(i)
}

// top is the offset of row i's top. The offsets are kept from one call to
// the next and worked out again only from the first row whose height
// changed, so following a turn at the end of a long conversation costs
// the same as in a short one.
func (m *messageList) top(i int) float32 {
	gap := m.gap()
	if gap != m.topsGap {
		m.topsGap, m.topsOK = gap, 0
	}
	if m.topsOK == 0 {
		m.tops = append(m.tops[:0], 0)
		m.topsOK = 1
	}
	for m.topsOK <= i {
		j := m.topsOK - 1
		t := m.tops[j] + m.height(j) + gap
		if len(m.tops) > m.topsOK {
			m.tops[m.topsOK] = t
		} else {
			m.tops = append(m.tops, t)
		}
		m.topsOK++
	}
	return m.tops[i]
}

func (m *messageList) contentHeight() float32 {
	n := m.c.rowCount()
	if n == 0 {
		return 0
	}
	return m.top(n) - m.gap()
}

// atEnd reports whether the view shows the end of the conversation.
func (m *messageList) atEnd() bool {
	h := m.list.Size().Height
	if h <= 0 {
		return true
	}
	return m.list.GetScrollOffset()+h >= m.total-m.gap()*2
}

// anchor is where the view is now.
func (m *messageList) anchor() anchor {
	if m.restore != nil {
		return *m.restore // not laid out since: still the wanted place
	}
	if m.atEnd() {
		return anchor{end: true}
	}
	return m.anchorTop()
}

// anchorTop is the row at the top of the view and how far into it, even
// at the end. The rows of a long message's pieces count from its first:
// a place is kept by seq, and they share their message's.
func (m *messageList) anchorTop() anchor {
	if m.restore != nil && !m.restore.end {
		return *m.restore
	}
	off, n := m.list.GetScrollOffset(), m.c.rowCount()
	if n == 0 || off >= m.top(n) {
		return anchor{end: true}
	}
	// The row at the top: the last whose top is at or above the offset.
	i := sort.Search(n, func(i int) bool { return m.top(i+1) > off })
	if i >= n {
		return anchor{end: true}
	}
	r := m.c.rowAt(i)
	head := i // the first row of the seq at i (a long message's own row)
	for head > 0 && m.c.rowAt(head).part != nil {
		head--
	}
	return anchor{seq: r.seq, delta: off - m.top(head)}
}

// scrollTo applies a.
func (m *messageList) scrollTo(a anchor) {
	if a.approval {
		m.scrollToApproval()
		return
	}
	if a.end {
		m.scrollToEnd()
		return
	}
	for i := range m.c.rowCount() {
		if r := m.c.rowAt(i); r.seq >= a.seq && r.kind != rowApproval {
			m.list.ScrollToOffset(m.top(i) + a.delta)
			return
		}
	}
	m.scrollToEnd()
}

// scrollToApproval shows the first approval card from its top, or the
// end when the cards fit (they are the last rows).
func (m *messageList) scrollToApproval() {
	h := m.list.Size().Height
	for i := range m.c.rowCount() {
		if m.c.rowAt(i).kind == rowApproval {
			if h > 0 {
				m.list.ScrollToOffset(min(m.top(i), max(m.contentHeight()-h, 0)))
			}
			return
		}
	}
	m.scrollToEnd()
}

// show scrolls row i into view and highlights it (the find bar).
func (m *messageList) show(i int) {
	m.highlight = m.c.rowAt(i)
	m.list.Refresh()
	if i >= 0 {
		m.list.ScrollToOffset(m.top(i))
	}
}

// highlightRow highlights r without scrolling.
func (m *messageList) highlightRow(r *row) {
	if m.highlight != r {
		m.highlight = r
		m.list.Refresh()
	}
}

func (m *messageList) clearHighlight() {
	if m.highlight != nil {
		m.highlight = nil
		m.list.Refresh()
	}
}

func (m *messageList) CreateRenderer() fyne.WidgetRenderer { return &messageListRenderer{m: m} }

type messageListRenderer struct{ m *messageList }

func (r *messageListRenderer) Destroy() {}

// Objects puts the wheel over the list (the last Scrollable under the
// pointer gets the wheel's events) and the jump buttons over both.
func (r *messageListRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.m.list, r.m.wheel, r.m.jump.box}
}

func (r *messageListRenderer) MinSize() fyne.Size { return fyne.NewSize(100, 100) }

func (r *messageListRenderer) Layout(size fyne.Size) {
	m := r.m
	if size.Width > 0 && (size.Width != m.width || m.wanted != 0) {
		m.widthChanged(size.Width)
	}
	m.list.Move(fyne.NewPos(0, 0))
	m.list.Resize(size)
	m.wheel.Move(fyne.NewPos(0, 0))
	m.wheel.Resize(size)
	if m.restore != nil && size.Height > 0 {
		a := *m.restore
		m.restore = nil
		m.settle(a)
		m.scrollTo(a)
	}
	m.jump.place(size, m.list.Theme())
	m.moved()
}

func (r *messageListRenderer) Refresh() {
	r.Layout(r.m.Size())
	r.m.list.Refresh()
	canvas.Refresh(r.m)
}

// rowView is the one widget the list recycles for every row: it shows a
// message, a tool card, an approval card or an error, each made the first
// time this row widget needs one.
type rowView struct {
	widget.BaseWidget

	c     *Chat
	hl    *canvas.Rectangle
	msg   *messageView
	tool  *toolCard
	appr  *approvalCard
	errc  *errorCard
	model modelRows // thinking, notices, waiting (modelrows.go)
	more  *moreCard
	shown fyne.CanvasObject
	// slot is where the cards come from (not for the measuring row,
	// whose cards are its own).
	slot *cardSlot
	// indent is how far the shown card sits in from the left: a call a
	// code-mode program made is nested under the program's card.
	indent float32
	key    boundKey
	// quiet marks the list's measuring row, never shown: binding it sets
	// only what decides a row's height.
	quiet bool
}

// boundKey is what a rowView shows; binding the same again does nothing.
type boundKey struct {
	r         *row
	version   int
	last, lit bool
	mark      string
	running   bool
}

func newRowView(c *Chat) *rowView {
	v := &rowView{c: c, hl: &canvas.Rectangle{}}
	v.hl.Hide()
	v.ExtendBaseWidget(v)
	return v
}

func (v *rowView) bind(r *row, last, lit bool) {
	mark := ""
	if lit {
		mark = v.c.find.query()
	}
	k := boundKey{r: r, version: r.version, last: last, lit: lit, mark: mark, running: v.c.running(v.c.cur) && showsRunning(r)}
	if !v.quiet {
		// The card comes from the list's cards (see cards.go).
		slot := v.c.list.cards.take(r, v.c.list.cardsOf(r.kind))
		if k == v.key && slot == v.slot && slot.key == k {
			return
		}
		v.slot = slot
		v.msg, v.tool, v.appr, v.errc, v.more, v.model = slot.msg, slot.tool, slot.appr, slot.errc, slot.more, slot.model
		defer func() {
			slot.msg, slot.tool, slot.appr, slot.errc, slot.more, slot.model = v.msg, v.tool, v.appr, v.errc, v.more, v.model
			slot.key = k
		}()
	} else if k == v.key {
		return
	}
	v.key = k
	v.indent = 0
	if r.nested() {
		v.indent = nestIndent(v.Theme())
	}
	switch r.kind {
	case rowUser, rowAssistant:
		if v.msg == nil {
			v.msg = newMessageView(v.c)
			v.msg.quiet = v.quiet
		}
		v.msg.bind(r, last)
		v.shown = v.msg.col
	case rowTool:
		if v.tool == nil {
			v.tool = newToolCard(v.c)
			v.tool.quiet = v.quiet
		}
		v.tool.bind(r)
		v.shown = v.tool.col
	case rowApproval:
		if v.appr == nil {
			v.appr = newApprovalCard(v.c)
			v.appr.quiet = v.quiet
		}
		v.appr.bind(r)
		v.shown = v.appr.col
	case rowError:
		if v.errc == nil {
			v.errc = newErrorCard(v.c)
			v.errc.quiet = v.quiet
		}
		v.errc.bind(r, last)
		v.shown = v.errc.col
	case rowMore:
		if v.more == nil {
			v.more = newMoreCard(v.c)
			v.more.quiet = v.quiet
		}
		v.more.bind(r)
		v.shown = v.more.col
	default:
		v.shown = v.bindModelRow(r)
	}
	// The find bar's match: an outline drawn over the row, so a row with
	// a background of its own (the user's messages, the cards) shows it
	// too, and the words found marked where the row is plain text.
	for _, t := range v.texts(r.kind) {
		t.setMark(mark, v.quiet)
	}
	th, variant := v.Theme(), fyne.CurrentApp().Settings().ThemeVariant()
	v.hl.FillColor = color.Transparent
	v.hl.StrokeColor = th.Color(theme.ColorNamePrimary, variant)
	v.hl.StrokeWidth = 2
	v.hl.CornerRadius = th.Size(theme.SizeNameInputRadius)
	setVisible(v.hl, lit)
	if !v.quiet {
		v.Refresh()
	}
}

// showsRunning reports whether row r may look different while a turn runs
// (a message's Edit and Regenerate, an error's Retry go): tool and
// approval cards and a long message's later rows do not, and are not
// bound again when a turn starts and ends.
func showsRunning(r *row) bool {
	switch r.kind {
	case rowTool, rowApproval, rowMore:
		return false
	}
	return r.part == nil // the model's rows too (modelrows.go)
}

// texts are the plain texts the row of kind k shows, where find marks
// the words found.
func (v *rowView) texts(k rowKind) []*wrapText {
	switch {
	case (k == rowUser || k == rowAssistant) && v.msg != nil:
		return []*wrapText{v.msg.user}
	case k == rowTool && v.tool != nil:
		return []*wrapText{v.tool.args, v.tool.note, v.tool.result}
	case k == rowApproval && v.appr != nil:
		return []*wrapText{v.appr.summary, v.appr.args, v.appr.reasons, v.appr.scope}
	case k == rowError && v.errc != nil:
		return []*wrapText{v.errc.text, v.errc.action}
	}
	return nil
}

func (v *rowView) heightFor(width float32) float32 {
	if c, ok := v.shown.(*column); ok {
		return c.heightFor(max(width-v.indent, 1))
	}
	return 1
}

// nestIndent is the indent of a nested tool card.
func nestIndent(th fyne.Theme) float32 { return 4 * th.Size(theme.SizeNamePadding) }

func (v *rowView) CreateRenderer() fyne.WidgetRenderer { return &rowRenderer{v: v} }

// Move places the row; the list moves every row in view whenever its
// offset changes (a drag of the scroll bar too, which tells nobody else),
// so the jump buttons follow the view from here.
func (v *rowView) Move(p fyne.Position) {
	v.BaseWidget.Move(p)
	if !v.quiet && v.c.list != nil {
		v.c.list.moved()
	}
}

type rowRenderer struct{ v *rowView }

func (r *rowRenderer) Destroy() {}

func (r *rowRenderer) Objects() []fyne.CanvasObject {
	if r.v.shown == nil {
		return []fyne.CanvasObject{r.v.hl}
	}
	return []fyne.CanvasObject{r.v.shown, r.v.hl} // the highlight on top
}

func (r *rowRenderer) MinSize() fyne.Size { return fyne.NewSize(0, 1) }

func (r *rowRenderer) Layout(size fyne.Size) {
	r.v.hl.Resize(size)
	if r.v.shown != nil {
		r.v.shown.Move(fyne.NewPos(r.v.indent, 0))
		r.v.shown.Resize(fyne.NewSize(max(size.Width-r.v.indent, 1), size.Height))
	}
}

// Refresh lays the row out and redraws its outline. The card shown
// refreshed what changed in it when it was bound: refreshing all of it
// again would lay out and shape every label and line of the row anew for
// each row the list binds (the list binds every row in view at each of
// its full refreshes, which a turn causes many times).
func (r *rowRenderer) Refresh() {
	r.Layout(r.v.Size())
	r.v.hl.Refresh()
	canvas.Refresh(r.v)
}
