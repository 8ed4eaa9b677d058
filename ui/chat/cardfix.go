package chat

import (
	"github.com/wrasse-app/wrasse/brain/gate"
)

// needsApproval reports whether the gate asks the person before tool runs
// with args: a call left unfinished with no recorded decision waited for
// an answer when it does (the decision is recorded only once given).
func (c *Chat) needsApproval(tool string, args []byte) bool {
	return c.core.Check(tool, args).Decision == gate.Confirm
}
