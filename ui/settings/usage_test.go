package settings

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
)

// selectUsage shows the Usage tab.
func (h *harness) selectUsage() {
	h.t.Helper()
	for _, it := range h.s.tabs.Items {
		if it.Text == "Usage" {
			h.s.tabs.Select(it)
			return
		}
	}
	h.t.Fatal("no Usage tab")
}

// TestUsagePage: the page lists tokens by day and model with the cache
// apart and their cost, follows new use, and its price table is edited
// there, through the core.
func TestUsagePage(t *testing.T) {
	h := newHarness(t, nil)
	// A server elsewhere: a model with no price shows "?".
	if _, err := h.core.SetConfig("provider", "anthropic"); err != nil {
		t.Fatal(err)
	}
	h.selectUsage()
	if !strings.Contains(h.screenText(), "No tokens used yet") {
		t.Fatalf("empty page:\n%s", h.screenText())
	}
	db := h.core.Engine().DB
	c, _ := db.CreateConversation("claude-sonnet-4-5")
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	add := func(model string, u provider.Usage) {
		if _, err := db.AppendEvent(c.ID, store.Event{Type: store.EventUsage, Time: at, Model: model, Usage: &u}); err != nil {
			t.Fatal(err)
		}
	}
	add("claude-sonnet-4-5", provider.Usage{InputTokens: 1_000_000, OutputTokens: 100_000, CachedTokens: 500_000})
	add("house-model", provider.Usage{InputTokens: 2000, OutputTokens: 10})
	// A change the core publishes (here a rename) brings the page up to date.
	if err := h.core.RenameConversation(c.ID, "costly"); err != nil {
		t.Fatal(err)
	}
	text := h.screenText()
	day := at.Local().Format(time.DateOnly)
	for _, want := range []string{day, "claude-sonnet-4-5", "1,000,000", "500,000", "100,000", "$3.15", "house-model", "?", "All days: 1,002,000 in"} {
		if !strings.Contains(text, want) {
			t.Errorf("the page lacks %q:\n%s", want, text)
		}
	}
	// Price the house model and save: its cost shows.
	h.tap("Add a model")
	rows := h.s.usage.rows
	last := rows[len(rows)-1]
	last.model.SetText("house-model")
	last.input.SetText("$1")
	last.output.SetText("2")
	h.tap("Save prices")
	if _, ok := priced(h.core.Prices(), "house-model"); !ok {
		t.Fatalf("not saved: %+v", h.core.Prices())
	}
	if got := h.s.usage.report.Total; got.Unpriced || !strings.Contains(h.screenText(), "Prices saved") {
		t.Errorf("after pricing: %+v\n%s", got, h.screenText())
	}
	// A bad number is named, and nothing changes. (Saving filled the
	// editor again from the core's table.)
	rows = h.s.usage.rows
	last = rows[len(rows)-1]
	if last.model.Text != "house-model" {
		t.Fatalf("the editor's last row is %q", last.model.Text)
	}
	last.output.SetText("two")
	h.tap("Save prices")
	if !strings.Contains(h.screenText(), "house-model's output price \"two\" is not a number") {
		t.Errorf("bad price:\n%s", h.screenText())
	}
	test.Tap(h.button("Back to the defaults"))
	if _, ok := priced(h.core.Prices(), "house-model"); ok || len(h.s.usage.rows) != len(assistant.DefaultPrices()) {
		t.Errorf("reset: %d rows", len(h.s.usage.rows))
	}
}

func priced(prices []assistant.Price, model string) (assistant.Price, bool) {
	for _, p := range prices {
		if p.Model == model {
			return p, true
		}
	}
	return assistant.Price{}, false
}
