package chat

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// statusLine shows the model, the last reply's token use and how full
// the context window is ("18.2k / 32k").
type statusLine struct {
	c      *Chat
	model  *widget.Label
	usage  *widget.Label
	gauge  *widget.ProgressBar
	window *widget.Label
	object fyne.CanvasObject
}

func newStatusLine(c *Chat) *statusLine {
	s := &statusLine{c: c}
	s.model = widget.NewLabel("")
	s.usage = widget.NewLabel("")
	// Not italic: see sidebar.createRow on the cost of a text style.
	s.gauge = widget.NewProgressBar()
	s.gauge.TextFormatter = func() string { return "" }
	s.window = widget.NewLabel("")
	gauge := container.NewGridWrap(fyne.NewSize(90, s.window.MinSize().Height-8), s.gauge)
	s.object = newHeaderRow(false, nil, []*widget.Label{s.model, s.usage}, container.NewCenter(gauge), s.window)
	return s
}

func (s *statusLine) refresh() {
	cfg := s.c.core.Model()
	s.model.SetText(cfg.Model)
	u := s.c.cur.usage
	used, approx := 0, false
	if u != nil {
		used = u.InputTokens + u.OutputTokens
		s.usage.SetText(usageText(*u))
	} else {
		// The server reported no use: estimate it from the text loaded.
		used, approx = s.c.cur.estimate(), true
		s.usage.SetText("")
	}
	text := gaugeText(used, cfg.ContextWindow)
	if approx && used > 0 {
		text = "context ≈" + strings.TrimPrefix(text, "context ")
	}
	s.window.SetText(text)
	if cfg.ContextWindow > 0 {
		s.gauge.SetValue(min(float64(used)/float64(cfg.ContextWindow), 1))
	}
}

// usageText is the last reply's token use, "last reply: 18.2k in · 20
// out", with what the prompt cache served when it served any: "last
// reply: 18.2k in (17.9k cached) · 20 out".
func usageText(u provider.Usage) string {
	in := tokens(u.InputTokens) + " in"
	if u.CachedTokens > 0 {
		in += " (" + tokens(u.CachedTokens) + " cached)"
	}
	return fmt.Sprintf("last reply: %s · %s out", in, tokens(u.OutputTokens))
}

// gaugeText is "18.2k / 32k" context used of the window.
func gaugeText(used, window int) string {
	return "context " + tokens(used) + " / " + tokens(window)
}

// tokens writes a token count as people read it: 950, 18.2k, 200k.
func tokens(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 100_000 && n%1000 != 0:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprintf("%dk", (n+500)/1000)
}
