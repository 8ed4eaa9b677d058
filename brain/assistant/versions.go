package assistant

import (
	"context"
	"fmt"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/store"
)

// SwitchVersion shows version n (from 1) of the message at seq of
// conversation id, with what followed that version (an edit or a
// regenerate kept the others: see Resend). The live version is kept in
// turn, in the same transaction. It claims the conversation, so it is
// refused with agent.ErrBusy while a turn runs in it, and announces the
// change. It returns the seq the message now has (each version is its
// own event).
func (a *App) SwitchVersion(ctx context.Context, id store.ID, seq uint64, n int) (uint64, error) {
	if _, err := a.db.GetConversation(id); err != nil {
		return 0, a.noConversation(id, err)
	}
	if _, ok := a.claimRun(ctx, id); !ok {
		return 0, fmt.Errorf("%s: %w: stop it or wait for it to end before switching versions", id, agent.ErrBusy)
	}
	defer a.release(id)
	head, err := a.db.SwitchVersion(id, seq, n)
	if err != nil {
		return 0, err
	}
	a.subs.publish(Event{Kind: EventConversations, Names: []string{id.String()}})
	return head, nil
}

// replaceFrom takes user message msg and what followed it out of
// conversation id before text replaces it: kept as a version
// (store.KeepVersion), unless it is the same message again and nothing
// answered it (a Retry after a failure), which would be a version with
// nothing in it that the new one lacks.
func (a *App) replaceFrom(id store.ID, msg store.Event, text string) error {
	if text == msg.Text {
		events, err := a.db.Events(id)
		if err != nil {
			return err
		}
		if !answered(events, msg.Seq) {
			_, err := a.db.TruncateFrom(id, msg.Seq)
			return err
		}
	}
	_, err := a.db.KeepVersion(id, msg.Seq)
	return err
}

// answered reports whether anything after the message at seq answered it:
// a reply with text, a tool call, its decision or its result (failures,
// notices and token counts do not count).
func answered(events []store.Event, seq uint64) bool {
	for _, e := range events {
		if e.Seq <= seq {
			continue
		}
		switch e.Type {
		case store.EventError, store.EventUsage, store.EventNotice, store.EventUserMessage:
		case store.EventAssistantText, store.EventThinking:
			if e.Text != "" {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// Versions says, for each message of conversation id that has other
// versions, which one is shown and how many there are.
func (h History) Versions(id store.ID) (map[uint64]store.Version, error) {
	return h.db.Versions(id)
}

// VersionEvents are the events of the versions not shown of the message
// at seq of conversation id, by version number (for export).
func (h History) VersionEvents(id store.ID, seq uint64) (map[int][]store.Event, error) {
	return h.db.VersionEvents(id, seq)
}
