package chat

import (
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// tokenMemo keeps a row's estimated tokens, so the status line's estimate
// (for a server that reports no usage) costs what changed since the last
// refresh, not the whole conversation's text again: before, every refresh
// re-counted every row, which made a long conversation's turns and a
// streaming 10 MB reply cost the UI more with every piece.
type tokenMemo struct {
	// text is the message text counted; tally counts text[:cut], which
	// ends at whitespace, so a reply that grows is counted from cut on.
	text  string
	cut   int
	tally cerebellum.TokenTally
	// tokens is the estimate of text; for other rows, of the row at
	// version (its text is put together from several fields).
	tokens  int
	version int
	known   bool
}

// tokens is the row's estimated tokens.
func (r *row) tokens() int {
	if r.part != nil {
		return 0 // the message's own row counts all of it
	}
	m := &r.memo
	if r.kind == rowTool || r.kind == rowApproval {
		if !m.known || m.version != r.version {
			m.tokens, m.version, m.known = cerebellum.EstimateTokens(r.plain()), r.version, true
		}
		return m.tokens
	}
	s := r.text
	if m.known && s == m.text {
		return m.tokens
	}
	// A streaming reply only grows: count from the last cut on.
	if !m.known || len(s) < m.cut || s[:m.cut] != m.text[:m.cut] {
		m.cut, m.tally = 0, cerebellum.TokenTally{}
	}
	if end := strings.LastIndexAny(s[m.cut:], " \n\t\r"); end >= 0 {
		m.tally.Add(s[m.cut : m.cut+end+1])
		m.cut += end + 1
	}
	rest := m.tally
	rest.Add(s[m.cut:])
	m.text, m.tokens, m.known = s, rest.Tokens(), true
	return m.tokens
}
