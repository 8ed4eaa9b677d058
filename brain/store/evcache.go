package store

import (
	"math"
	"slices"
	"strings"
	"sync"
)

// DefaultCachedConversations is how many conversations' decoded events
// Events keeps in memory when Options.CachedConversations is 0.
const DefaultCachedConversations = 8

// eventCache keeps the decoded events of the conversations read lately, so
// Events costs a copy of the slice instead of decoding the whole history
// (a turn reads it every time: 5,000 events took ~40 ms to decode). The
// file stays the truth: every write commits first and only then updates
// the cache, or drops the conversation from it when it cannot vouch for
// the result.
//
// Consistency without holding a lock across a commit: a write marks its
// conversation busy for its whole span (begin/end). It applies its change
// to the cached events only when it was the conversation's only write from
// begin to end; otherwise the entry is dropped. A read that decoded the
// file installs what it read only when no write of that conversation ran
// at any moment between the read's start and its install, so it can never
// install a snapshot older than a write that already finished.
type eventCache struct {
	mu   sync.Mutex
	max  int
	tick uint64 // for least-recently-used eviction
	// epochs numbers the cached slices: each conversation's events get a
	// new number whenever they are installed or copied (own), never one
	// used before, so two lends with the same epoch lent the same slice.
	epochs uint64
	closed bool
	convs  map[ID]*convCache
	// marks are the tails readers keep (keepTail), by conversation: they
	// outlive the entries in convs, so that a change to an event before a
	// tail is seen even while the conversation is not cached.
	marks map[ID]*tailMark
}

// tailMark is where the tail a reader keeps of a conversation begins, and
// the lowest event written in place or removed since the reader last read
// (low, MaxUint64 when none): a tail is valid while low >= from, the
// events before it unchanged.
type tailMark struct {
	from, low uint64
}

// convCache is one conversation's entry.
type convCache struct {
	// events are as Events decoded them; nil with loaded false when not
	// held. Events hands out a copy; SharedEvents lends the slice itself,
	// capped at its length.
	events []Event
	loaded bool
	// from is the Seq of the first event held when only a tail is
	// (keepTail: events are those from it on); 0 when they are all.
	from uint64
	// lent is the length of the longest slice of events lent out since
	// events was last copied: events[:lent] belong to readers too and are
	// never written in place (own copies them first). Appending writes
	// past every lent slice's length, so it needs no copy.
	lent int
	// epoch is the number of events (eventCache.epochs): while it stays
	// the same, events[:lent] are as they were lent.
	epoch uint64
	used  uint64
	// streams builds the text of each streaming reply in events, so a
	// piece costs its own length, not the reply's so far (a string
	// Builder's String shares its bytes and never changes them).
	streams map[uint64]*strings.Builder
	// started counts the writes begun; inflight those not yet ended.
	started  uint64
	inflight int
}

// cacheWrite is one write's mark, from begin to end.
type cacheWrite struct {
	c     *convCache
	id    ID
	start uint64
	solo  bool // no other write of the conversation was in flight at begin
	// low is the lowest event the write changes in place or removes; 0
	// when it only appends.
	low uint64
}

// cacheRead is one read's mark, from the start of decoding to install.
type cacheRead struct {
	c       *convCache
	started uint64
	ok      bool // no write was in flight at the start
}

func newEventCache(n int) *eventCache {
	if n == 0 {
		n = DefaultCachedConversations
	}
	return &eventCache{max: n, convs: map[ID]*convCache{}, marks: map[ID]*tailMark{}}
}

// get returns a copy of the cached events of id. The events share their
// byte slices and pointers with the cache: callers treat them as read-only,
// as every caller of Events does.
func (ec *eventCache) get(id ID) ([]Event, bool) {
	ec.mu.Lock()
	defer ec.mu.Unlock()
	c := ec.convs[id]
	if ec.closed || c == nil || !c.loaded || c.inflight > 0 || c.from != 0 {
		return nil, false
	}
	ec.tick++
	c.used = ec.tick
	// Room for a turn's events: the agent appends to what it read, and
	// growing a copy of a long history would copy it again.
	out := make([]Event, len(c.events), len(c.events)+spareEvents)
	copy(out, c.events)
	return out, true
}

// spareEvents is the room get leaves after the events it hands out.
const spareEvents = 32

// lend returns the cached events of id themselves, without copying them:
// a slice whose capacity is its length, so a reader's append copies it
// instead of writing into the cache's room, and whose events the cache
// never changes in place afterwards (own). A turn reads the whole history
// at its start; lending it costs nothing however long the history is.
// The epoch returned is the same for two lends only when the events the
// first returned are, unchanged, the first events of the second.
func (ec *eventCache) lend(id ID) ([]Event, uint64, bool) {
	ec.mu.Lock()
	defer ec.mu.Unlock()
	ec.watch(id)
	c := ec.convs[id]
	if ec.closed || c == nil || !c.loaded || c.inflight > 0 || c.from != 0 {
		return nil, 0, false
	}
	return ec.lendFrom(c, 0), c.epoch, true
}

