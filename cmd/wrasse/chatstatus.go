package main

import (
	"fmt"
	"time"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/provider"
)

// While a chat waits for the model, a terminal shows what is happening
// ("connecting to Ollama…", "loading llama3.1 into memory…", "retrying (2
// of 3) in 1.5 s: connection refused") on one line of stderr, replaced by
// the answer when it comes. Elsewhere (a pipe, a forwarded command, --json)
// nothing is printed: the output stays the answer alone.

var _ agent.StatusSink = (*chatPrinter)(nil)

// OnStatus shows st on a terminal's stderr.
func (p *chatPrinter) OnStatus(st provider.Status) {
	if p.json || !drawsOn(p.io.err) || st.Message == "" {
		return
	}
	p.statusMu.Lock()
	defer p.statusMu.Unlock()
	line := st.Message
	if st.Phase != provider.PhaseRetrying && !st.Since.IsZero() {
		if el := time.Since(st.Since); el >= time.Second {
			line += " " + st.Elapsed(time.Now())
		}
	}
	fmt.Fprintf(p.io.err, "\r\033[K%s", line)
	p.status = true
}

// clearStatus removes the status line before anything else is printed.
func (p *chatPrinter) clearStatus() {
	p.statusMu.Lock()
	defer p.statusMu.Unlock()
	if p.status {
		fmt.Fprint(p.io.err, "\r\033[K")
		p.status = false
	}
}
