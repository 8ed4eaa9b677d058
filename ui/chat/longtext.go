package chat

import (
	"fmt"
	"math"
	"slices"

	"github.com/wrasse-app/wrasse/brain/store"
)

// rowMore is the bar under a long message: how much is shown, Show more
// and Show all. It follows the model's kinds (modelrows.go).
const rowMore = rowWaiting + 1

// How much of a long message is shown. At first the pieces within its
// first firstShown bytes; Show more adds moreShown bytes of pieces, Show
// all every piece (and every piece still to stream in). Pieces join the
// list at most revealBytes at a time, one step between frames, so showing
// all of a reply of megabytes keeps the window responsive while its rows
// are measured.
const (
	firstShown  = longMessage
	moreShown   = 128 << 10
	revealBytes = 32 << 10
	showAll     = math.MaxInt
)

// longText is what a message longer than longMessage keeps: its pieces,
// how many to show, the rows that show pieces after the first (the
// message's own row shows the first) and the bar saying what is not shown.
type longText struct {
	split splitter
	// want is how many bytes of the message to show (showAll: all),
	// rounded up to whole pieces.
	want  int
	parts []*row
	more  *row
}

// partOf links a piece's row, or the bar, to its message's row.
type partOf struct {
	head *row
	n    int // the piece shown (1: the second); 0 for the bar
}

// sizeOf is how much of the message its first n pieces show.
func sizeOf(ps []piece, n int) int { return ps[min(n, len(ps))-1].end }

// span is how many rows after message r's own belong to it: its later
// pieces and the bar.
func (r *row) span() int {
	if r.long == nil {
		return 0
	}
	n := len(r.long.parts)
	if r.long.more != nil {
		n++
	}
	return n
}

// partIndex is how far after its message's row a row of it is.
func (r *row) partIndex() int {
	switch {
	case r.part == nil:
		return 0
	case r.kind == rowMore:
		return len(r.part.head.long.parts) + 1
	}
	return r.part.n
}

// headAt is the index of the message row i shows part of (i itself for
// any other row).
func (t *transcript) headAt(i int) int {
	r := t.rows[i]
	switch {
	case r.part == nil:
		return i
	case r.kind == rowMore:
		return i - len(r.part.head.long.parts) - 1
	}
	return i - r.part.n
}

