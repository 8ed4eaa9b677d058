package assistant

import (
	"path/filepath"
	"strings"
	"testing"
)

// An attached file may be read only in the conversation it was attached
// to: fs_read of it from another conversation is refused (attachread.go,
// "nothing else widens: not another conversation"). But its text travels
// in the message (the window's chip) and in the results of the fs_read
// calls made in A, and the built-in history capability reads any other
// conversation's events: from conversation B, history_read of A returns
// them (cut at 1500 characters an event), and history_search finds words
// anywhere in them, returning the passage around them. Left failing for the lead to decide: either the
// history tools show an attachment's text only in its own conversation
// (history.RenderEvent and the search snippets would leave the attached
// blocks out, naming the file instead), or the promise is narrowed to
// fs_read and the header comment says history reaches what was sent.
func TestAttachedTextReadFromAnotherConversationThroughHistory(t *testing.T) {
	a, m, home := attackHome(t)
	doc := write(t, filepath.Join(home, "Documents", "diagnosis.txt"), "Patient notes. The result came back: TOPSECRET-DIAGNOSIS.\n")
	conv, res := callTurn(t, a, m, 0, []string{doc}, "fs_read", map[string]any{"path": doc})
	if res.IsError || !strings.Contains(res.Text, "TOPSECRET-DIAGNOSIS") {
		t.Fatalf("fs_read in its own conversation: %q", res.Text)
	}
	other, res := callTurn(t, a, m, 0, nil, "fs_read", map[string]any{"path": doc})
	if !res.IsError || strings.Contains(res.Text, "TOPSECRET") {
		t.Fatalf("fs_read from another conversation: %q; want it refused", res.Text)
	}
	_, res = callTurn(t, a, m, other, nil, "history_read", map[string]any{"conversation": conv.String()})
	if strings.Contains(res.Text, "TOPSECRET-DIAGNOSIS") {
		t.Errorf("history_read of %s from %s returned the file attached to %s only: %.300q", conv, other, conv, res.Text)
	}
	_, res = callTurn(t, a, m, other, nil, "history_search", map[string]any{"query": "diagnosis result"})
	if strings.Contains(res.Text, "TOPSECRET-DIAGNOSIS") {
		t.Errorf("history_search from %s returned a passage of the file attached to %s only: %.300q", other, conv, res.Text)
	}
}
