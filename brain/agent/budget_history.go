package agent

import (
	"bytes"
	"slices"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
)

// requestHistory prepares the messages of a turn's requests from its
// events and fits them into the budget, keeping what it converted and
// counted: the history before the turn's user message never changes during
// the turn, so it is converted once, and the fitter remembers every size,
// so each further request converts only the current turn again and counts
// only what was added.
type requestHistory struct {
	// msgs is store.ToMessages(events[:done]) (its first base messages),
	// then the current turn's messages as of the last request. It is never
	// handed out: requests get their own copy.
	msgs []provider.Message
	base int
	// done is the index of the last user message event converted into
	// base: ToMessages restarts at a user message, so converting the
	// events before it and from it separately gives the same messages.
	done int
	// from are the events base was converted from (their first done+1
	// are what counts): a later turn's events are checked against them
	// before base is reused (Memory carries it from turn to turn).
	from []store.Event
	fit  fitter
	// fitted is how many of msgs the fitter's keys are known to hold
	// without comparing them (fitter.known): the messages before base
	// as of its last fit, which nothing writes again until *h is reset.
	fitted int
}

// prepare returns the messages of a request from events, fitted within
// limit (0: no fitting) beside fixed tokens, counted with count. events
// are the conversation's from a user message on after those base
// describes (nil: all of them); ok false says they are too few to give
// the request all of them give (fitter.fit).
func (h *requestHistory) prepare(events []store.Event, base *tailBase, limit, fixed int, count func(string) int) (_ []provider.Message, _ FitReport, ok bool) {
	u := 0
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type == store.EventUserMessage {
			u = i
			break
		}
	}
	if h.msgs != nil && (u < h.done || !sameEvents(events[:h.done+1], h.from[:h.done+1])) {
		*h = requestHistory{fit: h.fit} // not the history it converted; fitted 0
	}
	switch {
	case h.msgs == nil:
		// The first request: convert everything at once, sized once. The
		// last user message is the one converted from events[u].
		h.msgs = store.ToMessages(events)
		h.done, h.from = u, events
		for i := len(h.msgs) - 1; i >= 0; i-- {
			if h.msgs[i].Role == provider.RoleUser {
				h.base = i
				break
			}
		}
	case u > h.done:
		h.msgs = append(h.msgs[:h.base], store.ToMessages(events[h.done:u])...)
		h.base, h.done, h.from = len(h.msgs), u, events
		fallthrough
	default:
		h.msgs = append(h.msgs[:h.base], store.ToMessages(events[h.done:])...)
	}
	if limit <= 0 {
		return slices.Clone(h.msgs), FitReport{}, base == nil
	}
	h.fit.known = h.fitted
	msgs, rep, ok := h.fit.fit(h.msgs, base, limit, fixed, count)
	h.fitted = h.base
	return msgs, rep, ok
}

// cut finds where the events of the last request (events, after those
// base describes) can begin for the next requests: at a user message
// tailMargin turns and a window's worth of tokens (limit, counted as the
// last fit counted) before the oldest message that fit counted, so that
// the next turns (whose count may reach a little further back, the tool
// results of this turn trimmed) find everything they read. It returns the
// index of that event, of its message and the base of the events from it
// on; 0 when the
// tail is not worth cutting (less than a quarter of it would go) or the
// last fit counted every message.
func (h *requestHistory) cut(events []store.Event, base *tailBase, limit int, count func(string) int) (int, int, tailBase) {
	f := &h.fit
	lo := f.lo
	if h.msgs == nil || lo <= 0 || limit <= 0 || len(f.keys) != len(h.msgs) || lo > len(h.msgs) {
		return 0, 0, tailBase{}
	}
	msgs := h.msgs
	turns, tokens, c := 0, 0, -1
	for i := lo - 1; i > 0; i-- {
		m := &msgs[i]
		if trimmable(m) {
			tokens += f.trimmedSizeOf(msgs, i, count)
		} else {
			tokens += f.sizeOf(msgs, i, count)
		}
		if m.Role == provider.RoleUser {
			turns++
			if turns >= 2*tailMargin && tokens >= limit {
				c = i
				break
			}
		}
	}
	if c < 0 || c < max(64, len(msgs)/4) {
		return 0, 0, tailBase{}
	}
	// The event of that user message: ToMessages makes one user message
	// of each user_message event (none is a program's), and nothing else.
	users := 0
	for i := range msgs[:c] {
		if msgs[i].Role == provider.RoleUser {
			users++
		}
	}
	e := -1
	for i := range events {
		if events[i].Type == store.EventUserMessage && events[i].ParentCallID == "" {
			if users == 0 {
				e = i
				break
			}
			users--
		}
	}
	if e <= 0 || e > h.done {
		return 0, 0, tailBase{}
	}
	return e, c, base.extend(msgs[:c])
}

