package agent

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// decorate adds pictures to some user messages and tool results, and
// approval events after some calls.
func decorate(r *rand.Rand, ev []store.Event) []store.Event {
	var out []store.Event
	for _, e := range ev {
		if (e.Type == store.EventUserMessage || e.Type == store.EventToolResult) && r.IntN(12) == 0 {
			e.Images = []provider.Image{{MIMEType: "image/png", Data: []byte{1, 2, 3}}}
		}
		e.Seq = uint64(len(out) + 1)
		out = append(out, e)
		if e.Type == store.EventToolCall && r.IntN(5) == 0 {
			out = append(out, store.Event{Seq: uint64(len(out) + 1), Type: store.EventApproval, ToolCallID: e.ToolCallID,
				Decision: &store.Decision{Kind: store.ApprovedConversation}})
		}
	}
	return out
}

// userEvents are the indices of the user messages of ev.
func userEvents(ev []store.Event) []int {
	var out []int
	for i, e := range ev {
		if e.Type == store.EventUserMessage {
			out = append(out, i)
		}
	}
	return out
}

// Fitting a tail of a history (from any user message on, with the base
// of what came before) either says it is too short or makes exactly the
// request fitting the whole history makes (Fit, which
// TestFitMatchesReference checks against the reference): random histories with tool
// rounds, long results, pictures, errors, approvals and a greeting first,
// limits from generous to tiny, both counters.
func TestTailFitMatchesWhole(t *testing.T) {
	counters := map[string]func(string) int{"bytes": byteCount, "estimate": cerebellum.EstimateTokens}
	for name, count := range counters {
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(24, 1))
			fitted, checked := 0, 0
			for iter := 0; iter < 25; iter++ {
				ev := decorate(r, randEvents(r, 30+r.IntN(120), r.IntN(2) == 0))
				all := store.ToMessages(ev)
				full := fullSize(all, count)
				fixed := r.IntN(500)
				users := userEvents(ev)
				for _, limit := range []int{0, full + fixed + 10, full / 2, full / 5, full / 12, full / 30, 300} {
					want, wrep := Fit(all, limit, fixed, count) // the whole history, as today
					for _, u := range users[1:] {
						if r.IntN(3) != 0 {
							continue
						}
						// The messages before the tail are those of the
						// events before it.
						c := len(store.ToMessages(ev[:u]))
						tailMsgs := store.ToMessages(ev[u:])
						if !reflect.DeepEqual(tailMsgs, all[c:]) {
							t.Fatalf("iter %d: the tail's messages are not the last of the whole's", iter)
						}
						base := (*tailBase)(nil).extend(all[:c])
						var f fitter
						got, grep, ok := f.fit(tailMsgs, &base, limit, fixed, count)
						checked++
						if !ok {
							continue
						}
						fitted++
						if grep != wrep || !reflect.DeepEqual(got, want) {
							t.Fatalf("iter %d, limit %d, tail from message %d of %d: got %+v, want %+v (messages equal: %v)",
								iter, limit, c, len(all), grep, wrep, reflect.DeepEqual(got, want))
						}
					}
				}
			}
			if fitted < checked/10 {
				t.Fatalf("only %d of %d tails were long enough: the test tells little", fitted, checked)
			}
			t.Logf("%d of %d tails fitted", fitted, checked)
		})
	}
}

// A requestHistory that cuts its events after each turn, as a turn keeps
// them, prepares the requests preparing the whole history makes, turn
// after turn, and does cut: the random histories, then history5000.
func TestRequestHistoryCutMatchesWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 2))
	run := func(t *testing.T, ev []store.Event, limit int, turns int, count func(string) int) (cuts int) {
		var h requestHistory
		var base *tailBase
		held := ev // the events held: a tail of ev
		for turn := 0; turn < turns; turn++ {
			next := append([]store.Event{{Type: store.EventUserMessage, Text: "now " + randText(r, 30)}}, decorate(r, randEvents(r, 1, r.IntN(2) == 0))[1:]...)
			for step, e := range next {
				e.Seq = ev[len(ev)-1].Seq + 1
				ev = append(ev, e)
				held = append(held, e)
				if step > 0 && e.Type != store.EventToolResult && step != len(next)-1 {
					continue
				}
				want, wrep := Fit(store.ToMessages(ev), limit, 100, count)
				got, grep, ok := h.prepare(held, base, limit, 100, count)
				if !ok {
					// Too short: the turn prepares from everything.
					held, base, h = ev, nil, requestHistory{}
					got, grep, _ = h.prepare(held, nil, limit, 100, count)
				}
				if grep != wrep || !reflect.DeepEqual(got, want) {
					t.Fatalf("turn %d step %d (%d events held of %d): got %+v, want %+v", turn, step, len(held), len(ev), grep, wrep)
				}
			}
			if e, c, nb := h.cut(held, base, limit, count); e > 0 {
				held = append([]store.Event(nil), held[e:]...)
				h.drop(e, c, held)
				base = &nb
				cuts++
			}
		}
		return cuts
	}
	cuts := 0
	for iter := 0; iter < 30; iter++ {
		ev := decorate(r, randEvents(r, 100+r.IntN(200), false))
		limit := fullSize(store.ToMessages(ev), byteCount) / (4 + r.IntN(12))
		cuts += run(t, ev, limit, 12, byteCount)
	}
	if cuts == 0 {
		t.Error("no random history was ever cut")
	}
	ev := history5000()
	ev = ev[:len(ev)-2] // end after an answer
	if run(t, ev, limit32k, 6, cerebellum.EstimateTokens) == 0 {
		t.Error("history5000 was not cut")
	}
}
