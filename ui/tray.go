package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/wrasse-app/wrasse/assets"
)

// installTray puts up Wrasse's tray icon, where the desktop has a tray
// (host reports whether it does), with New chat and Show Wrasse (Fyne
// adds Quit), so that it shows Wrasse runs and brings the window back.
// Closing the window hides it to the tray while the person asked to keep
// Wrasse running (keep: the core's keepRunning setting, read at each
// close, so switching it takes effect at once); otherwise, or with no
// tray to come back from, closing quits as always. Build calls it.
func (s *Shell) installTray(keep, host func() bool) {
	w := s.env.Window
	if w == nil {
		return
	}
	desk, ok := s.env.App.(desktop.App)
	ok = ok && host()
	if ok {
		desk.SetSystemTrayIcon(assets.Icon())
		desk.SetSystemTrayMenu(fyne.NewMenu("Wrasse",
			fyne.NewMenuItem("New chat", func() {
				s.showWindow()
				s.newChat()
			}),
			fyne.NewMenuItem("Show Wrasse", s.showWindow),
		))
	}
	w.SetCloseIntercept(func() {
		if ok && keep != nil && keep() {
			w.Hide()
			return
		}
		w.Close()
	})
}

// showWindow brings the window back from the tray (or from behind).
func (s *Shell) showWindow() {
	s.env.Window.Show()
	s.env.Window.RequestFocus()
}
