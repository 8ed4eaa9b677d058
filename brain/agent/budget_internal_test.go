package agent

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// referenceFit is Fit as it was before it was made linear: it re-copies,
// re-summarises and re-counts the history for every candidate. The tests
// check the linear Fit against it.
func referenceFit(msgs []provider.Message, limit, fixed int, count func(string) int) ([]provider.Message, FitReport) {
	out := append([]provider.Message(nil), msgs...)
	size := func(m provider.Message) int { return msgSize(&m, count) }
	total := fixed
	for _, m := range out {
		total += size(m)
	}
	rep := FitReport{Tokens: total}
	if limit <= 0 || total <= limit {
		return out, rep
	}
	cur := 0
	for i := len(out) - 1; i >= 0; i-- {
		if out[i].Role == provider.RoleUser {
			cur = i
			break
		}
	}
	var cands []int
	for i := 0; i < cur; i++ {
		if out[i].Role == provider.RoleTool && len(out[i].Content) >= trimMinBytes {
			cands = append(cands, i)
		}
	}
	need, saved := 0, 0
	for _, i := range cands {
		if total-saved <= limit {
			break
		}
		saved += size(out[i]) - size(trimmed(out[i]))
		need++
	}
	if need > 0 {
		need = min(len(cands), (need+trimBatch-1)/trimBatch*trimBatch)
		for _, i := range cands[:need] {
			total -= size(out[i])
			out[i] = trimmed(out[i])
			total += size(out[i])
		}
		rep.Trimmed = need
	}
	if total > limit && cur > 0 {
		var starts []int
		for i := 0; i < cur; i++ {
			if out[i].Role == provider.RoleUser || i == 0 {
				starts = append(starts, i)
			}
		}
		starts = append(starts, cur)
		best := 0
		var bestMsgs []provider.Message
		for k := 1; k < len(starts); k++ {
			if k%dropBatch != 0 && k != len(starts)-1 {
				continue
			}
			cand := append([]provider.Message(nil), out[starts[k]:]...)
			cand[0].Content = Summarize(out[:starts[k]]) + "\n\n" + cand[0].Content
			t := fixed
			for _, m := range cand {
				t += size(m)
			}
			best, bestMsgs = k, cand
			if t <= limit {
				break
			}
		}
		if best > 0 {
			cur -= starts[best]
			out = bestMsgs
			rep.Dropped = best
			total = fixed
			for _, m := range out {
				total += size(m)
			}
		}
	}
	if total > limit {
		last := len(out)
		for i := len(out) - 1; i > cur; i-- {
			if out[i].Role == provider.RoleAssistant {
				last = i
				break
			}
		}
		for i := cur; i < last && total > limit; i++ {
			if out[i].Role == provider.RoleTool && len(out[i].Content) >= trimMinBytes {
				total -= size(out[i])
				out[i] = trimmed(out[i])
				total += size(out[i])
				rep.Trimmed++
			}
		}
	}
	rep.Tokens = total
	rep.Over = total > limit
	return out, rep
}

func byteCount(s string) int { return len(s) }

var words = strings.Fields("the quick brown fox jumps over a lazy dog while reading files and sending mail xq7z 42 λόγος")

func randText(r *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(words[r.IntN(len(words))])
		b.WriteByte(" \n"[r.IntN(2)])
	}
	return b.String()
}

