package main

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/wrasse-app/wrasse/assets"
	"github.com/wrasse-app/wrasse/brain/assistant"
)

// keepInTray lets the app outlive its window while the person asked for
// it (the tasks capability's keepRunning), so scheduled tasks keep
// running: closing the window hides it, and the tray icon shows it again
// or quits. With the setting off, closing the window quits as always.
// The tray icon is put up when the setting is on, at start or when it is
// switched on; on the UI goroutine.
func keepInTray(a fyne.App, w fyne.Window, core *assistant.App) (refresh func()) {
	desk, ok := a.(desktop.App)
	tray := false
	refresh = func() {
		if !ok || tray || !core.KeepRunning() {
			return
		}
		tray = true
		desk.SetSystemTrayIcon(assets.Icon())
		desk.SetSystemTrayMenu(fyne.NewMenu("Wrasse",
			fyne.NewMenuItem("Show Wrasse", func() {
				w.Show()
				w.RequestFocus()
			}),
			// Fyne adds Quit to a tray menu itself.
		))
	}
	refresh()
	w.SetCloseIntercept(func() {
		if ok && core.KeepRunning() {
			refresh()
			w.Hide()
			return
		}
		w.Close()
	})
	return refresh
}
