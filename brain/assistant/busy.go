package assistant

import (
	"context"

	"github.com/wrasse-app/wrasse/brain/store"
)

// running is the claim on a conversation: whoever holds it (a turn, a
// delete, an unload) is the only one changing the conversation. A turn's
// claim carries the cancel of the turn's context, so a change that must
// end the turn first (deleting the conversation) can stop it and wait
// for it to let go.
type running struct {
	cancel context.CancelFunc // nil for a claim that is not a turn
	done   chan struct{}      // closed by release
}

// claim takes conversation id for a change that is not a turn; false when
// something else holds it.
func (a *App) claim(id store.ID) bool {
	a.busyMu.Lock()
	defer a.busyMu.Unlock()
	if a.busy[id] != nil {
		return false
	}
	a.busy[id] = &running{done: make(chan struct{})}
	return true
}

// claimRun takes conversation id for a turn and returns the context the
// turn must run under: cancelled when the caller's is, or when
// stopAndClaim ends the turn.
func (a *App) claimRun(ctx context.Context, id store.ID) (context.Context, bool) {
	a.busyMu.Lock()
	defer a.busyMu.Unlock()
	if a.busy[id] != nil {
		return ctx, false
	}
	ctx, cancel := context.WithCancel(ctx)
	a.busy[id] = &running{cancel: cancel, done: make(chan struct{})}
	return ctx, true
}

func (a *App) release(id store.ID) {
	a.busyMu.Lock()
	r := a.busy[id]
	delete(a.busy, id)
	a.busyMu.Unlock()
	if r != nil {
		if r.cancel != nil {
			r.cancel()
		}
		close(r.done)
	}
}

// stopAndClaim takes conversation id, first stopping a turn that runs in
// it and waiting for that turn to end (its last events stored), so what
// follows never races a turn still writing. A claim that is not a turn
// (another delete, say) is waited for too. It gives up when ctx ends.
func (a *App) stopAndClaim(ctx context.Context, id store.ID) error {
	for {
		a.busyMu.Lock()
		r := a.busy[id]
		if r == nil {
			a.busy[id] = &running{done: make(chan struct{})}
			a.busyMu.Unlock()
			return nil
		}
		a.busyMu.Unlock()
		if r.cancel != nil {
			r.cancel()
		}
		select {
		case <-r.done:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
}
