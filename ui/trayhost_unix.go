//go:build linux || freebsd || openbsd || netbsd

package ui

import "github.com/godbus/dbus/v5"

// trayHost reports whether a tray icon can be put up: here the tray is
// reached over the session bus (StatusNotifierItem), and with no bus
// Fyne's tray fails, and panics when the app quits (fyne.io/systray ends
// a connection it never made). The session connection is the shared one
// ui/notify also uses.
func trayHost() bool {
	_, err := dbus.SessionBus()
	return err == nil
}
