package assistant

import (
	"context"
	"fmt"
	"strings"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// Session is the capability session of conversation id as its next turn
// would begin it (the capabilities it has loaded), or a fresh session for
// id 0. Front ends use it to show the index a conversation sees.
func (a *App) Session(id store.ID) (*cerebellum.Session, error) {
	if id == 0 {
		return a.reg.NewSession("", nil), nil
	}
	if _, err := a.db.GetConversation(id); err != nil {
		return nil, a.noConversation(id, err)
	}
	loaded, err := a.db.Loaded(id)
	if err != nil {
		return nil, fmt.Errorf("read what %s has loaded: %w", id, err)
	}
	return a.reg.NewSession(id.String(), loaded), nil
}

// DeleteConversation deletes conversation id and its events, and
// announces it (EventConversations). A turn running in it is stopped first
// and waited for, so its last writes never land after the delete; ctx
// bounds that wait.
func (a *App) DeleteConversation(ctx context.Context, id store.ID) error {
	if _, err := a.db.GetConversation(id); err != nil {
		return a.noConversation(id, err)
	}
	if err := a.stopAndClaim(ctx, id); err != nil {
		return fmt.Errorf("delete %s: waiting for its turn to stop: %w", id, err)
	}
	defer a.release(id)
	if err := a.db.DeleteConversation(id); err != nil {
		return a.noConversation(id, err)
	}
	a.reg.TrackLoaded(id.String(), nil)
	a.subs.publish(Event{Kind: EventConversations, Names: []string{id.String()}})
	return nil
}

// RenameConversation sets conversation id's title (blank clears it, so
// the first message names it again) and announces it. A running turn may
// go on: the title is not part of what it writes.
func (a *App) RenameConversation(id store.ID, title string) error {
	if err := a.db.SetTitle(id, strings.TrimSpace(title)); err != nil {
		return a.noConversation(id, err)
	}
	a.subs.publish(Event{Kind: EventConversations, Names: []string{id.String()}})
	return nil
}

// Unload takes capability name out of conversation id's loaded set, so
// its tools leave the next request (a later call loads it again). A
// conversation whose turn is running is refused with agent.ErrBusy: the
// running turn owns the set until it ends.
func (a *App) Unload(id store.ID, name string) error {
	if _, err := a.db.GetConversation(id); err != nil {
		return a.noConversation(id, err)
	}
	if !a.claim(id) {
		return fmt.Errorf("%s: %w", id, agent.ErrBusy)
	}
	defer a.release(id)
	loaded, err := a.db.Loaded(id)
	if err != nil {
		return err
	}
	kept := make([]string, 0, len(loaded))
	for _, n := range loaded {
		if n != name {
			kept = append(kept, n)
		}
	}
	if len(kept) == len(loaded) {
		return fmt.Errorf("%w: %s has not loaded %s", ErrNotLoaded, id, name)
	}
	if err := a.db.SetLoaded(id, kept); err != nil {
		return err
	}
	a.reg.TrackLoaded(id.String(), kept)
	a.subs.publish(Event{Kind: EventConversations, Names: []string{id.String()}})
	return nil
}
