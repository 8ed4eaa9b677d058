package agent

import (
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
	fit  fitter
}

// prepare returns the messages of a request from events, fitted within
// limit (0: no fitting) beside fixed tokens, counted with count.
func (h *requestHistory) prepare(events []store.Event, limit, fixed int, count func(string) int) ([]provider.Message, FitReport) {
	u := 0
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type == store.EventUserMessage {
			u = i
			break
		}
	}
	if u < h.done || (h.done > 0 && events[h.done].Type != store.EventUserMessage) {
		*h = requestHistory{fit: h.fit} // not the history it converted
	}
	switch {
	case h.msgs == nil:
		// The first request: convert everything at once, sized once. The
		// last user message is the one converted from events[u].
		h.msgs = store.ToMessages(events)
		h.done = u
		for i := len(h.msgs) - 1; i >= 0; i-- {
			if h.msgs[i].Role == provider.RoleUser {
				h.base = i
				break
			}
		}
	case u > h.done:
		h.msgs = append(h.msgs[:h.base], store.ToMessages(events[h.done:u])...)
		h.base, h.done = len(h.msgs), u
		fallthrough
	default:
		h.msgs = append(h.msgs[:h.base], store.ToMessages(events[h.done:])...)
	}
	if limit <= 0 {
		return slices.Clone(h.msgs), FitReport{}
	}
	return h.fit.fit(h.msgs, limit, fixed, count)
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
	return r.h.prepare(events, limit, fixed, count)
}
