package assistant

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

// Token use and what it cost. Every reply stores a usage event (tokens in
// and out, and what the provider's prompt cache served and wrote). The
// totals by day and model are kept per conversation in a cache that
// reads only what changed: a conversation whose record (Updated,
// EventCount) is the same as last time is not read at all, and one that
// grew is read from where the cache stopped. A repaint of the Usage page
// or the chat header therefore lists the conversations' records and adds
// up a few numbers (BenchmarkUsageByDay).

// Price is what one model costs, in US dollars per million tokens.
type Price struct {
	// Model is a model name or the start of one: "claude-sonnet-4"
	// prices claude-sonnet-4-20250514 too. The longest match wins;
	// case does not matter.
	Model string `json:"model"`
	// Input is for input tokens the cache did not serve or write;
	// CacheRead for those it served, CacheWrite for those written to it.
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead,omitempty"`
	CacheWrite float64 `json:"cacheWrite,omitempty"`
}

// DefaultPrices are the list prices the providers published for a few
// well-known models when this version of Wrasse was made (US dollars per
// million tokens). Prices change: the person edits them on the Usage page
// or with `wrasse usage prices`, and the edited table is kept.
func DefaultPrices() []Price {
	return []Price{
		{Model: "claude-opus-4-5", Input: 5, Output: 25, CacheRead: 0.5, CacheWrite: 6.25},
		{Model: "claude-opus-4", Input: 15, Output: 75, CacheRead: 1.5, CacheWrite: 18.75},
		{Model: "claude-sonnet-4", Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75},
		{Model: "claude-haiku-4-5", Input: 1, Output: 5, CacheRead: 0.1, CacheWrite: 1.25},
		{Model: "claude-3-5-haiku", Input: 0.8, Output: 4, CacheRead: 0.08, CacheWrite: 1},
		{Model: "gpt-5", Input: 1.25, Output: 10, CacheRead: 0.125},
		{Model: "gpt-5-mini", Input: 0.25, Output: 2, CacheRead: 0.025},
		{Model: "gpt-4.1", Input: 2, Output: 8, CacheRead: 0.5},
		{Model: "gpt-4.1-mini", Input: 0.4, Output: 1.6, CacheRead: 0.1},
		{Model: "gpt-4o", Input: 2.5, Output: 10, CacheRead: 1.25},
		{Model: "gpt-4o-mini", Input: 0.15, Output: 0.6, CacheRead: 0.075},
	}
}

// pricesSetting is the database setting holding the edited price table
// (JSON); absent means DefaultPrices.
const pricesSetting = "usage.prices"

// ErrBadPrice refuses a price table SetPrices cannot keep.
var ErrBadPrice = errors.New("invalid price")

// Prices is the price table: the person's, else DefaultPrices.
func (a *App) Prices() []Price {
	raw, err := a.db.Setting(pricesSetting)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			a.log.Warn("reading the price table; using the defaults", "error", err)
		}
		return DefaultPrices()
	}
	var p []Price
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		a.log.Warn("the stored price table is damaged; using the defaults", "error", err)
		return DefaultPrices()
	}
	return p
}

// SetPrices replaces the price table (nil: back to DefaultPrices). Every
// row needs a model name and prices that are numbers not below zero; a
// model named twice is refused. Publishes EventConfig naming "prices".
func (a *App) SetPrices(prices []Price) error {
	if prices == nil {
		if err := a.db.DeleteSetting(pricesSetting); err != nil {
			return fmt.Errorf("reset the price table: %w", err)
		}
		a.subs.publish(Event{Kind: EventConfig, Names: []string{"prices"}})
		return nil
	}
	seen := map[string]bool{}
	clean := make([]Price, 0, len(prices))
	for i, p := range prices {
		p.Model = strings.TrimSpace(p.Model)
		key := strings.ToLower(p.Model)
		switch {
		case p.Model == "":
			return fmt.Errorf("%w: row %d has no model name; name the model or remove the row", ErrBadPrice, i+1)
		case seen[key]:
			return fmt.Errorf("%w: %s is priced twice; keep one row", ErrBadPrice, p.Model)
		}
		for _, v := range []float64{p.Input, p.Output, p.CacheRead, p.CacheWrite} {
			if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: %s: prices are dollars per million tokens, zero or more", ErrBadPrice, p.Model)
			}
		}
		seen[key] = true
		clean = append(clean, p)
	}
	raw, err := json.Marshal(clean)
	if err != nil {
		return fmt.Errorf("encode the price table: %w", err)
	}
	if err := a.db.SetSetting(pricesSetting, string(raw)); err != nil {
		return fmt.Errorf("save the price table: %w", err)
	}
	a.subs.publish(Event{Kind: EventConfig, Names: []string{"prices"}})
	return nil
}

