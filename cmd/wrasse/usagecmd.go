package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/wrasse-app/wrasse/brain/assistant"
)

// usageGroup is the usage command word: token use by day and model with
// its cost, and the price table it is priced with (the Usage page).
var usageGroup = group{name: "usage", summary: "tokens used by day and model, what they cost, and the price table", def: "show"}

func usageCommands() []*command {
	return []*command{
		{path: "usage show", summary: "Tokens in and out by day and model, with the cache apart, and their cost.", maxArgs: 0,
			setup: plain(usageShow)},
		{path: "usage prices", summary: "The price table costs are computed with (US dollars per million tokens).", maxArgs: 0,
			setup: plain(usagePrices)},
		{path: "usage set-price", args: "MODEL INPUT OUTPUT [CACHE_READ [CACHE_WRITE]]",
			argHelp: [][2]string{{"MODEL", "a model name or the start of one (claude-sonnet-4 prices claude-sonnet-4-5 too)"},
				{"INPUT", "dollars per million input tokens"}, {"OUTPUT", "dollars per million output tokens"},
				{"CACHE_READ", "dollars per million tokens read from the prompt cache (default 0)"},
				{"CACHE_WRITE", "dollars per million tokens written to it (default 0)"}},
			summary: "Add or change one model's prices.", minArgs: 3, maxArgs: 5, setup: plain(usageSetPrice)},
		{path: "usage remove-price", args: "MODEL", argHelp: [][2]string{{"MODEL", "the model name as the table has it"}},
			summary: "Take a model out of the price table.", minArgs: 1, maxArgs: 1, setup: plain(usageRemovePrice)},
		{path: "usage reset-prices", summary: "Go back to the price table Wrasse ships with.", maxArgs: 0, setup: plain(usageResetPrices)},
	}
}

func usageShow(_ context.Context, app *assistant.App, c *call) error {
	rep, err := app.UsageByDay()
	if err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, rep)
	}
	if len(rep.Rows) == 0 {
		fmt.Fprintln(c.io.out, "No tokens used yet: replies record their use as they arrive.")
		return nil
	}
	return writeUsageTable(c.io.out, rep)
}

// writeUsageTable writes the report as the Usage page shows it.
func writeUsageTable(w io.Writer, rep assistant.UsageReport) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "DAY\tMODEL\tIN\tCACHE READ\tCACHE WRITE\tOUT\tCOST\t")
	for _, r := range rep.Rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Day, r.Model, thousands(r.InputTokens), thousands(r.CachedTokens),
			thousands(r.CacheWriteTokens), thousands(r.OutputTokens), assistant.CostText(r.UsageTotal))
	}
	t := rep.Total
	fmt.Fprintf(tw, "total\t\t%s\t%s\t%s\t%s\t%s\t\n", thousands(t.InputTokens), thousands(t.CachedTokens),
		thousands(t.CacheWriteTokens), thousands(t.OutputTokens), assistant.CostText(t))
	if err := tw.Flush(); err != nil {
		return err
	}
	if t.Unpriced {
		fmt.Fprintln(w, "\n? marks a model with no price in the table: add one with wrasse usage set-price MODEL INPUT OUTPUT.")
	}
	return nil
}

func usagePrices(_ context.Context, app *assistant.App, c *call) error {
	prices := app.Prices()
	if c.g.json {
		return writeJSON(c.io.out, prices)
	}
	tw := tabwriter.NewWriter(c.io.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "MODEL\tINPUT\tOUTPUT\tCACHE READ\tCACHE WRITE")
	for _, p := range prices {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p.Model, dollars(p.Input), dollars(p.Output), dollars(p.CacheRead), dollars(p.CacheWrite))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(c.io.out, "\nUS dollars per million tokens. Models on this computer cost nothing. Edit with wrasse usage set-price, or on the Usage page.")
	return nil
}

func dollars(v float64) string { return "$" + strconv.FormatFloat(v, 'f', -1, 64) }

func usageSetPrice(_ context.Context, app *assistant.App, c *call) error {
	p := assistant.Price{Model: c.args[0]}
	fields := []*float64{&p.Input, &p.Output, &p.CacheRead, &p.CacheWrite}
	for i, a := range c.args[1:] {
		v, err := strconv.ParseFloat(strings.TrimPrefix(a, "$"), 64)
		if err != nil {
			return usagef(c.cmd.path, "%q is not a price: give dollars per million tokens, e.g. 3 or 0.30", a)
		}
		*fields[i] = v
	}
	prices := app.Prices()
	replaced := false
	for i := range prices {
		if strings.EqualFold(prices[i].Model, p.Model) {
			prices[i], replaced = p, true
		}
	}
	if !replaced {
		prices = append(prices, p)
	}
	if err := app.SetPrices(prices); err != nil {
		return err
	}
	fmt.Fprintf(c.io.out, "%s costs %s in, %s out, %s cache read, %s cache write per million tokens.\n",
		p.Model, dollars(p.Input), dollars(p.Output), dollars(p.CacheRead), dollars(p.CacheWrite))
	return nil
}

func usageRemovePrice(_ context.Context, app *assistant.App, c *call) error {
	prices := app.Prices()
	kept := prices[:0:0]
	for _, p := range prices {
		if !strings.EqualFold(p.Model, c.args[0]) {
			kept = append(kept, p)
		}
	}
	if len(kept) == len(prices) {
		return fmt.Errorf("%s is not in the price table (see wrasse usage prices)", c.args[0])
	}
	if err := app.SetPrices(kept); err != nil {
		return err
	}
	fmt.Fprintf(c.io.out, "Removed %s from the price table.\n", c.args[0])
	return nil
}

func usageResetPrices(_ context.Context, app *assistant.App, c *call) error {
	if err := app.SetPrices(nil); err != nil {
		return err
	}
	fmt.Fprintln(c.io.out, "The price table is the one Wrasse ships with again.")
	return nil
}