// lendFrom lends c's events from index i on. ec.mu is held.
func (ec *eventCache) lendFrom(c *convCache, i int) []Event {
	ec.tick++
	c.used = ec.tick
	if c.epoch == 0 {
		ec.epochs++
		c.epoch = ec.epochs
	}
	n := len(c.events)
	c.lent = max(c.lent, n)
	return c.events[i:n:n]
}

// watch starts watching id's events for changes from a whole read on: a
// tail the reader keeps afterwards (keepTail) is valid only when no event
// before it changes between the read and then. A tail kept is left as it
// is, its changes seen: it may be another reader's, and its reader finds
// it changed, or refuses a tail once (keepTail deletes it). ec.mu is
// held.
func (ec *eventCache) watch(id ID) {
	if ec.closed {
		return
	}
	switch m := ec.marks[id]; {
	case m == nil:
		ec.marks[id] = &tailMark{low: math.MaxUint64}
	case m.from == 0:
		m.low = math.MaxUint64
	}
}

// lendTail is lend for the events from seq from on, when from is the tail
// kept of id (keepTail) and no event before it changed since: ok false
// says the mark is gone (the reader reads everything again). loaded false
// says the cache does not hold them: the reader reads them from the file
// (reading, installTail).
func (ec *eventCache) lendTail(id ID, from uint64) (evs []Event, epoch uint64, ok, loaded bool) {
	ec.mu.Lock()
	defer ec.mu.Unlock()
	m := ec.marks[id]
	if ec.closed || m == nil || m.from != from || m.low < from {
		delete(ec.marks, id)
		return nil, 0, false, false
	}
	m.low = math.MaxUint64
	c := ec.convs[id]
	if c == nil || !c.loaded || c.inflight > 0 || c.from > from {
		return nil, 0, true, false
	}
	i, _ := c.find(from)
	evs = ec.lendFrom(c, i)
	return evs, c.epoch, true, true
}

// keepTail records that the reader of id keeps only the events from seq
// from on, and drops the cached events before it: it reports false, and
// keeps no mark, when an event before from changed since the reader read
// (watch), so what the reader knows of them is out of date.
func (ec *eventCache) keepTail(id ID, from uint64) bool {
	ec.mu.Lock()
	defer ec.mu.Unlock()
	m := ec.marks[id]
	if ec.closed || m == nil || m.low < from {
		delete(ec.marks, id)
		return false
	}
	m.from, m.low = from, math.MaxUint64
	c := ec.convs[id]
	if c != nil && c.loaded && c.from < from {
		i, _ := c.find(from)
		// A copy: a slice of the old array would keep all of it.
		c.events = append(make([]Event, 0, len(c.events)-i+spareEvents), c.events[i:]...)
		c.from, c.lent, c.epoch = from, 0, 0
	}
	return true
}

// own makes events[i] safe to write in place: when a lent slice holds it,
// the cache's events are copied first (once; later writes find them its
// own). Writes to the events a turn adds after reading (its streamed
// reply) are past what was lent and copy nothing.
func (c *convCache) own(i int) {
	if i < c.lent {
		c.events = append(make([]Event, 0, len(c.events)+spareEvents), c.events...)
		c.lent, c.epoch = 0, 0 // the next lend numbers the copy anew
	}
}

// reading marks the start of a read of id from the file.
func (ec *eventCache) reading(id ID) cacheRead {
	ec.mu.Lock()
	defer ec.mu.Unlock()
	if ec.closed || ec.max < 0 {
		return cacheRead{}
	}
	c := ec.conv(id)
	return cacheRead{c: c, started: c.started, ok: c.inflight == 0}
}

// install keeps events read under r, unless a write began since: the
// events from seq from on (0: all). A longer history does not replace a
// tail held (keepTail).
func (ec *eventCache) install(id ID, r cacheRead, events []Event, from uint64) {
	ec.mu.Lock()
	defer ec.mu.Unlock()
	c := ec.convs[id]
	if !r.ok || ec.closed || c != r.c || c.started != r.started || c.inflight > 0 {
		ec.forget(id, c)
		return
	}
	if c.loaded && from < c.from {
		return
	}
	ec.tick++
	c.events, c.loaded, c.used, c.streams, c.lent, c.epoch = slices.Clone(events), true, ec.tick, nil, 0, 0
	c.from = from
	ec.evict()
}

