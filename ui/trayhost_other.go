//go:build !(linux || freebsd || openbsd || netbsd)

package ui

// trayHost reports whether a tray icon can be put up: macOS and Windows
// always have one.
func trayHost() bool { return true }