// priceOf is model's row of prices (the longest matching name).
func priceOf(prices []Price, model string) (Price, bool) {
	m := strings.ToLower(strings.TrimSpace(model))
	best, found := Price{}, false
	for _, p := range prices {
		k := strings.ToLower(p.Model)
		if k != "" && strings.HasPrefix(m, k) && (!found || len(k) > len(best.Model)) {
			best, found = p, true
		}
	}
	return best, found
}

// Cost is what u cost at p, in US dollars: input the cache did not touch
// at Input, cache reads at CacheRead, cache writes at CacheWrite (the
// providers count both inside the input tokens), output at Output.
func (p Price) Cost(u provider.Usage) float64 {
	plain := max(u.InputTokens-u.CachedTokens-u.CacheWriteTokens, 0)
	return (float64(plain)*p.Input + float64(u.CachedTokens)*p.CacheRead +
		float64(u.CacheWriteTokens)*p.CacheWrite + float64(u.OutputTokens)*p.Output) / 1e6
}

// UsageTotal is token use with its cost.
type UsageTotal struct {
	provider.Usage
	// Cost is in US dollars, of the tokens whose price is known (or that
	// a model on this computer served, which cost nothing).
	Cost float64
	// Unpriced is true when some of the tokens came from a model with no
	// price in the table: Cost leaves them out.
	Unpriced bool
	// Local is true when every token came from a model on this computer.
	Local bool
}

func (t *UsageTotal) add(u provider.Usage, cost float64, priced, local bool) {
	empty := t.InputTokens == 0 && t.OutputTokens == 0
	t.InputTokens += u.InputTokens
	t.OutputTokens += u.OutputTokens
	t.CachedTokens += u.CachedTokens
	t.CacheWriteTokens += u.CacheWriteTokens
	t.Cost += cost
	t.Unpriced = t.Unpriced || !priced
	t.Local = local && (empty || t.Local)
}

// UsageRow is one day's use of one model.
type UsageRow struct {
	// Day is the day's date in the local time zone, "2006-01-02".
	Day   string
	Model string
	UsageTotal
}

// UsageReport is every day's use, newest day first (models by name within
// a day), with the days' totals and the whole.
type UsageReport struct {
	Rows  []UsageRow
	Days  map[string]UsageTotal
	Total UsageTotal
}

// UsageByDay adds up the token use of every conversation by day and
// model, priced with the price table.
func (a *App) UsageByDay() (UsageReport, error) {
	sums, err := a.usageSums()
	if err != nil {
		return UsageReport{}, err
	}
	pr := a.pricer()
	byKey := map[usageKey]provider.Usage{}
	for _, s := range sums {
		for k, u := range s {
			byKey[k] = addUsage(byKey[k], u)
		}
	}
	rep := UsageReport{Days: map[string]UsageTotal{}}
	for k, u := range byKey {
		cost, priced, local := pr.cost(k.model, u)
		row := UsageRow{Day: k.day, Model: k.model}
		row.add(u, cost, priced, local)
		rep.Rows = append(rep.Rows, row)
		d := rep.Days[k.day]
		d.add(u, cost, priced, local)
		rep.Days[k.day] = d
		rep.Total.add(u, cost, priced, local)
	}
	slices.SortFunc(rep.Rows, func(x, y UsageRow) int {
		if c := cmp.Compare(y.Day, x.Day); c != 0 {
			return c
		}
		return cmp.Compare(x.Model, y.Model)
	})
	return rep, nil
}

// ConversationUsage is conversation id's token use and cost so far.
func (a *App) ConversationUsage(id store.ID) (UsageTotal, error) {
	c, err := a.db.GetConversation(id)
	if err != nil {
		return UsageTotal{}, a.noConversation(id, err)
	}
	a.usage.mu.Lock()
	cu, err := a.usage.refresh(a.db, c)
	var sums map[usageKey]provider.Usage
	if err == nil {
		sums = cu.sums
	}
	a.usage.mu.Unlock()
	if err != nil {
		return UsageTotal{}, err
	}
	pr := a.pricer()
	var t UsageTotal
	for _, k := range usageKeys(sums) {
		cost, priced, local := pr.cost(k.model, sums[k])
		t.add(sums[k], cost, priced, local)
	}
	return t, nil
}

// pricer prices use by model: the table, and zero for a model missing
// from it when the configured server runs on this computer.
type pricer struct {
	prices []Price
	local  bool
}

func (a *App) pricer() pricer {
	return pricer{prices: a.Prices(), local: localServer(a.model.Load().cfg)}
}

func (p pricer) cost(model string, u provider.Usage) (cost float64, priced, local bool) {
	if pr, ok := priceOf(p.prices, model); ok {
		return pr.Cost(u), true, false
	}
	if p.local {
		return 0, true, true
	}
	return 0, false, false
}

// localServer reports whether cfg's models run on this computer (Ollama,
// or a server whose base URL is a loopback address): they cost nothing.
func localServer(cfg workspace.Config) bool {
	base := strings.TrimSpace(cfg.BaseURL)
	if base == "" {
		return cfg.Provider == "ollama"
	}
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	h := strings.ToLower(u.Hostname())
	return h == "localhost" || h == "127.0.0.1" || h == "::1" || strings.HasSuffix(h, ".localhost")
}

