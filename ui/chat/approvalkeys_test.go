package chat

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
)

// The approval keys answer the first card of the conversation shown:
// ApprovePending (Ctrl+Enter) approves once, DenyPending
// (Ctrl+Backspace) denies, unless the composer holds a draft the key
// would delete a word of.
func TestApprovalKeysAnswerTheCard(t *testing.T) {
	for _, tc := range []struct {
		name     string
		deny     bool
		draft    string
		decision store.DecisionKind
	}{
		{"approve", false, "", store.ApprovedOnce},
		{"approve with a draft", false, "next question", store.ApprovedOnce},
		{"deny", true, "", store.Denied},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.model.Reply(pt.ToolCall("shell_exec", `{"command":"echo wrasse-ran"}`))
			h.model.Reply(pt.Text("done"))
			h.send("run it")
			h.until("the approval card", func() bool { return len(h.rowsOf(rowApproval)) == 1 })
			test.Type(h.chat.composer.entry, tc.draft)
			if tc.deny {
				if tc.draft == "" && !h.chat.DenyPending() {
					t.Fatal("DenyPending found nothing to deny")
				}
			} else if !h.chat.ApprovePending() {
				t.Fatal("ApprovePending found nothing to approve")
			}
			h.idle()
			call := h.rowsOf(rowTool)[0].tool
			if call.decision == nil || call.decision.Kind != tc.decision {
				t.Fatalf("decision %+v, want %s", call.decision, tc.decision)
			}
			if h.chat.ApprovePending() || h.chat.DenyPending() {
				t.Error("a key answered with nothing waiting")
			}
		})
	}
}

// With a draft in the composer, Ctrl+Backspace deletes a word of it and
// never denies the waiting call.
func TestDenyKeyLeavesADraftAlone(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.ToolCall("shell_exec", `{"command":"echo wrasse-ran"}`))
	h.model.Reply(pt.Text("done"))
	h.send("run it")
	h.until("the approval card", func() bool { return len(h.rowsOf(rowApproval)) == 1 })
	test.Type(h.chat.composer.entry, "half a word")
	if h.chat.DenyPending() {
		t.Fatal("Ctrl+Backspace denied the call while the composer held a draft")
	}
	if len(h.rowsOf(rowApproval)) != 1 {
		t.Fatal("the approval card went")
	}
	h.chat.ApprovePending()
	h.idle()
}

// GoToApproval shows the waiting call: in another conversation it opens
// that conversation at its card.
func TestGoToApprovalOpensItsConversation(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.ToolCall("shell_exec", `{"command":"echo wrasse-ran"}`))
	h.model.Reply(pt.Text("done"))
	h.send("run it")
	h.until("the approval card", func() bool { return len(h.rowsOf(rowApproval)) == 1 })
	waiting := h.chat.Current()
	h.chat.NewConversation()
	if h.chat.firstPending() != nil {
		t.Fatal("a new conversation shows the other's approval")
	}
	if !h.chat.GoToApproval() {
		t.Fatal("GoToApproval found nothing")
	}
	if h.chat.Current() != waiting || h.chat.firstPending() == nil {
		t.Fatalf("showing %s, want %s at its approval", h.chat.Current(), waiting)
	}
	if !strings.Contains(h.texts(), "Approve shell_exec") {
		t.Errorf("the approval card is not in view; window shows:\n%s", h.texts())
	}
	h.chat.ApprovePending()
	h.idle()
	if h.chat.GoToApproval() {
		t.Error("GoToApproval with nothing waiting did something")
	}
}
