package assistant

import (
	"strings"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

// A conversation's organisation (pinned, archived) and its own
// instructions. Like a rename these are fields of its record, written in
// one transaction of their own: they need not wait for a running turn
// (the turn reads the instructions when it builds its next request), and
// each publishes EventConversations so every front end sees it at once.

// PinConversation pins conversation id to the top of the list (pinned
// true) or unpins it.
func (a *App) PinConversation(id store.ID, pinned bool) error {
	return a.organise(id, func() error { return a.db.SetPinned(id, pinned) })
}

// ArchiveConversation takes conversation id out of the list (archived
// true; it stays searchable and listed as archived) or brings it back.
// Archiving unpins it.
func (a *App) ArchiveConversation(id store.ID, archived bool) error {
	return a.organise(id, func() error { return a.db.SetArchived(id, archived) })
}

// SetConversationInstructions gives conversation id instructions of its
// own, added to the system prompt of its every turn from the next
// request on; "" removes them. Secrets in them are redacted, as in
// titles; more than store.MaxInstructionsLen is refused.
func (a *App) SetConversationInstructions(id store.ID, text string) error {
	return a.organise(id, func() error {
		if err := a.db.SetInstructions(id, text); err != nil {
			return err
		}
		a.instructionsEdits.Add(1)
		return nil
	})
}

func (a *App) organise(id store.ID, set func() error) error {
	if err := set(); err != nil {
		return a.noConversation(id, err)
	}
	a.subs.publish(Event{Kind: EventConversations, Names: []string{id.String()}})
	return nil
}

// identityFor is the identity of a turn in conversation c (nil: a new
// one): the workspace's identity prompt, then the conversation's own
// instructions. An edit made while the turn runs applies to its next
// request: the record is read again only after some conversation's
// instructions changed (instructionsEdits), so a turn still reads its
// conversation once.
func (a *App) identityFor(c *store.Conversation) func() string {
	if c == nil {
		return a.identity
	}
	// c.ID is read at each request: a first turn's record gets its id
	// after the agent was made (turn.go).
	instructions, seen := c.Instructions, a.instructionsEdits.Load()
	return func() string {
		if now := a.instructionsEdits.Load(); now != seen && c.ID != 0 {
			if conv, err := a.db.GetConversation(c.ID); err == nil {
				instructions, seen = conv.Instructions, now
			}
		}
		base := a.identity()
		if strings.TrimSpace(instructions) == "" {
			return base
		}
		return withInstructions(base, instructions)
	}
}

// withInstructions adds a conversation's instructions to the identity
// prompt (the default one when the workspace's is empty, which the agent
// would otherwise fill in), marked as the person's for this conversation.
func withInstructions(identity, instructions string) string {
	if strings.TrimSpace(identity) == "" {
		identity = workspace.DefaultIdentity
	}
	return strings.TrimSpace(identity) + "\n\n<conversation-instructions>\n" +
		"The user set these instructions for this conversation; follow them in every reply here:\n" +
		strings.TrimSpace(instructions) + "\n</conversation-instructions>"
}