// usageKey is a day (local time zone) and a model.
type usageKey struct{ day, model string }

func usageKeys(m map[usageKey]provider.Usage) []usageKey {
	keys := make([]usageKey, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y usageKey) int {
		return cmp.Or(cmp.Compare(x.day, y.day), cmp.Compare(x.model, y.model))
	})
	return keys
}

func addUsage(a, b provider.Usage) provider.Usage {
	a.InputTokens += b.InputTokens
	a.OutputTokens += b.OutputTokens
	a.CachedTokens += b.CachedTokens
	a.CacheWriteTokens += b.CacheWriteTokens
	return a
}

// usageCache holds each conversation's use by day and model, with the
// record stamp it was read at and the last event read, so a conversation
// is read again only from where it grew. The zero value is ready.
type usageCache struct {
	mu    sync.Mutex
	convs map[store.ID]*convUsage
	// reads counts conversations read (wholly or from where they grew),
	// for the tests that prove an unchanged one is not read again.
	reads int
}

type convUsage struct {
	updated  time.Time
	events   int
	lastSeq  uint64
	lastTime time.Time
	sums     map[usageKey]provider.Usage
}

// usageSums brings the cache up to date with the conversations as listed
// (forgetting deleted ones) and returns their sums.
func (a *App) usageSums() ([]map[usageKey]provider.Usage, error) {
	convs, err := a.db.ListConversations()
	if err != nil {
		return nil, err
	}
	a.usage.mu.Lock()
	defer a.usage.mu.Unlock()
	live := make(map[store.ID]bool, len(convs))
	out := make([]map[usageKey]provider.Usage, 0, len(convs))
	for _, c := range convs {
		live[c.ID] = true
		cu, err := a.usage.refresh(a.db, c)
		if err != nil {
			if errors.Is(err, store.ErrNotFound) {
				continue // deleted meanwhile
			}
			return nil, fmt.Errorf("add up the use of %s: %w", c.ID, err)
		}
		out = append(out, cu.sums)
	}
	for id := range a.usage.convs {
		if !live[id] {
			delete(a.usage.convs, id)
		}
	}
	return out, nil
}

// refresh returns c's sums, reading only what changed since the cache
// last saw it. Called with mu held.
func (u *usageCache) refresh(db *store.DB, c store.Conversation) (*convUsage, error) {
	if u.convs == nil {
		u.convs = map[store.ID]*convUsage{}
	}
	cu := u.convs[c.ID]
	if cu != nil && cu.updated.Equal(c.Updated) && cu.events == c.EventCount {
		return cu, nil
	}
	u.reads++
	if cu != nil && c.EventCount >= cu.events && cu.lastSeq > 0 {
		// It grew (or a reply streamed on): read from the last event
		// seen, if that one is still the same event (not cut away by an
		// edit and replaced by another with its number).
		evs, err := db.PageBefore(c.ID, 0, c.EventCount-cu.events+1)
		if err != nil {
			return nil, err
		}
		if len(evs) > 0 && evs[0].Seq == cu.lastSeq && evs[0].Time.Equal(cu.lastTime) {
			cu.take(evs[1:])
			cu.updated, cu.events = c.Updated, c.EventCount
			return cu, nil
		}
	}
	// Read without the pictures' bytes and past the store's cache of
	// decoded conversations: token counts need neither, and a
	// conversation of pictures held them all in memory for as long as it
	// stayed in that cache.
	evs, err := db.PageBefore(c.ID, 0, 0)
	if err != nil {
		return nil, err
	}
	cu = &convUsage{sums: map[usageKey]provider.Usage{}}
	cu.take(evs)
	cu.updated, cu.events = c.Updated, c.EventCount
	u.convs[c.ID] = cu
	return cu, nil
}

// take adds the usage events among evs and remembers the last event.
func (cu *convUsage) take(evs []store.Event) {
	for _, e := range evs {
		if e.Type == store.EventUsage && e.Usage != nil {
			k := usageKey{day: e.Time.Local().Format(time.DateOnly), model: e.Model}
			cu.sums[k] = addUsage(cu.sums[k], *e.Usage)
		}
	}
	if len(evs) > 0 {
		last := evs[len(evs)-1]
		cu.lastSeq, cu.lastTime = last.Seq, last.Time
	}
}

// CostText writes t's cost for people: "$0.42", "<$0.01", "$0.00 (local)",
// with "+ ?" when some tokens have no price.
func CostText(t UsageTotal) string {
	var s string
	switch {
	case t.Local:
		s = "$0.00 (local)"
	case t.Cost > 0 && t.Cost < 0.005:
		s = "<$0.01"
	default:
		s = fmt.Sprintf("$%.2f", t.Cost)
	}
	if t.Unpriced {
		if t.Cost == 0 {
			return "?"
		}
		s += " + ?"
	}
	return s
}
