package chat

import (
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/store"
)

// The window's keyboard shortcuts for approvals (ui/shortcuts.go):
// Ctrl+Enter approves the pending call of the conversation shown once,
// Ctrl+Backspace denies it, Ctrl+J goes to the call waiting for an answer.
// Each reports whether it did anything, so a key that found nothing to
// answer goes on to the focused widget (Ctrl+Backspace deletes a word in
// the composer).

// ApprovePending approves the first call waiting in the conversation
// shown, once.
func (c *Chat) ApprovePending() bool { return c.answerPending(gate.ApproveOnce) }

// DenyPending denies the first call waiting in the conversation shown,
// unless the key has text to delete: an entry other than the composer has
// the focus, or the composer holds a draft (Ctrl+Backspace deletes a word
// there, and a person deleting words must not deny a call unawares).
func (c *Chat) DenyPending() bool {
	if c.env.Window != nil {
		if f := c.env.Window.Canvas().Focused(); f != nil && (f != c.composer.entry || c.composer.entry.Text != "") {
			return false
		}
	}
	return c.answerPending(gate.Deny)
}

func (c *Chat) answerPending(a gate.Approval) bool {
	p := c.firstPending()
	if p == nil {
		return false
	}
	c.answer(p, a)
	return true
}

// firstPending is the first call waiting in the conversation shown (its
// card is the first approval card), or nil.
func (c *Chat) firstPending() *pending {
	for _, r := range c.pendingRows {
		if r.kind == rowApproval && r.pending != nil {
			return r.pending
		}
	}
	return nil
}

// GoToApproval shows a call waiting for an answer: the one of the
// conversation shown, else the one that has waited longest in any other
// conversation, which it opens.
func (c *Chat) GoToApproval() bool {
	if c.firstPending() != nil {
		c.list.scrollToApproval()
		return true
	}
	p, ok := c.approvals.Oldest()
	if !ok {
		return false
	}
	id, err := store.ParseID(p.req.ConversationID)
	if err != nil {
		return false
	}
	c.Open(id) // shows the approval, not where the view was left
	if c.OnOpen != nil {
		c.OnOpen()
	}
	return true
}
