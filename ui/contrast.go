package ui

import (
	"image/color"
	"math"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// Contrast targets (WCAG 2): text at least 4.5:1 against what it is drawn
// on; a button's fill at least 1.25:1 against the card or page behind it,
// enough to see where the button is.
const (
	textContrast   = 4.5
	buttonContrast = 1.25
)

// readableTheme is a theme whose coloured texts can be read: Fyne's
// default light theme draws green (success), orange (warning), red
// (error), the primary blue and grey placeholders on white at 1.5:1 to
// 3.6:1, and its buttons' fill is the colour of a card (an "Approve for
// this chat" with no visible background). Each such colour is moved
// towards black (on a light background) or white (on a dark one) until it
// reaches the target against every background it is drawn on, in either
// variant; the text drawn on the filled colours is black or white,
// whichever reads. Colours that already reach it are the base theme's.
type readableTheme struct {
	fyne.Theme
	// textScale sizes every text (Ctrl+plus and Ctrl+minus, textsize.go);
	// 1 is the base theme's.
	textScale float32

	mu   sync.Mutex
	memo map[readableKey]color.Color
}

type readableKey struct {
	name    fyne.ThemeColorName
	variant fyne.ThemeVariant
}

// newReadableTheme wraps base (the app's theme); wrapping one twice
// returns it.
func newReadableTheme(base fyne.Theme) fyne.Theme {
	if r, ok := base.(*readableTheme); ok {
		return r
	}
	return &readableTheme{Theme: base, textScale: 1, memo: map[readableKey]color.Color{}}
}

// withTextScale is t with its texts at scale (a new theme, so that setting
// it makes every window draw again).
func (t *readableTheme) withTextScale(scale float32) *readableTheme {
	return &readableTheme{Theme: t.Theme, textScale: scale, memo: map[readableKey]color.Color{}}
}

// Size is the base theme's, with the text sizes at textScale.
func (t *readableTheme) Size(n fyne.ThemeSizeName) float32 {
	size := t.Theme.Size(n)
	switch n {
	case theme.SizeNameText, theme.SizeNameHeadingText, theme.SizeNameSubHeadingText, theme.SizeNameCaptionText:
		if t.textScale > 0 {
			return size * t.textScale
		}
	}
	return size
}

// useReadableTheme makes a's theme readable (Build calls it).
func useReadableTheme(a fyne.App) {
	if a == nil {
		return
	}
	s := a.Settings()
	if _, ok := s.Theme().(*readableTheme); !ok {
		s.SetTheme(newReadableTheme(s.Theme()))
	}
}

// backgrounds are what text is drawn on: the page, a card (the header
// background), an entry.
func backgrounds() []fyne.ThemeColorName {
	return []fyne.ThemeColorName{theme.ColorNameBackground, theme.ColorNameHeaderBackground, theme.ColorNameInputBackground}
}

// fillOf is the colour that text colour n is drawn on when n is the
// text of a filled button (white on a red Deny), ok false otherwise.
// Those fills are also texts (a red error line), so each reads both ways.
func fillOf(n fyne.ThemeColorName) (fill fyne.ThemeColorName, ok bool) {
	switch n {
	case theme.ColorNameForegroundOnPrimary:
		return theme.ColorNamePrimary, true
	case theme.ColorNameForegroundOnSuccess:
		return theme.ColorNameSuccess, true
	case theme.ColorNameForegroundOnWarning:
		return theme.ColorNameWarning, true
	case theme.ColorNameForegroundOnError:
		return theme.ColorNameError, true
	}
	return "", false
}

func (t *readableTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	k := readableKey{n, v}
	t.mu.Lock()
	c, ok := t.memo[k]
	t.mu.Unlock()
	if ok {
		return c
	}
	c = t.compute(n, v)
	t.mu.Lock()
	t.memo[k] = c
	t.mu.Unlock()
	return c
}

func (t *readableTheme) compute(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	base := t.Theme.Color(n, v)
	switch n {
	case theme.ColorNamePrimary, theme.ColorNameSuccess, theme.ColorNameWarning, theme.ColorNameError,
		theme.ColorNamePlaceHolder, theme.ColorNameHyperlink:
		return t.apart(base, v, textContrast)
	case theme.ColorNameButton:
		return t.apart(base, v, buttonContrast)
	}
	if fill, ok := fillOf(n); ok {
		return textOn(base, t.Color(fill, v))
	}
	return base
}

// apart moves c towards black or white (away from the backgrounds) until
// its contrast with every background is at least min.
func (t *readableTheme) apart(c color.Color, v fyne.ThemeVariant, least float64) color.Color {
	var bgs []color.Color
	light := 0.0
	for _, b := range backgrounds() {
		bc := t.Theme.Color(b, v)
		bgs = append(bgs, bc)
		light += luminance(bc)
	}
	target := color.Color(color.White)
	if light/float64(len(bgs)) > 0.5 {
		target = color.Black
	}
	for step := 0; step <= 50; step++ {
		m := mix(c, target, float64(step)/50)
		ok := true
		for _, b := range bgs {
			ok = ok && contrast(m, b) >= least
		}
		if ok {
			return m
		}
	}
	return target
}

// textOn is base, the theme's text on fill, when it reads there, else
// black or white, whichever reads better.
func textOn(base, fill color.Color) color.Color {
	if contrast(base, fill) >= textContrast {
		return base
	}
	if contrast(color.Black, fill) >= contrast(color.White, fill) {
		return color.Black
	}
	return color.White
}

// mix is a blend of a and b, f of the way to b (opaque).
func mix(a, b color.Color, f float64) color.Color {
	an := color.NRGBAModel.Convert(a).(color.NRGBA)
	bn := color.NRGBAModel.Convert(b).(color.NRGBA)
	ch := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + (float64(y)-float64(x))*f)) }
	return color.NRGBA{R: ch(an.R, bn.R), G: ch(an.G, bn.G), B: ch(an.B, bn.B), A: 0xff}
}

// luminance is the relative luminance of c (WCAG 2), alpha ignored.
func luminance(c color.Color) float64 {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	lin := func(x uint8) float64 {
		s := float64(x) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(n.R) + 0.7152*lin(n.G) + 0.0722*lin(n.B)
}

// contrast is the WCAG contrast ratio of a and b, from 1 to 21.
func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}
