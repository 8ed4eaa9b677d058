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

// resumeEvents is the history a turn runs on: read is the conversation as
// the store has it now (SharedEvents: the store's own slice, read-only),
// kept the history the conversation's previous turn ended with (Memory;
// nil when none). When read begins with exactly kept, the turn continues
// kept, adding only what came after it, so a late turn does not copy a
// history that grows all day; otherwise (an edit, a resend, a version
// switch, a redaction, a compaction, another turn's memory evicted) it
// copies read. Either way the result is the turn's own to append to, and
// holds the same events as read.
func resumeEvents(kept, read []store.Event) []store.Event {
	if len(kept) > 0 && len(read) >= len(kept) && identicalEvents(read[:len(kept)], kept) {
		return append(kept, read[len(kept):]...)
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
