package markdown

import (
	"log/slog"
	"net/url"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
	"golang.org/x/net/idna"
)

// Options are what a rendered message needs from the app. Every field may
// be nil; the defaults use the current Fyne app.
type Options struct {
	// Copy puts text on the clipboard (a code block's Copy button).
	Copy func(text string)
	// OpenURL opens a tapped link. Only http, https and mailto links are
	// tappable: a model's reply must not open file: or custom-scheme URLs.
	OpenURL func(*url.URL)
	// ConfirmOpen shows the full address of a tapped link whose text is
	// not its address (an image's, or "[the report](https://…?d=…)") and
	// calls open only if the person agrees. nil: a dialog in the window
	// that holds the message.
	ConfirmOpen func(from fyne.CanvasObject, u *url.URL, open func())
	// After runs f on the UI goroutine after d; it times the revert of a
	// Copy button from "Copied". Tests pass one that keeps f to call later.
	After func(d time.Duration, f func())
	// Parsed is told the size of each source SetMarkdown parses, so a
	// caller can count what re-rendering costs (tests of streaming).
	Parsed func(bytes int)
	// Parser is shared by the views of a list (nil: the view builds its
	// own).
	Parser *Parser
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

// openLink opens a tapped link: at once when its text is its address
// (shown), else after the person saw where it goes and agreed, so a link
// cannot send data in its address under a harmless text with one tap.
func (o *Options) openLink(from fyne.CanvasObject, u *url.URL, shown bool) {
	if shown {
		o.openURL(u)
		return
	}
	open := func() { o.openURL(u) }
	if o.ConfirmOpen != nil {
		o.ConfirmOpen(from, u, open)
		return
	}
	a := fyne.CurrentApp()
	if a == nil {
		return
	}
	c := a.Driver().CanvasForObject(from)
	var win fyne.Window
	for _, w := range a.Driver().AllWindows() {
		if c != nil && w.Canvas() == c {
			win = w
		}
	}
	if win == nil {
		// No window to ask in: nothing opens unseen.
		slog.Warn("markdown: no window to confirm a link in; not opened", "url", u.Redacted())
		return
	}
	addr := widget.NewLabel(u.String())
	addr.Wrapping = fyne.TextWrapBreak
	addr.TextStyle = fyne.TextStyle{Monospace: true}
	lines := []fyne.CanvasObject{widget.NewLabel("The link's text does not show where it goes. It opens:"), addr}
	if host := u.Hostname(); host != "" {
		if ascii, err := idna.Punycode.ToASCII(host); err == nil && ascii != host {
			lines = append(lines, widget.NewLabel("The site's name spelled out: "+ascii))
		}
	}
	d := dialog.NewCustomConfirm("Open this link?", "Open", "Cancel", container.NewVBox(lines...), func(ok bool) {
		if ok {
			open()
		}
	}, win)
	// A wrapped label has no width of its own: give the dialog one.
	w := float32(480)
	if cw := win.Canvas().Size().Width; cw > 0 && cw < w {
		w = cw
	}
	d.Resize(fyne.NewSize(w, 220))
	d.Show()
}

func (o *Options) after(d time.Duration, f func()) {
	if o.After != nil {
		o.After(d, f)
		return
	}
	time.AfterFunc(d, func() { fyne.Do(f) })
}
