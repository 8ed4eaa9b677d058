package bridge

import (
	"net/url"

	"fyne.io/fyne/v2"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/clipimage"
	"github.com/wrasse-app/wrasse/ui/notify"
)

// Env is what every screen is built from.
type Env struct {
	App    fyne.App
	Window fyne.Window
	Core   *assistant.App
	// Do runs fn on the UI goroutine (fyne.Do in production). Code on any
	// other goroutine touches widgets only through it.
	Do func(fn func())
	// Go runs fn in the background (a goroutine in production): file and
	// network I/O, turns, installs. It must not touch widgets except
	// through Do.
	Go func(fn func())
	// Copy puts text on the clipboard.
	Copy func(text string)
	// OpenURL opens a link in the user's browser.
	OpenURL func(u *url.URL)
	// Navigate shows the page a hint points to (the Model page for a
	// refused key, a capability's page, ...). Set by the shell.
	Navigate func(page hint.Page, target string)
	// OpenConversation shows conversation id in the chat (a scheduled
	// run's, from the Tasks page or a notification). Set by the shell.
	OpenConversation func(id store.ID)
	// Notify raises a desktop notification; open runs (on any goroutine)
	// when it is clicked, where the system says so.
	Notify notify.Func
	// PasteImage is the clipboard's picture as PNG, nil when it holds
	// none (Fyne's clipboard carries text only); nil where no picture can
	// be read. It may block briefly: call it off the UI goroutine.
	PasteImage func() []byte
}

// Production returns the runners of a real app: fyne.Do and goroutines,
// the app's clipboard and its URL opener.
func Production(a fyne.App, w fyne.Window, core *assistant.App) *Env {
	return &Env{
		App: a, Window: w, Core: core,
		Do: fyne.Do,
		Go: func(fn func()) { go fn() },
		Copy: func(text string) {
			a.Clipboard().SetContent(text)
		},
		OpenURL: func(u *url.URL) {
			if err := a.OpenURL(u); err != nil {
				core.Logger().Warn("opening a link", "url", u.String(), "error", err)
			}
		},
		Navigate:         func(hint.Page, string) {},
		OpenConversation: func(store.ID) {},
		Notify:           notify.New(a, core.Logger()),
		PasteImage:       (&clipimage.Reader{}).Image,
	}
}

// Show navigates to where h says the fix is; a hint without a page does
// nothing.
func (e *Env) Show(h hint.Hint) {
	if h.Page != hint.PageNone && e.Navigate != nil {
		e.Navigate(h.Page, h.Target)
	}
}
