package markdown

import (
	"log/slog"
	"net/url"
	"time"

	"fyne.io/fyne/v2"
)

// Options are what a rendered message needs from the app. Every field may
// be nil; the defaults use the current Fyne app.
type Options struct {
	// Copy puts text on the clipboard (a code block's Copy button).
	Copy func(text string)
	// OpenURL opens a tapped link. Only http, https and mailto links are
	// tappable: a model's reply must not open file: or custom-scheme URLs.
	OpenURL func(*url.URL)
	// After runs f on the UI goroutine after d; it times the revert of a
	// Copy button from "Copied". Tests pass one that keeps f to call later.
	After func(d time.Duration, f func())
}

func (o *Options) copy(text string) {
	if o.Copy != nil {
		o.Copy(text)
		return
	}
	if a := fyne.CurrentApp(); a != nil {
		a.Clipboard().SetContent(text)
	}
}

func (o *Options) openURL(u *url.URL) {
	if o.OpenURL != nil {
		o.OpenURL(u)
		return
	}
	if a := fyne.CurrentApp(); a != nil {
		if err := a.OpenURL(u); err != nil {
			slog.Warn("markdown: opening a link failed", "url", u.String(), "err", err)
		}
	}
}

func (o *Options) after(d time.Duration, f func()) {
	if o.After != nil {
		o.After(d, f)
		return
	}
	time.AfterFunc(d, func() { fyne.Do(f) })
}
