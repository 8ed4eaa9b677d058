package chat

// cardsPerKind bounds the cards of each kind the message list keeps: about
// twice as many rows as a tall window shows at once.
const cardsPerKind = 48

// minCards is the least bound of a kind's cards.
const minCards = 8

// cardsOf is how many cards of kind k the list keeps. At most
// cardsPerKind, and fewer when the view cannot show that many rows of the
// kind: twice as many as fit in the list's height at the kind's shortest
// row measured (shortest so far, never forgotten), and two more each
// side. A turn's waiting line is the only row of its kind at a time, and
// each turn's is a new row, so it needs two (the one going, the one
// coming).
func (m *messageList) cardsOf(k rowKind) int {
	if k == rowWaiting {
		return 2
	}
	h, least := m.list.Size().Height, m.shortest[k]
	if h <= 0 || least <= 0 {
		return cardsPerKind
	}
	fit := int(h/(least+m.gap())) + 2
	return min(cardsPerKind, max(minCards, 2*fit))
}

// cardSlot holds the card (a message, a tool call, ...) that shows one row.
type cardSlot struct {
	kind rowKind
	r    *row
	used uint64
	// key is what the card was last bound to.
	key  boundKey
	msg  *messageView
	tool *toolCard
	appr *approvalCard
	errc *errorCard
	more *moreCard
	// model are the rows of what a model does besides answering (the
	// waiting line shows in every turn).
	model modelRows
}

// cards are the rendered cards of the rows shown lately, by row, at most
// cardsPerKind of each kind: a row comes back into view on its own card,
// and a row new to the view takes the card of the row shown least
// recently. Fyne's list (2.7) drops the row widgets it is not showing at
// every full refresh and makes new ones as rows scroll in; their cards
// stay reachable through its renderer cache for a minute or more, so a
// card per row widget made memory grow with every row that passed
// through the view (tool turns following the end of a long conversation).
// The row widgets are cheap; the cards, the rendered content, are the ones
// kept here, so memory is bounded by what is shown.
//
// A card is taken from a row only when as many rows of its kind as the
// bound (cardsOf) were bound since the row was: every row in view is
// bound again at each full refresh of the list, and rows come into view
// one by one as it scrolls, so the rows bound since one still in view are
// within a view's height of it, fewer than the bound.
type cards struct {
	byRow map[*row]*cardSlot
	kinds map[rowKind][]*cardSlot
	clock uint64
}

func newCards() *cards {
	return &cards{byRow: map[*row]*cardSlot{}, kinds: map[rowKind][]*cardSlot{}}
}

// take returns the slot that shows r: its own, a new one, or the one of
// its kind bound least recently (which then forgets its row).
func (c *cards) take(r *row, limit int) *cardSlot {
	c.clock++
	if s := c.byRow[r]; s != nil {
		s.used = c.clock
		return s
	}
	slots := c.kinds[r.kind]
	var s *cardSlot
	if len(slots) < limit {
		s = &cardSlot{kind: r.kind}
		c.kinds[r.kind] = append(slots, s)
	} else {
		s = slots[0]
		for _, x := range slots[1:] {
			if x.used < s.used {
				s = x
			}
		}
		delete(c.byRow, s.r)
	}
	s.r, s.key, s.used = r, boundKey{}, c.clock
	c.byRow[r] = s
	return s
}

// forget lets go of every row (another conversation): the cards stay, for
// the rows to come.
func (c *cards) forget() {
	clear(c.byRow)
	for _, slots := range c.kinds {
		for _, s := range slots {
			s.r, s.key = nil, boundKey{}
		}
	}
}