// randEvents is a random stored history of turns, with tool rounds,
// results short and long, calls left unanswered, errors and usage events;
// the last turn stops after a tool result when stopInTool.
func randEvents(r *rand.Rand, turns int, stopInTool bool) []store.Event {
	var ev []store.Event
	add := func(e store.Event) { e.Seq = uint64(len(ev) + 1); ev = append(ev, e) }
	if r.IntN(4) == 0 { // a history that starts with the model talking
		add(store.Event{Type: store.EventAssistantText, Text: randText(r, 40)})
	}
	call := 0
	for t := 0; t < turns; t++ {
		add(store.Event{Type: store.EventUserMessage, Text: randText(r, 10+r.IntN(300))})
		rounds := r.IntN(4)
		for s := 0; s < rounds; s++ {
			if r.IntN(2) == 0 {
				add(store.Event{Type: store.EventAssistantText, Text: randText(r, r.IntN(200))})
			}
			nc := 1 + r.IntN(3)
			var ids []string
			for c := 0; c < nc; c++ {
				call++
				id := fmt.Sprintf("c%d", call)
				ids = append(ids, id)
				add(store.Event{Type: store.EventToolCall, ToolCallID: id, ToolName: []string{"fs_read", "mail_send", "web_get"}[r.IntN(3)],
					Arguments: json.RawMessage(fmt.Sprintf(`{"path":%q}`, randText(r, r.IntN(60))))})
			}
			for _, id := range ids {
				if r.IntN(10) == 0 {
					continue // never answered: replayed as interrupted
				}
				size := r.IntN(200)
				if r.IntN(2) == 0 {
					size = 256 + r.IntN(3000)
				}
				add(store.Event{Type: store.EventToolResult, ToolCallID: id, Text: randText(r, size), IsError: r.IntN(8) == 0})
			}
			if r.IntN(6) == 0 {
				add(store.Event{Type: store.EventUsage})
			}
		}
		if t == turns-1 && stopInTool {
			break
		}
		if r.IntN(8) == 0 {
			add(store.Event{Type: store.EventError, Text: "boom", IsError: true})
		} else {
			add(store.Event{Type: store.EventAssistantText, Text: randText(r, 5+r.IntN(400))})
		}
	}
	return ev
}

func fullSize(msgs []provider.Message, count func(string) int) int {
	n := 0
	for i := range msgs {
		n += msgSize(&msgs[i], count)
	}
	return n
}

// Fit makes the same request as the quadratic reference, for random
// histories, limits from generous to impossible, both counters, and when
// the same fitter is reused for a growing history.
func TestFitMatchesReference(t *testing.T) {
	counters := map[string]func(string) int{"bytes": byteCount, "estimate": cerebellum.EstimateTokens}
	for name, count := range counters {
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(14, 1))
			for iter := 0; iter < 300; iter++ {
				msgs := store.ToMessages(randEvents(r, 1+r.IntN(40), r.IntN(2) == 0))
				full := fullSize(msgs, count)
				fixed := r.IntN(500)
				for _, limit := range []int{0, full + fixed + 10, (full + fixed) * 9 / 10, full / 2, full / 5, full / 20, 300, 50} {
					want, wrep := referenceFit(msgs, limit, fixed, count)
					got, grep := Fit(msgs, limit, fixed, count)
					if grep != wrep || !reflect.DeepEqual(got, want) {
						t.Fatalf("iter %d, %d messages, limit %d: got %+v, want %+v (messages equal: %v)",
							iter, len(msgs), limit, grep, wrep, reflect.DeepEqual(got, want))
					}
				}
			}
		})
	}
}

// The requests of a turn, prepared incrementally from its growing events,
// are the ones the reference makes from the whole history each time.
func TestRequestHistoryMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 2))
	for iter := 0; iter < 60; iter++ {
		ev := randEvents(r, 2+r.IntN(40), false)
		limit := fullSize(store.ToMessages(ev), byteCount) / (1 + r.IntN(8))
		var h requestHistory
		// The turn: a new user message, then steps of calls and results.
		ev = append(ev, store.Event{Type: store.EventUserMessage, Text: "now " + randText(r, 30)})
		more := randEvents(r, 1, true)[1:]
		for step := 0; step <= len(more); step++ {
			if step > 0 {
				ev = append(ev, more[step-1])
			}
			want, wrep := referenceFit(store.ToMessages(ev), limit, 100, byteCount)
			got, grep, _ := h.prepare(ev, nil, limit, 100, byteCount)
			if grep != wrep || !reflect.DeepEqual(got, want) {
				t.Fatalf("iter %d step %d: got %+v, want %+v", iter, step, grep, wrep)
			}
		}
		// Kept on into a next turn, it still prepares the same requests.
		for _, e := range append([]store.Event{{Type: store.EventUserMessage, Text: "and then?"}}, randEvents(r, 1, true)[1:]...) {
			e.Seq = uint64(len(ev) + 1)
			ev = append(ev, e)
			want, wrep := referenceFit(store.ToMessages(ev), limit, 100, byteCount)
			if got, grep, _ := h.prepare(ev, nil, limit, 100, byteCount); grep != wrep || !reflect.DeepEqual(got, want) {
				t.Fatalf("iter %d, next turn at %d events: got %+v, want %+v", iter, len(ev), grep, wrep)
			}
		}
	}
}

