package ui

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// Ctrl+plus and Ctrl+minus step the window's text size, the chat measures
// its rows again, Ctrl+0 brings the theme's size back, and the size is
// remembered for the next start.
func TestTextSizeShortcuts(t *testing.T) {
	h := newHarness(t, nil)
	useReadableTheme(h.shell.env.App)
	a := h.shell.env.App
	base := theme.DefaultTheme().Size(theme.SizeNameText)
	text := func() float32 { return a.Settings().Theme().Size(theme.SizeNameText) }
	press := func(k fyne.KeyName, shift bool) {
		sc := ctrl(k)
		if shift {
			sc.Modifier |= fyne.KeyModifierShift
		}
		h.win.Canvas().(fyne.Shortcutable).TypedShortcut(sc)
	}
	steps := []struct {
		name  string
		key   fyne.KeyName
		shift bool
		want  float32
	}{
		{"Ctrl+= makes it larger", fyne.KeyEqual, false, 1.1},
		{"Ctrl+plus (Shift+=) larger again", fyne.KeyEqual, true, 1.25},
		{"Ctrl+minus smaller", fyne.KeyMinus, false, 1.1},
		{"Ctrl+0 as the theme has it", fyne.Key0, false, 1},
		{"Ctrl+minus below it", fyne.KeyMinus, false, 0.9},
	}
	for _, st := range steps {
		h.chat.calls = nil
		press(st.key, st.shift)
		if got := text(); got != base*st.want {
			t.Fatalf("%s: text size %v, want %v", st.name, got, base*st.want)
		}
		if !slices.Contains(h.chat.calls, "text size") {
			t.Errorf("%s: the chat did not measure its rows again (%v)", st.name, h.chat.calls)
		}
		if got := a.Preferences().Float(textScalePref); float32(got) != st.want {
			t.Errorf("%s: remembered %v, want %v", st.name, got, st.want)
		}
	}
	for range 20 {
		press(fyne.KeyMinus, false)
	}
	if got := text(); got != base*textScales[0] {
		t.Errorf("the smallest size is %v, want %v", got, base*textScales[0])
	}

	// A new window of the same app starts at the size remembered.
	a.Preferences().SetFloat(textScalePref, 1.4)
	a.Settings().SetTheme(theme.DefaultTheme())
	useReadableTheme(a)
	restoreTextScale(a)
	if got := text(); got != base*1.4 {
		t.Errorf("after a restart the text size is %v, want %v", got, base*1.4)
	}
}
