package chat

import (
	"fmt"
	"strings"
	"testing"
	"time"

	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// BenchmarkLongReplyStream streams a 2 MB Markdown reply into the window
// in 24 flushes, each shown before the next is sent, and waits for the
// turn to end: what the UI goroutine spends on a huge reply (issue 24).
// Its wall time is mostly the throttle's pauses between flushes, so it
// reports the process's CPU time per reply too (cpu-ms/op). It uses
// nothing but the harness and the model, so the same files run on an
// older tree for a before figure.
func BenchmarkLongReplyStream(b *testing.B) {
	h := newHarness(b)
	reply := longReply(2 << 20)
	cpu0, ok := processCPU()
	for b.Loop() {
		h.chat.NewConversation()
		advance := streamInSteps(h, reply, 24)
		h.send("write a lot")
		for k := range 24 {
			advance(k)
		}
		h.idle()
		if r := h.streamingRow(); r == nil || r.text != reply {
			b.Fatal("the reply was not shown whole")
		}
	}
	if cpu1, _ := processCPU(); ok {
		b.ReportMetric(float64(cpu1-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	}
}

// longReply is a Markdown reply of about n bytes: headings, paragraphs,
// lists and code blocks, each section numbered so a piece can be told
// from another.
func longReply(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "## Section %d\n\n", i)
		fmt.Fprintf(&b, "Paragraph %d has **bold** words, `code` and a [link](https://example.com/%d). ", i, i)
		b.WriteString(strings.Repeat("It goes on for a while to fill the line and wrap. ", 6) + "\n\n")
		fmt.Fprintf(&b, "- item %d.1\n- item %d.2\n\n", i, i)
		if i%5 == 0 {
			fmt.Fprintf(&b, "```go\nfunc f%d() {\n\tfmt.Println(%d)\n}\n```\n\n", i, i)
		}
	}
	return b.String()
}

// streamInSteps scripts a reply that sends text in steps pieces, each
// sent only once the window shows the one before, so every step is at
// least one flush of streamed text.
func streamInSteps(h *harness, text string, steps int) (advance func(k int)) {
	gates := make([]chan struct{}, steps)
	parts := []pt.Part{}
	size := len(text) / steps
	for k := range steps {
		end := (k + 1) * size
		if k == steps-1 {
			end = len(text)
		}
		parts = append(parts, pt.Text(text[k*size:end]))
		if k < steps-1 {
			gates[k] = make(chan struct{})
			parts = append(parts, pt.Wait(gates[k]))
		}
	}
	h.model.Reply(parts...)
	return func(k int) {
		h.t.Helper()
		want := min((k+1)*size, len(text))
		h.until(fmt.Sprintf("step %d of the reply on screen", k+1), func() bool {
			r := h.streamingRow()
			return r != nil && len(r.text) >= want
		})
		if k < steps-1 {
			close(gates[k])
		}
	}
}

// streamingRow is the reply row of the current conversation (the last
// assistant message's own row).
func (h *harness) streamingRow() *row {
	if i := h.chat.cur.lastAssistant(); i >= 0 {
		return h.chat.cur.rows[i]
	}
	return nil
}
