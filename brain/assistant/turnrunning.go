package assistant

import "github.com/wrasse-app/wrasse/brain/store"

// TurnRunning reports whether a turn runs in conversation id now, started
// by anyone (the window, a command forwarded to it, a scheduled run). A
// front end that shows a call with no result yet tells by it whether the
// call is under way or was left unfinished when an app closed.
func (a *App) TurnRunning(id store.ID) bool {
	a.busyMu.Lock()
	defer a.busyMu.Unlock()
	r := a.busy[id]
	return r != nil && r.cancel != nil
}
