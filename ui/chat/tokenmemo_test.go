package chat

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// The memo gives what counting the row's text afresh gives, through a
// streaming reply's growth, a rewrite in place, a shorter text and a tool
// row's result arriving.
func TestRowTokensFollowEveryChange(t *testing.T) {
	r := &row{kind: rowAssistant}
	check := func(step string) {
		t.Helper()
		if got, want := r.tokens(), cerebellum.EstimateTokens(r.plain()); got != want {
			t.Fatalf("%s: %d tokens, counted afresh %d", step, got, want)
		}
	}
	check("empty")
	reply := strings.Repeat("Paragraph has **bold** words, `code` and a [link](x). ", 30)
	for i := 1; i <= len(reply); i += 7 {
		r.text = reply[:i]
		check("streamed " + r.text[max(0, i-10):])
	}
	r.text = strings.Replace(reply, "bold", "xqzv", 1) // same length, changed before the cut
	check("rewritten in place")
	r.text = "short"
	check("shorter")
	r.text = "short and longer"
	check("grown again")

	tool := &row{kind: rowTool, tool: &toolCall{name: "calc_eval", args: json.RawMessage(`{"expr":"1+1"}`)}}
	if got, want := tool.tokens(), cerebellum.EstimateTokens(tool.plain()); got != want {
		t.Fatalf("tool call: %d, afresh %d", got, want)
	}
	tool.tool.result, tool.tool.done = strings.Repeat("result line\n", 50), true
	tool.version++
	if got, want := tool.tokens(), cerebellum.EstimateTokens(tool.plain()); got != want {
		t.Fatalf("tool result: %d, afresh %d", got, want)
	}
}

// BenchmarkStatusEstimateStreaming is the status line's estimate at every
// refresh of a reply streaming 10 MB in 64 KB steps: each refresh counts
// what arrived since the last.
func BenchmarkStatusEstimateStreaming(b *testing.B) {
	reply := strings.Repeat("It goes on for a while, as a long answer does, and wraps. ", 10<<20/58)
	tr := &transcript{}
	r := &row{kind: rowAssistant}
	tr.rows = append(tr.rows, r)
	b.ReportAllocs()
	for b.Loop() {
		r.memo = tokenMemo{}
		for n := 64 << 10; n <= len(reply); n += 64 << 10 {
			r.text = reply[:n]
			_ = tr.estimate()
		}
	}
}
