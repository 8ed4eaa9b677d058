package ui

import (
	"fmt"
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// Every coloured text reads at 4.5:1 or more on every background it is
// drawn on, in both variants; the text on a filled button reads on its
// fill; a button's fill shows against a card (the light theme's "Approve
// for this chat" had none) and its label reads on it. Fyne's default
// theme fails most of these (it is checked too, so the test shows what it
// fixes).
func TestReadableThemeContrast(t *testing.T) {
	texts := []fyne.ThemeColorName{theme.ColorNameForeground, theme.ColorNameSuccess, theme.ColorNameWarning,
		theme.ColorNameError, theme.ColorNamePrimary, theme.ColorNamePlaceHolder, theme.ColorNameHyperlink}
	fills := map[fyne.ThemeColorName]fyne.ThemeColorName{
		theme.ColorNamePrimary: theme.ColorNameForegroundOnPrimary, theme.ColorNameSuccess: theme.ColorNameForegroundOnSuccess,
		theme.ColorNameWarning: theme.ColorNameForegroundOnWarning, theme.ColorNameError: theme.ColorNameForegroundOnError,
	}
	type pair struct {
		what   string
		fg, bg fyne.ThemeColorName
		least  float64
	}
	var pairs []pair
	for _, fg := range texts {
		for _, bg := range backgrounds() {
			pairs = append(pairs, pair{"text", fg, bg, textContrast})
		}
	}
	for _, fill := range []fyne.ThemeColorName{theme.ColorNamePrimary, theme.ColorNameSuccess, theme.ColorNameWarning, theme.ColorNameError} {
		pairs = append(pairs, pair{"button text", fills[fill], fill, textContrast})
	}
	pairs = append(pairs,
		pair{"button label", theme.ColorNameForeground, theme.ColorNameButton, textContrast},
		pair{"button on a card", theme.ColorNameButton, theme.ColorNameHeaderBackground, buttonContrast},
		pair{"button on the page", theme.ColorNameButton, theme.ColorNameBackground, buttonContrast})

	readable := newReadableTheme(theme.DefaultTheme())
	failedBefore := 0
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		for _, p := range pairs {
			name := fmt.Sprintf("variant %d: %s %s on %s", v, p.what, p.fg, p.bg)
			got := contrast(readable.Color(p.fg, v), readable.Color(p.bg, v))
			if got < p.least {
				t.Errorf("%s: contrast %.2f, want at least %.2f", name, got, p.least)
			}
			if contrast(theme.DefaultTheme().Color(p.fg, v), theme.DefaultTheme().Color(p.bg, v)) < p.least {
				failedBefore++
			}
		}
	}
	if failedBefore == 0 {
		t.Error("Fyne's default theme meets every target: this test checks nothing it fixes")
	}
	// Colours that already read stay the theme's own.
	if got, want := readable.Color(theme.ColorNameForeground, theme.VariantLight), theme.DefaultTheme().Color(theme.ColorNameForeground, theme.VariantLight); got != want {
		t.Errorf("light foreground %v, want the theme's own %v", got, want)
	}
}

// The window uses it: Build makes the app's theme readable, once.
func TestBuildUsesTheReadableTheme(t *testing.T) {
	a := test.NewTempApp(t)
	useReadableTheme(a)
	useReadableTheme(a)
	r, ok := a.Settings().Theme().(*readableTheme)
	if !ok {
		t.Fatalf("app theme %T, want the readable theme", a.Settings().Theme())
	}
	if _, twice := r.Theme.(*readableTheme); twice {
		t.Error("the readable theme wraps itself")
	}
}

func TestContrastRatio(t *testing.T) {
	for _, tc := range []struct {
		a, b color.Color
		want float64
	}{
		{color.Black, color.White, 21},
		{color.White, color.White, 1},
		{color.NRGBA{0x77, 0x77, 0x77, 0xff}, color.White, 4.48},
	} {
		if got := contrast(tc.a, tc.b); got < tc.want-0.01 || got > tc.want+0.01 {
			t.Errorf("contrast(%v, %v) = %.3f, want %.2f", tc.a, tc.b, got, tc.want)
		}
	}
}