// history5000 is a 5,000-message history: turns of a question, a tool
// call, a 2 KB result and an answer, after a greeting; the last turn
// stops after its result.
func history5000() []store.Event {
	var ev []store.Event
	add := func(e store.Event) { e.Seq = uint64(len(ev) + 1); ev = append(ev, e) }
	result := strings.Repeat("line of tool output with some words in it\n", 48)
	add(store.Event{Type: store.EventAssistantText, Text: "Hello! What shall we do today?"})
	for i := 0; len(ev) < 5000; i++ {
		id := fmt.Sprintf("c%d", i)
		add(store.Event{Type: store.EventUserMessage, Text: fmt.Sprintf("question %d: please read the file and tell me what it says", i)})
		add(store.Event{Type: store.EventToolCall, ToolCallID: id, ToolName: "fs_read", Arguments: json.RawMessage(`{"path":"notes/today.md"}`)})
		add(store.Event{Type: store.EventToolResult, ToolCallID: id, ToolName: "fs_read", Text: result})
		add(store.Event{Type: store.EventAssistantText, Text: fmt.Sprintf("answer %d: the file lists the plans for the day and who does what", i)})
	}
	return ev[:len(ev)-1]
}

// countingEstimator is the default estimator, counting its calls.
type countingEstimator struct{ calls int }

func (c *countingEstimator) count(s string) int { c.calls++; return cerebellum.EstimateTokens(s) }

// limit32k is the budget of a 32k-token window.
var limit32k = Limit(32000)

// Preparing a request from 5,000 messages allocates a bounded amount (the
// quadratic version allocated 176 MB), and a further request of the same
// turn counts only the messages added.
func TestPrepare5000Incremental(t *testing.T) {
	ev := history5000()
	if n := len(store.ToMessages(ev)); n != 5000 {
		t.Fatalf("%d messages", n)
	}
	var est countingEstimator
	var h requestHistory
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	msgs, rep, _ := h.prepare(ev, nil, limit32k, 3000, est.count)
	runtime.ReadMemStats(&after)
	if rep.Dropped == 0 || rep.Over || rep.Tokens > limit32k {
		t.Fatalf("report %+v", rep)
	}
	if mb := float64(after.TotalAlloc-before.TotalAlloc) / (1 << 20); mb > 8 {
		t.Errorf("the first request allocated %.1f MB, want at most 8", mb)
	}
	// Only what is kept is counted: about a tenth of the history.
	if est.calls >= 2000 || est.calls < len(msgs) {
		t.Errorf("the first request counted %d strings for %d kept messages", est.calls, len(msgs))
	}

	// The model calls another tool: one call and one result more.
	first := est.calls
	ev = append(ev,
		store.Event{Seq: uint64(len(ev) + 1), Type: store.EventToolCall, ToolCallID: "x1", ToolName: "fs_read", Arguments: json.RawMessage(`{"path":"b"}`)},
		store.Event{Seq: uint64(len(ev) + 2), Type: store.EventToolResult, ToolCallID: "x1", ToolName: "fs_read", Text: "short"})
	runtime.GC()
	runtime.ReadMemStats(&before)
	msgs2, rep2, _ := h.prepare(ev, nil, limit32k, 3000, est.count)
	runtime.ReadMemStats(&after)
	// The new assistant message (content, name, arguments) and the result.
	if added := est.calls - first; added > 4 {
		t.Errorf("the second request counted %d strings, want only the 2 new messages' (4)", added)
	}
	if mb := float64(after.TotalAlloc-before.TotalAlloc) / (1 << 20); mb > 2 {
		t.Errorf("the second request allocated %.1f MB, want at most 2", mb)
	}
	want, wrep := referenceFit(store.ToMessages(ev), limit32k, 3000, cerebellum.EstimateTokens)
	if rep2 != wrep || !reflect.DeepEqual(msgs2, want) {
		t.Errorf("second request differs from the reference: %+v vs %+v", rep2, wrep)
	}
}

