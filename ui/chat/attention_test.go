package chat

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/gate"
	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// The chat tells the window what the person should see: a call waiting
// for approval, a reply that took slowReply or more (timed with the
// chat's clock), a failed turn; not a quick reply, nor a stop the person
// made.
func TestChatAsksForAttention(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		took time.Duration
		run  func(h *harness)
		want []AttentionKind
		text string
	}{
		{"a quick reply", time.Second, func(h *harness) { h.model.Reply(pt.Text("Quick.")) }, nil, ""},
		{"a long reply", 6 * time.Second, func(h *harness) { h.model.Reply(pt.Text("Slow but sure.\nMore.")) },
			[]AttentionKind{AttentionReply}, "Slow but sure."},
		{"a failed turn", time.Second, func(h *harness) { h.model.Reply(pt.Status(401, `{"error":{"message":"bad key"}}`)) },
			[]AttentionKind{AttentionFailed}, "refused the API key"},
		{"an approval", time.Second, func(h *harness) {
			h.model.Reply(pt.ToolCall("shell_exec", `{"command":"echo hi"}`))
			h.model.Reply(pt.Text("done"))
		}, []AttentionKind{AttentionApproval}, "Approve shell_exec (shell)?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			var now atomic.Int64
			now.Store(t0.UnixNano())
			h.chat.now = func() time.Time { return time.Unix(0, now.Load()).UTC() }
			var got []Attention
			h.chat.SetOnAttention(func(a Attention) { got = append(got, a) })
			tc.run(h)
			h.send("hello")
			now.Store(t0.Add(tc.took).UnixNano())
			if len(tc.want) > 0 && tc.want[0] == AttentionApproval {
				h.until("the approval card", func() bool { return len(h.rowsOf(rowApproval)) == 1 })
				h.chat.Stop() // a stop is no failure to notify
			}
			h.idle()
			if len(got) != len(tc.want) {
				t.Fatalf("attention %+v, want kinds %v", got, tc.want)
			}
			for i, a := range got {
				if a.Kind != tc.want[i] || a.Conversation != h.chat.Current() {
					t.Errorf("attention %d: %+v, want kind %v in %s", i, a, tc.want[i], h.chat.Current())
				}
				if !strings.Contains(a.Title+" "+a.Body, tc.text) || strings.Contains(a.Body, "\n") {
					t.Errorf("attention %d says %q / %q, want %q on one line", i, a.Title, a.Body, tc.text)
				}
			}
		})
	}
}

// A scheduled run's approval request (no turn of this chat) asks for no
// attention here: the run's own notification says it waits.
func TestScheduledRunApprovalIsNotNotifiedTwice(t *testing.T) {
	h := newHarness(t)
	var got []Attention
	h.chat.SetOnAttention(func(a Attention) { got = append(got, a) })
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = h.chat.approvals.Approve(ctx, gate.Request{ConversationID: "c99", Tool: "shell_exec"})
	}()
	h.until("the request", func() bool { return len(h.chat.approvals.For("c99")) == 1 })
	cancel()
	<-done
	h.idle()
	if len(got) != 0 {
		t.Errorf("attention %+v for a scheduled run's request", got)
	}
}
