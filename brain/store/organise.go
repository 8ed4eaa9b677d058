package store

import (
	"errors"
	"fmt"
	"strings"
)

// A conversation's organisation (pinned to the top of the list, archived
// out of it) and its own instructions are fields of its record: like a
// rename, setting them does not move the conversation in the list.

// ErrInstructionsTooLong refuses instructions over MaxInstructionsLen.
var ErrInstructionsTooLong = errors.New("the instructions are too long")

// MaxInstructionsLen bounds a conversation's own instructions, in bytes:
// they travel in every request's system prompt.
const MaxInstructionsLen = 16 << 10

// SetPinned pins conversation id to the top of the list, or unpins it.
func (d *DB) SetPinned(id ID, pinned bool) error {
	return d.updateConversation("pin conversation", id, func(c *Conversation) { c.Pinned = pinned })
}

// SetArchived archives conversation id (the list leaves it out), or
// brings it back. An archived conversation is not pinned: unarchiving it
// does not put it back on top.
func (d *DB) SetArchived(id ID, archived bool) error {
	return d.updateConversation("archive conversation", id, func(c *Conversation) {
		c.Archived = archived
		if archived {
			c.Pinned = false
		}
	})
}

// SetInstructions stores conversation id's own instructions (secrets
// redacted, surrounding space trimmed); "" removes them. Longer than
// MaxInstructionsLen is refused with ErrInstructionsTooLong.
func (d *DB) SetInstructions(id ID, text string) error {
	t := strings.TrimSpace(text)
	if len(t) > MaxInstructionsLen {
		return fmt.Errorf("%w: %d bytes, at most %d; shorten them", ErrInstructionsTooLong, len(t), MaxInstructionsLen)
	}
	t = d.Redactor().String(t)
	return d.updateConversation("set the conversation's instructions", id, func(c *Conversation) { c.Instructions = t })
}