// begin marks the start of a write to id's events.
// low is the lowest event it changes in place or removes (0: it only
// appends).
func (ec *eventCache) begin(id ID, low uint64) cacheWrite {
	ec.mu.Lock()
	defer ec.mu.Unlock()
	c := ec.conv(id)
	c.started++
	c.inflight++
	return cacheWrite{c: c, id: id, start: c.started, solo: c.inflight == 1, low: low}
}

// end marks the end of write w: when it committed (ok) and was the
// conversation's only write throughout, apply changes the cached events
// (when held); otherwise they are dropped.
func (ec *eventCache) end(w cacheWrite, ok bool, apply func(*convCache)) {
	ec.mu.Lock()
	defer ec.mu.Unlock()
	c := w.c
	c.inflight--
	if m := ec.marks[w.id]; m != nil && w.low != 0 {
		m.low = min(m.low, w.low)
	}
	if ec.convs[w.id] != c {
		return // the conversation was deleted meanwhile
	}
	switch {
	case !c.loaded:
	case w.low != 0 && w.low < c.from:
		c.unload() // a change before the tail held
	case ok && w.solo && c.started == w.start:
		apply(c)
	default:
		c.unload()
	}
	ec.forget(w.id, c)
}

// drop removes id altogether (the conversation is gone). A write still in
// flight finds its entry gone and leaves it so.
func (ec *eventCache) drop(id ID) {
	ec.mu.Lock()
	defer ec.mu.Unlock()
	delete(ec.convs, id)
	delete(ec.marks, id)
}

// close empties the cache and keeps it empty: Events after Close reads the
// file, which says the database is closed.
func (ec *eventCache) close() {
	ec.mu.Lock()
	defer ec.mu.Unlock()
	ec.closed = true
	clear(ec.convs)
	clear(ec.marks)
}

// conv returns id's entry, made when missing. ec.mu is held.
func (ec *eventCache) conv(id ID) *convCache {
	c := ec.convs[id]
	if c == nil {
		c = &convCache{}
		ec.convs[id] = c
	}
	return c
}

// forget removes c when it holds nothing and nothing is in flight: a
// conversation only written, never read, keeps no entry. ec.mu is held.
func (ec *eventCache) forget(id ID, c *convCache) {
	if c != nil && !c.loaded && c.inflight == 0 && ec.convs[id] == c {
		delete(ec.convs, id)
	}
}

// evict keeps at most max conversations loaded, dropping the least
// recently used. ec.mu is held.
func (ec *eventCache) evict() {
	n := 0
	for _, c := range ec.convs {
		if c.loaded {
			n++
		}
	}
	for ; n > ec.max; n-- {
		var oldID ID
		var old *convCache
		for id, c := range ec.convs {
			if c.loaded && (old == nil || c.used < old.used) {
				oldID, old = id, c
			}
		}
		old.unload()
		ec.forget(oldID, old)
	}
}

// unload forgets the events.
func (c *convCache) unload() {
	c.events, c.loaded, c.streams, c.lent, c.epoch, c.from = nil, false, nil, 0, 0, 0
}

// find is the index of event seq in c.events.
func (c *convCache) find(seq uint64) (int, bool) {
	return slices.BinarySearchFunc(c.events, seq, func(x Event, seq uint64) int { return cmpU64(x.Seq, seq) })
}

// appendEvent adds e, just stored, to the cached events.
func appendEvent(e Event) func(*convCache) {
	return func(c *convCache) { c.events = append(c.events, e) }
}

// setEvent replaces the cached event e.Seq (a finished or updated reply).
func setEvent(e Event) func(*convCache) {
	return func(c *convCache) {
		if i, ok := c.find(e.Seq); ok {
			c.own(i)
			c.events[i] = e
		}
		delete(c.streams, e.Seq)
	}
}

// appendText adds a streamed piece to the cached event seq.
func appendText(seq uint64, piece string) func(*convCache) {
	return func(c *convCache) {
		i, ok := c.find(seq)
		if !ok || piece == "" {
			return
		}
		b := c.streams[seq]
		if b == nil || b.Len() != len(c.events[i].Text) {
			b = &strings.Builder{}
			b.WriteString(c.events[i].Text)
			if c.streams == nil {
				c.streams = map[uint64]*strings.Builder{}
			}
			c.streams[seq] = b
		}
		b.WriteString(piece)
		c.own(i)
		c.events[i].Text = b.String()
	}
}

// truncateAt drops the cached events from seq on.
func truncateAt(seq uint64) func(*convCache) {
	return func(c *convCache) {
		i, _ := c.find(seq)
		c.own(i)
		clear(c.events[i:])
		c.events = c.events[:i]
		for s := range c.streams {
			if s >= seq {
				delete(c.streams, s)
			}
		}
	}
}

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
