package chat

import (
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/plugins/mcp"
)

// progressBars are the tool cards' progress bars drawn (not the
// status line's context gauge).
func (h *harness) progressBars() []*widget.ProgressBar {
	cards := map[*widget.ProgressBar]bool{}
	for _, s := range h.chat.list.cards.byRow {
		if s.tool != nil {
			cards[s.tool.progress.bar] = true
		}
	}
	var out []*widget.ProgressBar
	for _, o := range h.visible() {
		if b, ok := o.(*widget.ProgressBar); ok && cards[b] {
			out = append(out, b)
		}
	}
	return out
}

// A server's progress reports show on the card of the call under way: a
// bar with a total, the count and message without one; the card drops
// them once the call ended.
func TestProgressShowsOnTheRunningToolCard(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.ToolCall("shell_exec", `{"command":"rm -rf build"}`))
	h.model.Reply(pt.Text("done"))
	h.send("clean up")
	// The call waits for approval: it is a call under way.
	h.until("the approval card", func() bool { return len(h.rowsOf(rowApproval)) == 1 })
	tool := h.rowsOf(rowTool)[0].tool
	conv := h.chat.cur.id.String()
	for _, tc := range []struct {
		name    string
		report  mcp.Progress
		bar     float64 // -1: no bar
		message string
	}{
		{"a total", mcp.Progress{Progress: 2, Total: 4, Message: "copying files"}, 0.5, "copying files"},
		{"no total", mcp.Progress{Progress: 7, Message: "scanning"}, -1, "scanning (progress 7)"},
		{"no total, no message", mcp.Progress{Progress: 3}, -1, "progress 3"},
		{"another conversation", mcp.Progress{Progress: 9, Total: 10, Conversation: "elsewhere"}, -1, "progress 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := tc.report
			rep.Server = tool.capability
			if rep.Conversation == "" {
				rep.Conversation = conv
			}
			h.chat.toolProgress(rep)
			bars := h.progressBars()
			switch {
			case tc.bar < 0 && len(bars) > 0:
				t.Errorf("a bar shows (%v) for a report without a total", bars[0].Value)
			case tc.bar >= 0 && (len(bars) != 1 || bars[0].Value != tc.bar):
				t.Errorf("bars %v, want one at %v", bars, tc.bar)
			}
			if !h.showsWrapped(tc.message) {
				t.Errorf("the card does not show %q:\n%s", tc.message, h.texts())
			}
		})
	}
	test.Tap(h.button("Deny"))
	h.idle()
	if bars := h.progressBars(); len(bars) > 0 || h.showsWrapped("progress 3") {
		t.Errorf("the ended call still shows its progress:\n%s", h.texts())
	}
}
