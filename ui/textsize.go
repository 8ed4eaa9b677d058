package ui

import (
	"slices"

	"fyne.io/fyne/v2"
)

// textScales are the text sizes Ctrl+plus and Ctrl+minus step through,
// as a factor of the theme's.
var textScales = []float32{0.8, 0.9, 1, 1.1, 1.25, 1.4, 1.6, 1.8}

// textScalePref is the preference that remembers the person's text size.
const textScalePref = "textScale"

// textSizer is what a view does when the text size changes: measure its
// rows again (the chat's list keeps measured heights).
type textSizer interface{ TextSizeChanged() }

// stepTextSize makes the window's texts one step larger (dir 1), smaller
// (-1) or as the theme has them (0), and remembers the choice.
func (s *Shell) stepTextSize(dir int) {
	if s.env.App == nil {
		return
	}
	cur := currentTextScale(s.env.App)
	i := slices.Index(textScales, cur)
	if i < 0 {
		i = slices.Index(textScales, 1)
	}
	switch {
	case dir == 0:
		i = slices.Index(textScales, 1)
	case dir > 0 && i < len(textScales)-1:
		i++
	case dir < 0 && i > 0:
		i--
	}
	if textScales[i] == cur {
		return
	}
	s.env.App.Preferences().SetFloat(textScalePref, float64(textScales[i]))
	applyTextScale(s.env.App, textScales[i])
	for _, v := range []any{s.chat, s.settings} {
		if t, ok := v.(textSizer); ok {
			t.TextSizeChanged()
		}
	}
}

// restoreTextScale applies the text size the person chose last time.
func restoreTextScale(a fyne.App) {
	if a == nil {
		return
	}
	scale := float32(a.Preferences().FloatWithFallback(textScalePref, 1))
	if !slices.Contains(textScales, scale) {
		scale = 1
	}
	if scale != 1 {
		applyTextScale(a, scale)
	}
}

// currentTextScale is the text scale of a's theme (1 unless set).
func currentTextScale(a fyne.App) float32 {
	if t, ok := a.Settings().Theme().(*readableTheme); ok && t.textScale > 0 {
		return t.textScale
	}
	return 1
}

// applyTextScale sets a's theme to the readable theme at scale; setting
// it draws every window again.
func applyTextScale(a fyne.App, scale float32) {
	t, ok := a.Settings().Theme().(*readableTheme)
	if !ok {
		t = newReadableTheme(a.Settings().Theme()).(*readableTheme)
	}
	a.Settings().SetTheme(t.withTextScale(scale))
}
