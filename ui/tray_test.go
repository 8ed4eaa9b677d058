package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// trayApp is a test app with a system tray that records its menu.
type trayApp struct {
	fyne.App
	menu *fyne.Menu
}

func (a *trayApp) SetSystemTrayMenu(m *fyne.Menu)  { a.menu = m }
func (a *trayApp) SetSystemTrayIcon(fyne.Resource) {}
func (a *trayApp) SetSystemTrayWindow(fyne.Window) {}

// closingWindow records what closing it did.
type closingWindow struct {
	fyne.Window
	intercept              func()
	hidden, closed, raised bool
}

func (w *closingWindow) SetCloseIntercept(f func()) { w.intercept = f }
func (w *closingWindow) Hide()                      { w.hidden = true }
func (w *closingWindow) Close()                     { w.closed = true }
func (w *closingWindow) Show()                      { w.hidden = false }
func (w *closingWindow) RequestFocus()              { w.raised = true }

// The tray icon is up wherever the desktop has a tray, with New chat and
// Show Wrasse (Fyne adds Quit). Closing the window quits unless the
// person asked to keep Wrasse running, read at the close; then it hides,
// and the tray brings it back.
func TestTray(t *testing.T) {
	for _, keep := range []bool{false, true} {
		t.Run(map[bool]string{false: "closing quits", true: "closing keeps it in the tray"}[keep], func(t *testing.T) {
			a := &trayApp{App: test.NewTempApp(t)}
			w := &closingWindow{Window: test.NewTempWindow(t, nil)}
			env := &bridge.Env{App: a, Window: w, Do: func(f func()) { f() }, Go: func(f func()) { f() }}
			chat := &fakeChat{}
			s := &Shell{env: env}
			s.assemble(chat, &fakeSettings{page: hint.PageModel})
			on := false
			s.installTray(func() bool { return on }, func() bool { return true })
			if a.menu == nil || len(a.menu.Items) != 2 || a.menu.Items[0].Label != "New chat" || a.menu.Items[1].Label != "Show Wrasse" {
				t.Fatalf("tray menu %+v, want New chat and Show Wrasse", a.menu)
			}
			on = keep // switched after start: read at the close
			w.intercept()
			if w.hidden != keep || w.closed == keep {
				t.Fatalf("closing: hidden %v, closed %v; want hidden %v", w.hidden, w.closed, keep)
			}
			chat.calls = nil
			a.menu.Items[0].Action()
			if w.hidden || !w.raised || len(chat.calls) == 0 || chat.calls[1] != "new" {
				t.Errorf("New chat: hidden %v, raised %v, chat calls %v; want the window up on a new chat", w.hidden, w.raised, chat.calls)
			}
		})
	}
}

// With no tray (no session bus under Linux) no icon is put up, and
// closing quits even with keepRunning on: a hidden window could not come
// back.
func TestNoTrayHost(t *testing.T) {
	a := &trayApp{App: test.NewTempApp(t)}
	w := &closingWindow{Window: test.NewTempWindow(t, nil)}
	env := &bridge.Env{App: a, Window: w, Do: func(f func()) { f() }, Go: func(f func()) { f() }}
	s := &Shell{env: env}
	s.assemble(&fakeChat{}, &fakeSettings{page: hint.PageModel})
	s.installTray(func() bool { return true }, func() bool { return false })
	w.intercept()
	if a.menu != nil || w.hidden || !w.closed {
		t.Fatalf("tray %v, hidden %v, closed %v; want no tray and the window closed", a.menu != nil, w.hidden, w.closed)
	}
}
