package assistant

import (
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

func addUsageEvent(t testing.TB, a *App, id store.ID, at time.Time, model string, u provider.Usage) {
	t.Helper()
	if _, err := a.db.AppendEvent(id, store.Event{Type: store.EventUsage, Time: at, Model: model, Usage: &u}); err != nil {
		t.Fatal(err)
	}
}

func day(t time.Time) string { return t.Local().Format(time.DateOnly) }

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestUsageByDayAndCost: use is added up by day and model across
// conversations, priced from the table with cache reads and writes apart,
// and a conversation's own total is its share.
func TestUsageByDayAndCost(t *testing.T) {
	a := openTest(t)
	// A server elsewhere: a model missing from the table has no price.
	if _, err := a.UpdateConfig(func(c *workspace.Config) error {
		c.Provider, c.BaseURL, c.Model = "anthropic", "", "claude-sonnet-4-5"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	d1 := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	d2 := d1.Add(24 * time.Hour)
	c1, _ := a.db.CreateConversation("claude-sonnet-4-5")
	c2, _ := a.db.CreateConversation("mystery")
	addUsageEvent(t, a, c1.ID, d1, "claude-sonnet-4-5", provider.Usage{InputTokens: 1_000_000, OutputTokens: 100_000, CachedTokens: 600_000, CacheWriteTokens: 200_000})
	addUsageEvent(t, a, c1.ID, d2, "claude-sonnet-4-5", provider.Usage{InputTokens: 1000, OutputTokens: 10})
	addUsageEvent(t, a, c2.ID, d2, "mystery", provider.Usage{InputTokens: 500, OutputTokens: 50})

	rep, err := a.UsageByDay()
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 3 || rep.Rows[0].Day != day(d2) || rep.Rows[2].Day != day(d1) {
		t.Fatalf("rows %+v", rep.Rows)
	}
	// Sonnet: 200k plain at $3, 600k cached at $0.30, 200k written at
	// $3.75, 100k out at $15 per million.
	want1 := 0.2*3 + 0.6*0.3 + 0.2*3.75 + 0.1*15
	if r := rep.Rows[2]; r.Model != "claude-sonnet-4-5" || !near(r.Cost, want1) || r.CachedTokens != 600_000 || r.Unpriced {
		t.Errorf("first day %+v, want cost %v", r, want1)
	}
	if d := rep.Days[day(d2)]; d.InputTokens != 1500 || !d.Unpriced {
		t.Errorf("second day %+v: want 1500 in, partly unpriced", d)
	}
	if rep.Total.OutputTokens != 100_060 || !rep.Total.Unpriced {
		t.Errorf("total %+v", rep.Total)
	}
	cu, err := a.ConversationUsage(c1.ID)
	if err != nil {
		t.Fatal(err)
	}
	if cu.InputTokens != 1_001_000 || !near(cu.Cost, want1+0.001*3+0.00001*15) || cu.Unpriced {
		t.Errorf("conversation %+v", cu)
	}

	// An edited table prices the unknown model; the defaults come back
	// with nil.
	if err := a.SetPrices(append(a.Prices(), Price{Model: "mystery", Input: 1, Output: 2})); err != nil {
		t.Fatal(err)
	}
	rep, _ = a.UsageByDay()
	if rep.Total.Unpriced || !near(rep.Days[day(d2)].Cost, 0.001*3+0.00001*15+0.0005*1+0.00005*2) {
		t.Errorf("after pricing mystery: %+v", rep.Days[day(d2)])
	}
	if err := a.SetPrices(nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := priceOf(a.Prices(), "mystery"); ok {
		t.Error("reset kept the edited row")
	}
}

func TestSetPricesRefuses(t *testing.T) {
	a := openTest(t)
	for _, bad := range [][]Price{
		{{Model: " ", Input: 1}},
		{{Model: "x", Input: -1}},
		{{Model: "x", Output: math.NaN()}},
		{{Model: "x"}, {Model: "X"}},
	} {
		if err := a.SetPrices(bad); !errors.Is(err, ErrBadPrice) {
			t.Errorf("SetPrices(%+v) = %v, want ErrBadPrice", bad, err)
		}
	}
}

// TestLocalModelsCostNothing: a model missing from the table costs
// nothing when the configured server is on this computer.
func TestLocalModelsCostNothing(t *testing.T) {
	a := openTest(t)
	if _, err := a.UpdateConfig(func(c *workspace.Config) error {
		c.Provider, c.BaseURL, c.Model = "openai", "http://127.0.0.1:1234/v1", "qwen3"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	c, _ := a.db.CreateConversation("qwen3")
	addUsageEvent(t, a, c.ID, time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), "qwen3", provider.Usage{InputTokens: 10, OutputTokens: 5})
	u, err := a.ConversationUsage(c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if u.Unpriced || !u.Local || u.Cost != 0 {
		t.Errorf("local model: %+v", u)
	}
}

// TestUsageReadsOnlyWhatChanged: an unchanged conversation is not read
// again; one that grew is read from where it grew; an edit that cut it
// back is read whole again and the cut use leaves the totals.
func TestUsageReadsOnlyWhatChanged(t *testing.T) {
	a := openTest(t)
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	c, _ := a.db.CreateConversation("m")
	other, _ := a.db.CreateConversation("m")
	addUsageEvent(t, a, other.ID, at, "m", provider.Usage{InputTokens: 1})
	if _, err := a.db.AppendEvent(c.ID, store.Event{Type: store.EventUserMessage, Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	addUsageEvent(t, a, c.ID, at, "m", provider.Usage{InputTokens: 10})
	reads := func() int { a.usage.mu.Lock(); defer a.usage.mu.Unlock(); return a.usage.reads }
	total := func() int {
		rep, err := a.UsageByDay()
		if err != nil {
			t.Fatal(err)
		}
		return rep.Total.InputTokens
	}
	if got := total(); got != 11 || reads() != 2 {
		t.Fatalf("first: %d in, %d reads", got, reads())
	}
	if got := total(); got != 11 || reads() != 2 {
		t.Fatalf("unchanged: %d in, %d reads (want no new read)", got, reads())
	}
	addUsageEvent(t, a, c.ID, at, "m", provider.Usage{InputTokens: 100})
	if got := total(); got != 111 || reads() != 3 {
		t.Fatalf("grown: %d in, %d reads", got, reads())
	}
	// Cut back to the first message and answered again.
	if _, err := a.db.TruncateFrom(c.ID, 2); err != nil {
		t.Fatal(err)
	}
	addUsageEvent(t, a, c.ID, at.Add(time.Minute), "m", provider.Usage{InputTokens: 1000})
	if got := total(); got != 1001 {
		t.Fatalf("after an edit: %d in, want 1001", got)
	}
	if err := a.db.DeleteConversation(other.ID); err != nil {
		t.Fatal(err)
	}
	if got := total(); got != 1000 {
		t.Fatalf("after a delete: %d in", got)
	}
}

// BenchmarkUsageByDay: the Usage page's repaint over 200 conversations
// of 50 replies each, none changed since the last one.
func BenchmarkUsageByDay(b *testing.B) {
	a, err := Open(Options{Workspace: b.TempDir(), Retries: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	at := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	for i := range 200 {
		c, _ := a.db.CreateConversation("m")
		for j := range 50 {
			addUsageEvent(b, a, c.ID, at.Add(time.Duration(i*50+j)*time.Hour), fmt.Sprint("model-", j%3), provider.Usage{InputTokens: 100, OutputTokens: 10})
		}
	}
	if _, err := a.UsageByDay(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := a.UsageByDay(); err != nil {
			b.Fatal(err)
		}
	}
}