// Allocations of a request from 5,000 messages, counted: a first request
// of a turn converts the history once; a further one reconverts only the
// current turn.
func TestPrepare5000Allocs(t *testing.T) {
	ev := history5000()
	first := testing.AllocsPerRun(5, func() {
		var h requestHistory
		h.prepare(ev, nil, limit32k, 3000, cerebellum.EstimateTokens)
	})
	var h requestHistory
	h.prepare(ev, nil, limit32k, 3000, cerebellum.EstimateTokens)
	again := testing.AllocsPerRun(5, func() { h.prepare(ev, nil, limit32k, 3000, cerebellum.EstimateTokens) })
	// ToMessages allocates a few times per turn of the history.
	if first > 20000 {
		t.Errorf("first request: %.0f allocations", first)
	}
	if again > 50 {
		t.Errorf("further request: %.0f allocations, want a handful", again)
	}
}

func BenchmarkPrepareRequest(b *testing.B) {
	ev := history5000()
	b.Run("first-of-turn/5000", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var h requestHistory
			h.prepare(ev, nil, limit32k, 3000, cerebellum.EstimateTokens)
		}
	})
	b.Run("further/5000", func(b *testing.B) {
		var h requestHistory
		h.prepare(ev, nil, limit32k, 3000, cerebellum.EstimateTokens)
		b.ReportAllocs()
		for b.Loop() {
			h.prepare(ev, nil, limit32k, 3000, cerebellum.EstimateTokens)
		}
	})
	b.Run("reference/5000", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			referenceFit(store.ToMessages(ev), limit32k, 3000, cerebellum.EstimateTokens)
		}
	})
}

// clip gives what joining the words of a text and cutting it to
// summaryChars runes gives, without splitting the whole text into words.
func TestClipIsTheWordsCut(t *testing.T) {
	old := func(s string) string {
		s = strings.Join(strings.Fields(s), " ")
		if utf8.RuneCountInString(s) <= summaryChars {
			return s
		}
		return string([]rune(s)[:summaryChars-1]) + "…"
	}
	long := strings.Repeat("An answer of a few words. ", 20)
	cases := []string{
		"", " ", "word", "  two\twords \n", long, "\n\n" + long + "\n",
		strings.Repeat("x", summaryChars-1), strings.Repeat("x", summaryChars), strings.Repeat("x", summaryChars+1),
		strings.Repeat("x", summaryChars-2) + " y", strings.Repeat("x", summaryChars-1) + " y", strings.Repeat("x", summaryChars-1) + "   y z",
		strings.Repeat("x", summaryChars-2) + "  yz", strings.Repeat("é", summaryChars+5), strings.Repeat("日本 ", 70),
		"bad \xff bytes " + long, long[:200] + "\xff\xfe" + long, "\u00a0nbsp\u0085next\u2003em",
		strings.Repeat("x", summaryChars-1) + "\xff" + long,
	}
	for i := range 300 {
		cases = append(cases, strings.Repeat("ab ", i/3)+strings.Repeat("c", i%7)+"  \t"+strings.Repeat("é", i%5))
	}
	for _, s := range cases {
		if got, want := clip(s), old(s); got != want {
			t.Errorf("clip(%q)\n got %q\nwant %q", s, got, want)
		}
	}
}
