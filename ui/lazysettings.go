package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// lazySettings stands in for the settings until they are first shown.
// Building them lays out six pages, the Capabilities list of every
// capability among them, and measures their text in the monospace and
// bold styles, whose fonts Fyne then parses: 14 MB of an idle window that
// most sessions never open the settings in. The real view is built the
// first time its object is shown (the Settings button, a hint's Navigate),
// and it reads the core's state then, as it would on an event. The one
// thing it cannot read back is the latest disk change the watcher
// reported (the Capabilities banner says what changed): that event is
// kept and replayed.
type lazySettings struct {
	build func() settingsView
	frame *lazyFrame
	real  settingsView
	// disk is the latest EventDisk seen before the build.
	disk *assistant.Event
	stop func()
}

// replayer is implemented by settings that can take an event they missed
// (*settings.Settings).
type replayer interface {
	Replay(e assistant.Event)
}

var (
	_ settingsView = (*lazySettings)(nil)
	_ pageReporter = (*lazySettings)(nil)
	_ closer       = (*lazySettings)(nil)
)

// newLazySettings returns settings built by build when first needed; until
// then it follows env.Core's disk events itself.
func newLazySettings(env *bridge.Env, build func() settingsView) *lazySettings {
	l := &lazySettings{build: build}
	l.frame = newLazyFrame(func() { l.ensure() })
	if env.Core != nil {
		l.stop = env.Core.Subscribe(func(e assistant.Event) {
			if e.Kind == assistant.EventDisk {
				env.Do(func() { l.missed(e) })
			}
		})
	}
	return l
}

// ensure builds the real settings once (on the UI goroutine).
func (l *lazySettings) ensure() settingsView {
	if l.real != nil {
		return l.real
	}
	l.real = l.build()
	if l.stop != nil {
		l.stop() // the real settings follow the core themselves
		l.stop = nil
	}
	if l.disk != nil {
		l.replay(*l.disk)
		l.disk = nil
	}
	l.frame.set(l.real.Object())
	return l.real
}

// missed records a disk event published before the real settings
// subscribed. One queued before the build but run after it goes to them
// (a duplicate only shows the same banner again).
func (l *lazySettings) missed(e assistant.Event) {
	if l.real == nil {
		l.disk = &e
		return
	}
	l.replay(e)
}

func (l *lazySettings) replay(e assistant.Event) {
	if r, ok := l.real.(replayer); ok {
		r.Replay(e)
	}
}

// Object is a frame that builds the settings when the shell first shows it.
func (l *lazySettings) Object() fyne.CanvasObject { return l.frame }

func (l *lazySettings) Show(page hint.Page, target string) { l.ensure().Show(page, target) }

func (l *lazySettings) HandleDrop(uris []fyne.URI) { l.ensure().HandleDrop(uris) }

// Page is the page showing; PageNone before the settings exist (they have
// never been shown). Settings that cannot say take every drop, as the
// shell expects of them.
func (l *lazySettings) Page() hint.Page {
	if l.real == nil {
		return hint.PageNone
	}
	if p, ok := l.real.(pageReporter); ok {
		return p.Page()
	}
	return hint.PageCapabilities
}

// Close stops following the core and closes the real settings if built.
func (l *lazySettings) Close() {
	if l.stop != nil {
		l.stop()
		l.stop = nil
	}
	if c, ok := l.real.(closer); ok {
		c.Close()
	}
}

// lazyFrame holds the settings' object once built and passes Show and Hide
// on to it: the settings learn from those that they opened (the Model
// page loads its model list) or were left.
type lazyFrame struct {
	widget.BaseWidget
	build   func()
	content *fyne.Container
	inner   fyne.CanvasObject
}

func newLazyFrame(build func()) *lazyFrame {
	f := &lazyFrame{build: build, content: container.NewStack()}
	f.ExtendBaseWidget(f)
	return f
}

// set installs the built object, hidden until the frame shows it, as the
// eagerly built settings were before their first Show.
func (f *lazyFrame) set(o fyne.CanvasObject) {
	o.Hide()
	f.inner = o
	f.content.Objects = []fyne.CanvasObject{o}
	f.content.Refresh()
}

func (f *lazyFrame) Show() {
	f.BaseWidget.Show()
	if f.inner == nil {
		f.build()
	}
	f.inner.Show()
}

func (f *lazyFrame) Hide() {
	f.BaseWidget.Hide()
	if f.inner != nil {
		f.inner.Hide()
	}
}

func (f *lazyFrame) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(f.content)
}
