package agent

import (
	"bytes"
	"reflect"
	"slices"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
)

// spareTurnEvents is the room left after a history copied for a turn, so
// the turn's own events do not copy it again.
const spareTurnEvents = 32

// keptEvents is what a conversation's last turn ended with, for the next
// turn to continue (Memory): its events, and how many of them it read
// from the store (lent) as SharedEvents lent them under epoch.
type keptEvents struct {
	events []store.Event
	lent   int
	epoch  uint64
}

// resumeEvents is the history a turn runs on: read is the conversation as
// the store has it now, lent under epoch (SharedEvents: the store's own
// slice, read-only), kept what the conversation's last turn ended with.
// When read begins with exactly kept's events, the turn continues them,
// adding only what came after, so a late turn does not copy a history
// that grows all day; otherwise (an edit, a resend, a version switch, a
// redaction, a compaction, the memory evicted) it copies read. Either way
// the result is the turn's own to append to, and holds the same events as
// read.
//
// What the last turn read is not compared again when the store lent the
// same slice (the same epoch): the store never changes lent events in
// place, and a turn never changes the events it read (turn.replace).
// Only the events the last turn added are compared, and everything when
// the epochs differ.
func resumeEvents(kept keptEvents, read []store.Event, epoch uint64) []store.Event {
	k := kept.events
	if len(k) > 0 && len(read) >= len(k) {
		from := 0
		if epoch != 0 && epoch == kept.epoch && kept.lent <= len(k) {
			from = kept.lent
		}
		if identicalEvents(read[from:len(k)], k[from:]) {
			return append(k, read[len(k):]...)
		}
	}
	return append(make([]store.Event, 0, len(read)+spareTurnEvents), read...)
}

// identicalEvents reports whether a and b hold the same events, every
// field compared (identicalEventFields names them; a test checks it is
// all of store.Event's). The store's cached events share their strings
// and slices with the ones the turn kept, so for an unchanged history each
// comparison is a pointer check.
func identicalEvents(a, b []store.Event) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !identicalEvent(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

// identicalEventFields is how many fields identicalEvent compares.
const identicalEventFields = 18

func identicalEvent(x, y *store.Event) bool {
	return x.Seq == y.Seq && x.Type == y.Type && x.Time.Equal(y.Time) && x.Text == y.Text &&
		x.ToolCallID == y.ToolCallID && x.ToolName == y.ToolName && bytes.Equal(x.Arguments, y.Arguments) &&
		x.IsError == y.IsError && samePointee(x.Decision, y.Decision) && samePointee(x.Usage, y.Usage) &&
		x.Model == y.Model && x.Status == y.Status &&
		slices.EqualFunc(x.Images, y.Images, func(p, q provider.Image) bool {
			return p.MIMEType == q.MIMEType && bytes.Equal(p.Data, q.Data)
		}) &&
		slices.Equal(x.ToolRefs, y.ToolRefs) && x.ParentCallID == y.ParentCallID && samePointee(x.Fix, y.Fix) &&
		x.Signature == y.Signature && x.Redacted == y.Redacted
}

// samePointee compares what two pointers point at (the same pointer, as
// cached events share, costs nothing).
func samePointee[T any](p, q *T) bool {
	if p == q {
		return true
	}
	if p == nil || q == nil {
		return false
	}
	return reflect.DeepEqual(*p, *q)
}