// arrange brings the rows showing message r in step with r.text: its
// own row's body, the rows of its later pieces and the bar. It returns
// the index of the first row that changed or was added or removed (-1:
// none); the rows changed have their version moved. At most revealBytes
// of pieces join per call (see revealing).
func (t *transcript) arrange(r *row) int {
	// Only messages are cut (the model's own rows, thinking among them,
	// show r.text themselves).
	if r.long == nil && (len(r.text) <= longMessage || r.kind != rowAssistant && r.kind != rowUser) {
		if r.body == r.text {
			return -1
		}
		r.body = r.text
		r.version++
		return t.index(r)
	}
	if r.long == nil {
		r.long = &longText{split: splitter{md: r.kind == rowAssistant}, want: firstShown}
	}
	l := r.long
	restarted := l.split.scan(r.text)
	if len(r.text) <= longMessage && restarted {
		// The stored text replaced a longer streamed one: one row again.
		return t.unsplit(r)
	}
	ps := l.split.pieces()
	head := t.index(r)
	from := -1
	changed := func(i int) {
		if from < 0 || i < from {
			from = i
		}
	}
	if body := ps[0].text(r.text); body != r.body {
		r.body = body
		r.version++
		changed(head)
	}
	// The pieces wanted, and of those the ones this step shows.
	want := 1
	for want < len(ps) && ps[want-1].end < l.want {
		want++
	}
	show := len(l.parts) + 1
	for budget := revealBytes; show < want && budget > 0; show++ {
		budget -= ps[show].end - ps[show].start
	}
	show = max(min(show, want), 1)
	parts := l.parts
	for i := range show - 1 {
		p := ps[i+1]
		if i < len(parts) {
			if body := p.text(r.text); body != parts[i].body {
				parts[i].body = body
				parts[i].version++
				changed(head + 1 + i)
			}
			continue
		}
		parts = append(parts, &row{kind: r.kind, seq: r.seq, body: p.text(r.text), part: &partOf{head: r, n: i + 1}})
		changed(head + 1 + i)
	}
	if len(parts) > show-1 { // fewer pieces than before (the text was replaced)
		parts = parts[:show-1]
		changed(head + show)
	}
	var more *row
	if show < len(ps) {
		more = l.more
		if more == nil {
			more = &row{kind: rowMore, seq: r.seq, part: &partOf{head: r}}
			changed(head + show)
		}
		text := moreText(sizeOf(ps, show), len(r.text), r.status == store.StatusStreaming, show < want)
		if text != more.text {
			more.text = text
			more.version++
			changed(head + show)
		}
	} else if l.more != nil {
		changed(head + show)
	}
	// The last row of the message has padding below, the others none.
	tail := func(parts []*row, more *row) *row {
		if more != nil {
			return more
		}
		if len(parts) > 0 {
			return parts[len(parts)-1]
		}
		return r
	}
	if was, now := tail(l.parts, l.more), tail(parts, more); was != now {
		for i, x := range []*row{was, now} {
			if x.kind != rowMore && (i == 1 || slices.Contains(parts, x) || x == r) {
				x.version++
				changed(head + x.partIndex())
			}
		}
	}
	// Replace the rows after r that showed it with the new ones.
	end := head + 1 + r.span()
	next := make([]*row, 0, len(parts)+1)
	next = append(next, parts...)
	if more != nil {
		next = append(next, more)
	}
	if !slices.Equal(t.rows[head+1:end], next) {
		t.rows = slices.Replace(t.rows, head+1, end, next...)
	}
	l.parts, l.more = parts, more
	return from
}

// unsplit shows message r as one row again.
func (t *transcript) unsplit(r *row) int {
	head := t.index(r)
	t.rows = slices.Delete(t.rows, head+1, head+1+r.span())
	r.long = nil
	r.body = r.text
	r.version++
	return head
}

// revealing reports whether a long message has pieces waiting to join the
// list.
func (r *row) revealing() bool {
	if r.long == nil {
		return false
	}
	l := r.long
	n := len(l.parts) + 1 // pieces shown
	return n < l.split.count() && l.split.end(n-1) < l.want
}

// showMore shows moreShown bytes more of message r, or all of it; it
// returns the first row that changed, as arrange.
func (t *transcript) showMore(r *row, all bool) int {
	if r.long == nil {
		return -1
	}
	l := r.long
	if all {
		l.want = showAll
	} else if l.want != showAll {
		l.want = l.split.end(len(l.parts)) + moreShown
	}
	return t.arrange(r)
}

// moreText says how much of a long message is shown.
func moreText(shown, total int, streaming, revealing bool) string {
	switch {
	case revealing:
		return fmt.Sprintf("Showing %s of %s…", sizeText(shown), sizeText(total))
	case streaming:
		return fmt.Sprintf("Showing %s of %s so far.", sizeText(shown), sizeText(total))
	}
	return fmt.Sprintf("Showing %s of %s.", sizeText(shown), sizeText(total))
}

// sizeText is a byte count for people.
func sizeText(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// showMore shows more of long message r, or all of it, from its bar;
// the view stays where it is.
func (c *Chat) showMore(bar *row, all bool) {
	if bar == nil || bar.part == nil {
		return
	}
	keep := c.list.anchorTop()
	if from := c.cur.showMore(bar.part.head, all); from >= 0 {
		c.list.changed(from)
		c.list.scrollTo(keep)
	}
}

// parsed counts Markdown parsed by the rows' views (see messageList).
func (c *Chat) parsed(n int) {
	if c.list != nil {
		c.list.parses++
		c.list.parsedBytes += n
	}
}