// drop forgets the first e events (and the messages they made, c of
// them, before a user message): the requests from now on are prepared
// from the events after them, kept in their own array.
func (h *requestHistory) drop(e, c int, events []store.Event) {
	f := &h.fit
	h.msgs = append(make([]provider.Message, 0, len(h.msgs)-c+8), h.msgs[c:]...)
	h.base -= c
	h.done -= e
	h.fitted = max(0, h.fitted-c)
	h.from = events
	f.keys = append([]msgKey(nil), f.keys[c:]...)
	f.note = append([]string(nil), f.note[c:]...)
	f.size = append([]int(nil), f.size[c:]...)
	f.tsize = append([]int(nil), f.tsize[c:]...)
	f.head = append([]int(nil), f.head[c:]...)
	f.suf, f.starts = nil, nil
	f.lo = -1
	if f.headAt -= c; f.headAt < 0 {
		f.headAt, f.headText = -1, ""
	}
}

// sameEvents reports whether a and b hold the same events as far as
// store.ToMessages can tell. Events read from the store's cache share their
// strings and slices with the ones read before, so for an unchanged history
// each comparison is a pointer check and the walk costs little beside the
// conversion it saves.
//
// Slices of the same memory are the same events without a look at them: a
// turn continues the array of the turn before (resumeEvents) and writes
// in place only the events it recorded after the last user message
// (turn.replace), which are past what is compared here.
func sameEvents(a, b []store.Event) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) > 0 && &a[0] == &b[0] {
		return true
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.Seq != y.Seq || x.Type != y.Type || x.Status != y.Status || x.IsError != y.IsError ||
			x.Text != y.Text || x.ToolCallID != y.ToolCallID || x.ToolName != y.ToolName ||
			x.ParentCallID != y.ParentCallID || x.Signature != y.Signature || x.Redacted != y.Redacted ||
			!bytes.Equal(x.Arguments, y.Arguments) || !slices.Equal(x.ToolRefs, y.ToolRefs) ||
			!slices.EqualFunc(x.Images, y.Images, func(p, q provider.Image) bool {
				return p.MIMEType == q.MIMEType && bytes.Equal(p.Data, q.Data)
			}) {
			return false
		}
	}
	return true
}

// RequestHistory is what a turn keeps to prepare each of its requests from
// its events; exported so wrasse-bench can measure it as a turn uses it.
// The zero value is ready; it is not safe for concurrent use.
type RequestHistory struct{ h requestHistory }

// Prepare returns the messages of a request from the turn's events so far,
// fitted within limit tokens (0: not fitted) beside fixed tokens, counted
// with count (see Fit). Events may only grow between calls, as a turn's do;
// anything else makes it start over.
func (r *RequestHistory) Prepare(events []store.Event, limit, fixed int, count func(string) int) ([]provider.Message, FitReport) {
	msgs, rep, _ := r.h.prepare(events, nil, limit, fixed, count)
	return msgs, rep
}
