// Package bridge is the one place where the desktop app's screens meet
// Fyne's threading and the application core. Env carries what every screen
// needs: the window, the core, and the two ways to run code (Do on the UI
// goroutine, Go in the background). Production uses fyne.Do and
// goroutines; headless tests pass runners that make the order of events
// deterministic. No screen calls fyne.Do itself.
package bridge
