package chat

import (
	"errors"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// errorCard shows a failure inline: what went wrong, what to do about it
// (the error's hint), Retry, and a button to the settings page with the
// fix when the hint names one.
type errorCard struct {
	c      *Chat
	quiet  bool
	r      *row
	col    *column
	text   *wrapText
	action *wrapText
	retry  *widget.Button
	fix    *widget.Button
	icon   *widget.Icon
	// buttons holds Retry and the fix; it goes when neither shows, so no
	// empty line stays behind.
	buttons *fyne.Container
}

func newErrorCard(c *Chat) *errorCard {
	e := &errorCard{c: c}
	e.text = newWrapText("", fyne.TextStyle{}, theme.ColorNameError)
	e.action = newWrapText("", fyne.TextStyle{Italic: true}, theme.ColorNameForeground)
	e.retry = widget.NewButtonWithIcon("Retry", theme.ViewRefreshIcon(), func() { c.retry() })
	e.fix = widget.NewButtonWithIcon("", theme.SettingsIcon(), func() {
		if h, ok := hint.Of(e.r.err); ok {
			c.env.Show(h)
		}
	})
	e.icon = widget.NewIcon(theme.NewErrorThemedResource(theme.ErrorIcon()))
	e.buttons = container.NewHBox(e.retry, e.fix, layout.NewSpacer())
	e.col = newColumn(theme.ColorNameHeaderBackground,
		container.NewBorder(nil, nil, e.icon, nil, e.text), e.action, e.buttons)
	e.col.measureWith(e.col.parts[0], func(w float32) float32 {
		return max(e.text.heightFor(w-e.icon.MinSize().Width-theme.Padding()), e.icon.MinSize().Height)
	})
	return e
}

func (e *errorCard) bind(r *row, last bool) {
	e.r = r
	// A turn the user stopped is not a failure: a neutral note says so.
	if stoppedByUser(r) {
		e.text.setText("Stopped.", e.quiet)
		e.text.colorName = theme.ColorNamePlaceHolder
		if !e.quiet {
			e.icon.SetResource(theme.MediaStopIcon())
		}
	} else {
		e.text.setText(r.text, e.quiet)
		e.text.colorName = theme.ColorNameError
		if !e.quiet {
			e.icon.SetResource(theme.NewErrorThemedResource(theme.ErrorIcon()))
		}
	}
	h, ok := hint.Of(r.err)
	e.action.setText(h.Action, e.quiet)
	setVisible(e.action, ok && h.Action != "")
	setVisible(e.fix, ok && h.Page != hint.PageNone)
	if !e.quiet {
		e.fix.SetText(pageButton(h.Page))
	}
	setVisible(e.retry, last && !e.c.running(e.c.cur))
	setVisible(e.buttons, e.retry.Visible() || e.fix.Visible())
	if !e.quiet {
		e.col.Refresh()
	}
}

// stoppedByUser reports whether error row r says the user stopped the
// turn (Esc or Stop).
func stoppedByUser(r *row) bool {
	return errors.Is(r.err, agent.ErrInterrupted) || r.status == store.StatusInterrupted
}

// pageButton names the button to a settings page.
func pageButton(p hint.Page) string {
	switch p {
	case hint.PageModel:
		return "Model settings"
	case hint.PageCapabilities, hint.PageCapability:
		return "Capabilities"
	case hint.PageFolders:
		return "Folders"
	}
	return "Settings"
}
