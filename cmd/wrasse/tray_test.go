package main

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/wrasse-app/wrasse/brain/assistant"
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
	intercept      func()
	hidden, closed bool
}

func (w *closingWindow) SetCloseIntercept(f func()) { w.intercept = f }
func (w *closingWindow) Hide()                      { w.hidden = true }
func (w *closingWindow) Close()                     { w.closed = true }

// With keepRunning off, closing the window closes it (the app quits);
// with it on, closing hides the window and the tray icon's menu shows it
// again, so scheduled tasks go on.
func TestKeepInTray(t *testing.T) {
	tests := []struct {
		keep         string
		hidden, tray bool
	}{
		{"false", false, false},
		{"true", true, true},
	}
	for _, tc := range tests {
		t.Run("keepRunning="+tc.keep, func(t *testing.T) {
			core, err := assistant.Open(assistant.Options{Workspace: t.TempDir(), LockTimeout: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer core.Close()
			if err := core.SetSetting(assistant.TasksCapability, assistant.KeepRunningSetting, tc.keep); err != nil {
				t.Fatal(err)
			}
			a := &trayApp{App: test.NewTempApp(t)}
			w := &closingWindow{Window: test.NewTempWindow(t, nil)}
			keepInTray(a, w, core)
			if w.intercept == nil {
				t.Fatal("no close intercept")
			}
			w.intercept()
			if w.hidden != tc.hidden || w.closed == tc.hidden || (a.menu != nil) != tc.tray {
				t.Fatalf("closing: hidden %v, closed %v, tray %v", w.hidden, w.closed, a.menu != nil)
			}
			if tc.tray && (len(a.menu.Items) == 0 || a.menu.Items[0].Label != "Show Wrasse") {
				t.Fatalf("tray menu %+v", a.menu.Items)
			}
		})
	}
}
