package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/ui/bridge"
	"github.com/wrasse-app/wrasse/ui/settings"
)

// firstRunChat shows the first-run page (settings.FirstRun) in the
// chat's place while a new workspace has no model set up, and the chat
// once one is (or the person skips it). The shell sees the chat through
// it: the composer takes no focus while the page shows, so nothing typed
// on the page can be sent to a model that is not there.
type firstRunChat struct {
	chatView
	page    *settings.FirstRun
	obj     *fyne.Container
	showing bool
	stop    func()
}

var _ closer = (*firstRunChat)(nil)

// withFirstRun wraps c with the first-run page when the workspace needs
// it (settings.FirstRunNeeded), looking for servers with find.
func withFirstRun(env *bridge.Env, c chatView, find settings.ServerFinder) chatView {
	if env.Core == nil || !settings.FirstRunNeeded(env.Core) {
		return c
	}
	f := &firstRunChat{chatView: c, showing: true}
	f.page = settings.NewFirstRun(env, find)
	inner := c.Object()
	inner.Hide()
	f.obj = container.NewStack(inner, f.page.Object())
	f.page.OnDone = func() {
		f.showing = false
		f.unsubscribe()
		f.page.Object().Hide()
		inner.Show()
		f.obj.Refresh()
		c.FocusComposer()
	}
	f.stop = env.Core.Subscribe(func(e assistant.Event) {
		if e.Kind == assistant.EventConfig {
			env.Do(f.page.ConfigChanged)
		}
	})
	f.page.Start()
	return f
}

// Object is the chat, or the first-run page over it.
func (f *firstRunChat) Object() fyne.CanvasObject { return f.obj }

// TextSizeChanged passes the change on to the chat beneath the page.
func (f *firstRunChat) TextSizeChanged() {
	if t, ok := f.chatView.(textSizer); ok {
		t.TextSizeChanged()
	}
}

// FocusComposer focuses the composer once the chat shows.
func (f *firstRunChat) FocusComposer() {
	if !f.showing {
		f.chatView.FocusComposer()
	}
}

// Close ends the page's work and the chat's.
func (f *firstRunChat) Close() {
	f.unsubscribe()
	f.page.Close()
	if c, ok := f.chatView.(closer); ok {
		c.Close()
	}
}

func (f *firstRunChat) unsubscribe() {
	if f.stop != nil {
		f.stop()
		f.stop = nil
	}
}
