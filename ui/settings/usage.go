package settings

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// usageDaysShown bounds the table: the rows of the latest days (wrasse
// usage prints them all).
const usageDaysShown = 120

// usagePage is the Usage page: tokens in and out by day and model, the
// prompt cache's reads and writes apart, what they cost, and the price
// table the costs come from, which the person edits here. Everything is
// read and written through the core (UsageByDay, Prices, SetPrices).
type usagePage struct {
	env *bridge.Env

	summary *widget.Label
	table   *fyne.Container
	more    *widget.Label
	prices  *fyne.Container
	rows    []*priceRow
	outcome *widget.Label
	page    *pageScroll
	// gen numbers the reports asked for, so a late one is dropped.
	gen int
	// report is the last one shown, for tests.
	report assistant.UsageReport
}

// priceRow is one row of the price editor.
type priceRow struct {
	model, input, output, cacheRead, cacheWrite *escEntry
}

var usageHeadings = []string{"Day", "Model", "In", "Cache read", "Cache write", "Out", "Cost"}

func newUsagePage(env *bridge.Env) *usagePage {
	p := &usagePage{env: env}
	about := widget.NewLabel("Tokens each reply used, as the model's server reported them, by day and model. " +
		"Input counts everything sent, with what the prompt cache served (cache read) and stored (cache write) shown apart: " +
		"cached input costs less. The header of each conversation shows its own total.")
	about.Wrapping = fyne.TextWrapWord
	p.summary = widget.NewLabel("")
	p.summary.TextStyle.Bold = true
	p.summary.Wrapping = fyne.TextWrapWord
	p.table = container.New(weightedColumns{1.1, 2, 1, 1, 1, 0.9, 1.2})
	p.more = widget.NewLabel("")
	p.more.Hide()

	pricesTitle := widget.NewLabelWithStyle("Prices", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	pricesAbout := widget.NewLabel("US dollars per million tokens. A model is priced by the longest name here that starts its name " +
		"(claude-sonnet-4 prices claude-sonnet-4-5 too). The prices Wrasse ships with are the providers' list prices when this version " +
		"was made: check them against your provider's and edit them. Models on this computer (Ollama, a local server) cost nothing; " +
		"a model with no price shows ? instead of a cost.")
	pricesAbout.Wrapping = fyne.TextWrapWord
	p.prices = container.NewVBox()
	add := newButtonWithIcon("Add a model", theme.ContentAddIcon(), func() {
		p.addRow(assistant.Price{})
		p.page.Relayout()
	})
	save := newButtonWithIcon("Save prices", theme.DocumentSaveIcon(), p.save)
	save.Importance = widget.HighImportance
	reset := newButtonWithIcon("Back to the defaults", theme.HistoryIcon(), p.reset)
	p.outcome = widget.NewLabel("")
	p.outcome.Wrapping = fyne.TextWrapWord
	p.outcome.Hide()

	content := container.NewVBox(about, p.summary, p.table, p.more, widget.NewSeparator(),
		pricesTitle, pricesAbout, p.prices, container.NewHBox(add, save, reset), p.outcome)
	p.page = newPageScroll(content)
	p.fillPrices(env.Core.Prices())
	p.Refresh()
	return p
}

// Object is the page.
func (p *usagePage) Object() fyne.CanvasObject { return p.page }

// onEvent follows the core: a conversation's new use, or new prices.
func (p *usagePage) onEvent(e assistant.Event) {
	switch e.Kind {
	case assistant.EventConversations:
		p.Refresh()
	case assistant.EventConfig:
		if len(e.Names) == 1 && e.Names[0] == "prices" {
			p.fillPrices(p.env.Core.Prices())
		}
		p.Refresh()
	}
}

// Refresh asks the core for the report off the UI goroutine (it reads
// what changed since the last one) and shows it.
func (p *usagePage) Refresh() {
	p.gen++
	gen := p.gen
	p.env.Go(func() {
		rep, err := p.env.Core.UsageByDay()
		p.env.Do(func() {
			if gen != p.gen {
				return
			}
			if err != nil {
				p.summary.SetText("Could not add up the use: " + err.Error())
				return
			}
			p.show(rep)
		})
	})
}

func (p *usagePage) show(rep assistant.UsageReport) {
	p.report = rep
	if len(rep.Rows) == 0 {
		p.summary.SetText("No tokens used yet: each reply records its use as it arrives.")
		p.table.Objects = nil
		p.table.Refresh()
		p.more.Hide()
		p.page.Relayout()
		return
	}
	t := rep.Total
	p.summary.SetText(fmt.Sprintf("All days: %s in (%s cache read, %s cache write) · %s out · %s",
		thousands(t.InputTokens), thousands(t.CachedTokens), thousands(t.CacheWriteTokens), thousands(t.OutputTokens), assistant.CostText(t)))
	objs := make([]fyne.CanvasObject, 0, (min(len(rep.Rows), usageDaysShown)+1)*len(usageHeadings))
	for _, h := range usageHeadings {
		objs = append(objs, widget.NewLabelWithStyle(h, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	}
	for i, r := range rep.Rows {
		if i == usageDaysShown {
			break
		}
		model := widget.NewLabel(r.Model)
		model.Truncation = fyne.TextTruncateEllipsis
		objs = append(objs, widget.NewLabel(r.Day), model,
			widget.NewLabel(thousands(r.InputTokens)), widget.NewLabel(thousands(r.CachedTokens)),
			widget.NewLabel(thousands(r.CacheWriteTokens)), widget.NewLabel(thousands(r.OutputTokens)),
			widget.NewLabel(assistant.CostText(r.UsageTotal)))
	}
	p.table.Objects = objs
	p.table.Refresh()
	if len(rep.Rows) > usageDaysShown {
		p.more.SetText(fmt.Sprintf("The latest %d rows of %d: wrasse usage prints them all.", usageDaysShown, len(rep.Rows)))
		p.more.Show()
	} else {
		p.more.Hide()
	}
	p.page.Relayout()
}

// fillPrices shows prices in the editor.
func (p *usagePage) fillPrices(prices []assistant.Price) {
	p.rows = nil
	p.prices.Objects = []fyne.CanvasObject{container.NewGridWithColumns(6,
		bold("Model"), bold("Input"), bold("Output"), bold("Cache read"), bold("Cache write"), widget.NewLabel(""))}
	for _, pr := range prices {
		p.addRow(pr)
	}
	p.prices.Refresh()
}

func bold(s string) *widget.Label {
	return widget.NewLabelWithStyle(s, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
}

// addRow adds a row to the editor.
func (p *usagePage) addRow(pr assistant.Price) {
	num := func(v float64) *escEntry {
		e := newEntry()
		e.SetText(strconv.FormatFloat(v, 'f', -1, 64))
		return e
	}
	r := &priceRow{model: newEntry(), input: num(pr.Input), output: num(pr.Output), cacheRead: num(pr.CacheRead), cacheWrite: num(pr.CacheWrite)}
	r.model.SetText(pr.Model)
	r.model.SetPlaceHolder("model name")
	var line *fyne.Container
	remove := newButtonWithIcon("Remove", theme.DeleteIcon(), func() {
		for i, x := range p.rows {
			if x == r {
				p.rows = append(p.rows[:i], p.rows[i+1:]...)
			}
		}
		p.prices.Remove(line)
		p.page.Relayout()
	})
	remove.Importance = widget.LowImportance
	line = container.NewGridWithColumns(6, r.model, r.input, r.output, r.cacheRead, r.cacheWrite,
		container.NewHBox(remove))
	p.rows = append(p.rows, r)
	p.prices.Add(line)
}

// priceTable reads the editor; a field that is not a number is named.
func (p *usagePage) priceTable() ([]assistant.Price, error) {
	out := make([]assistant.Price, 0, len(p.rows))
	for _, r := range p.rows {
		pr := assistant.Price{Model: strings.TrimSpace(r.model.Text)}
		if pr.Model == "" && allZero(r) {
			continue // an empty row added and left
		}
		for _, f := range []struct {
			e    *escEntry
			v    *float64
			what string
		}{{r.input, &pr.Input, "input"}, {r.output, &pr.Output, "output"}, {r.cacheRead, &pr.CacheRead, "cache read"}, {r.cacheWrite, &pr.CacheWrite, "cache write"}} {
			s := strings.TrimPrefix(strings.TrimSpace(f.e.Text), "$")
			if s == "" {
				s = "0"
			}
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf("%s's %s price %q is not a number: give dollars per million tokens, e.g. 3 or 0.30", pr.Model, f.what, f.e.Text)
			}
			*f.v = v
		}
		out = append(out, pr)
	}
	return out, nil
}

func allZero(r *priceRow) bool {
	for _, e := range []*escEntry{r.input, r.output, r.cacheRead, r.cacheWrite} {
		if v, err := strconv.ParseFloat(strings.TrimSpace(e.Text), 64); err != nil || v != 0 {
			return false
		}
	}
	return true
}

func (p *usagePage) save() {
	prices, err := p.priceTable()
	if err == nil {
		err = p.env.Core.SetPrices(prices)
	}
	p.say(err, "Prices saved: the costs above use them.")
}

func (p *usagePage) reset() {
	err := p.env.Core.SetPrices(nil)
	if err == nil {
		p.fillPrices(p.env.Core.Prices())
	}
	p.say(err, "The prices are the ones Wrasse ships with again.")
}

func (p *usagePage) say(err error, ok string) {
	if err != nil {
		p.outcome.Importance = widget.DangerImportance
		p.outcome.SetText(err.Error())
	} else {
		p.outcome.Importance = widget.SuccessImportance
		p.outcome.SetText(ok)
	}
	p.outcome.Show()
	p.page.Relayout()
}

// thousands writes n with comma separators: 52310 → "52,310".
func thousands(n int) string {
	if n < 0 {
		return "-" + thousands(-n)
	}
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// weightedColumns lays its objects out in rows of len(weights) cells,
// each column as wide as its share of the weights (the model's name gets
// more than a number), each row as tall as its tallest cell.
type weightedColumns []float32

func (w weightedColumns) rows(objs []fyne.CanvasObject) [][]fyne.CanvasObject {
	var out [][]fyne.CanvasObject
	for i := 0; i < len(objs); i += len(w) {
		out = append(out, objs[i:min(i+len(w), len(objs))])
	}
	return out
}

func (w weightedColumns) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	var total float32
	for _, x := range w {
		total += x
	}
	y := float32(0)
	for _, row := range w.rows(objs) {
		h := float32(0)
		for _, o := range row {
			h = max(h, o.MinSize().Height)
		}
		x := float32(0)
		for i, o := range row {
			cw := size.Width * w[i] / total
			o.Move(fyne.NewPos(x, y))
			o.Resize(fyne.NewSize(cw, h))
			x += cw
		}
		y += h
	}
}

func (w weightedColumns) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var width, height float32
	for _, row := range w.rows(objs) {
		rw, h := float32(0), float32(0)
		for _, o := range row {
			m := o.MinSize()
			rw += m.Width
			h = max(h, m.Height)
		}
		width = max(width, rw)
		height += h
	}
	return fyne.NewSize(width, height)
}
