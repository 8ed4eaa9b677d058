package chat

import (
	"context"
	"fmt"
	"github.com/wrasse-app/wrasse/ui/tip"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/ui/modelfacts"
)

// statusLine shows the model, the last reply's token use and how full
// the context window is ("18.2k / 128k"), with where the window figure
// came from on hover (the server, config.json, a known model, or an
// assumption). It is also where the chat's model chrome is refreshed: the
// header's picker shows the same model.
type statusLine struct {
	c      *Chat
	model  *widget.Label
	usage  *widget.Label
	gauge  *widget.ProgressBar
	window *tip.Label
	object fyne.CanvasObject
	// learnt are the windows asked of the server by model and server, so
	// one the server does not say is asked once, not on every refresh.
	learnt map[string]provider.Window
	asking map[string]bool
}

func newStatusLine(c *Chat) *statusLine {
	s := &statusLine{c: c, learnt: map[string]provider.Window{}, asking: map[string]bool{}}
	s.model = widget.NewLabel("")
	s.usage = widget.NewLabel("")
	// Not italic: see sidebar.createRow on the cost of a text style.
	s.gauge = widget.NewProgressBar()
	s.gauge.TextFormatter = func() string { return "" }
	s.window = tip.NewLabel()
	gauge := container.NewGridWrap(fyne.NewSize(90, s.window.MinSize().Height-8), s.gauge)
	// The figure names the gauge and comes first: "Context 18.2k / 32k ▮▮▯".
	s.object = newHeaderRow(false, nil, []*widget.Label{s.model, s.usage}, s.window, container.NewCenter(gauge))
	return s
}

func (s *statusLine) refresh() {
	// The figure's width changes with its text: lay the line out again,
	// or the gauge beside it would cover it.
	defer s.object.Refresh()
	s.c.picker.refresh()
	model, _ := s.c.picker.current()
	s.model.SetText(model)
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
	w, known := s.windowOf(model)
	if !known {
		s.window.SetText("Context " + tokens(used))
		s.window.Tip = "Asking the server how long " + model + "'s context window is…"
		s.gauge.SetValue(0)
		return
	}
	text := gaugeText(used, w.Tokens)
	if approx && used > 0 {
		text = "Context ≈" + strings.TrimPrefix(text, "Context ")
	}
	if w.Source == provider.WindowDefault {
		text += " (assumed)"
	}
	s.window.SetText(text)
	s.window.Tip = windowTip(model, w)
	if w.Tokens > 0 {
		s.gauge.SetValue(min(float64(used)/float64(w.Tokens), 1))
	}
}

// windowOf is model's context window as far as known now; when it is not,
// the server is asked in the background (once per model and server) and
// the line refreshed when it answers.
func (s *statusLine) windowOf(model string) (provider.Window, bool) {
	if w, ok := s.c.core.KnownContextWindow(model); ok {
		return w, true
	}
	cfg := s.c.core.Model()
	key := cfg.Provider + "|" + cfg.BaseURL + "|" + model
	if w, ok := s.learnt[key]; ok {
		return w, true
	}
	if !s.asking[key] {
		s.asking[key] = true
		s.c.env.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), listTimeout)
			w := s.c.core.ContextWindow(ctx, model)
			cancel()
			s.c.env.Do(func() {
				delete(s.asking, key)
				s.learnt[key] = w
				s.refresh()
			})
		})
	}
	return provider.Window{}, false
}

// windowTip says what the gauge's window is and where it came from.
func windowTip(model string, w provider.Window) string {
	switch w.Source {
	case provider.WindowDefault:
		return "The server does not say how long " + model + "'s context window is: " + w.String() +
			" is assumed. Set the context window on the Model page if you know it."
	}
	return model + "'s context window: " + w.String() + "."
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

// gaugeText is "Context 18.2k / 32k": context used of the window (a window of
// 40,960 tokens is 40k, as its server calls it).
func gaugeText(used, window int) string {
	return "Context " + tokens(used) + " / " + modelfacts.Tokens(window)
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
