package agent

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// Context budget tuning.
const (
	// budgetShare is the share of the window (after the answer reserve)
	// the request may fill; the token estimate is rough, so keep a margin.
	budgetShare = 0.8
	// maxAnswerReserve caps the tokens kept free for the answer.
	maxAnswerReserve = 8192
	// trimMinBytes: tool results shorter than this are not worth trimming.
	trimMinBytes = 256
	// trimBatch and dropBatch make trimming move in steps, so the request
	// prefix (and the provider's prompt cache) changes only now and then as
	// a conversation grows, not at every request.
	trimBatch = 8
	dropBatch = 4
	// perMessage is the framing overhead counted per message.
	perMessage = 4
	// summaryLines bounds the summary of dropped turns.
	summaryLines = 20
	summaryChars = 120
)

// Limit is the token budget for system prompt, tools and messages in a
// window of window tokens.
func Limit(window int) int {
	if window <= 0 {
		return 0
	}
	reserve := min(window/4, maxAnswerReserve)
	return int(float64(window-reserve) * budgetShare)
}

// FitReport says what Fit did.
type FitReport struct {
	// Tokens is the estimated size of the request after fitting.
	Tokens int
	// Trimmed counts tool results replaced by a note.
	Trimmed int
	// Dropped counts earlier turns left out (and summarised).
	Dropped int
	// Over is true when even the trimmed request exceeds the limit.
	Over bool
}

// Fit returns messages that fit within limit tokens alongside fixed tokens
// (system prompt and tool schemas), counted with count. It never changes
// msgs. In order, as far as needed:
//
//  1. older tool results (before the current turn, which starts at the last
//     user message) become "[trimmed: N bytes of tool output]", oldest
//     first, in batches;
//  2. whole earlier turns are dropped, oldest first, in batches, and
//     summarised in a note at the start of the first kept user message;
//  3. tool results of the current turn are trimmed, oldest first, except
//     those answering the latest step.
//
// The current turn's messages are never dropped. Fit is deterministic.
func Fit(msgs []provider.Message, limit, fixed int, count func(string) int) ([]provider.Message, FitReport) {
	out := append([]provider.Message(nil), msgs...)
	size := func(m provider.Message) int {
		n := perMessage + count(m.Content)
		for _, c := range m.ToolCalls {
			n += count(c.Name) + count(string(c.Arguments))
		}
		return n
	}
	total := fixed
	for _, m := range out {
		total += size(m)
	}
	rep := FitReport{Tokens: total}
	if limit <= 0 || total <= limit {
		return out, rep
	}
	cur := 0
	for i := len(out) - 1; i >= 0; i-- {
		if out[i].Role == provider.RoleUser {
			cur = i
			break
		}
	}

	// 1. Trim older tool results.
	var cands []int
	for i := 0; i < cur; i++ {
		if out[i].Role == provider.RoleTool && len(out[i].Content) >= trimMinBytes {
			cands = append(cands, i)
		}
	}
	need, saved := 0, 0
	for _, i := range cands {
		if total-saved <= limit {
			break
		}
		saved += size(out[i]) - size(trimmed(out[i]))
		need++
	}
	if need > 0 {
		need = min(len(cands), (need+trimBatch-1)/trimBatch*trimBatch)
		for _, i := range cands[:need] {
			total -= size(out[i])
			out[i] = trimmed(out[i])
			total += size(out[i])
		}
		rep.Trimmed = need
	}

	// 2. Drop earlier turns.
	if total > limit && cur > 0 {
		var starts []int // start index of each earlier turn
		for i := 0; i < cur; i++ {
			if out[i].Role == provider.RoleUser || i == 0 {
				starts = append(starts, i)
			}
		}
		starts = append(starts, cur)
		best := 0
		var bestMsgs []provider.Message
		for k := 1; k < len(starts); k++ {
			// Only multiples of dropBatch, or everything before the current turn.
			if k%dropBatch != 0 && k != len(starts)-1 {
				continue
			}
			cand := dropTurns(out, starts[k])
			t := fixed
			for _, m := range cand {
				t += size(m)
			}
			best, bestMsgs = k, cand
			if t <= limit {
				break
			}
		}
		if best > 0 {
			cur -= starts[best]
			out = bestMsgs
			rep.Dropped = best
			total = fixed
			for _, m := range out {
				total += size(m)
			}
		}
	}

	// 3. Trim the current turn's older tool results.
	if total > limit {
		last := len(out)
		for i := len(out) - 1; i > cur; i-- {
			if out[i].Role == provider.RoleAssistant {
				last = i
				break
			}
		}
		for i := cur; i < last && total > limit; i++ {
			if out[i].Role == provider.RoleTool && len(out[i].Content) >= trimMinBytes {
				total -= size(out[i])
				out[i] = trimmed(out[i])
				total += size(out[i])
				rep.Trimmed++
			}
		}
	}
	rep.Tokens = total
	rep.Over = total > limit
	return out, rep
}

func trimmed(m provider.Message) provider.Message {
	if strings.HasPrefix(m.Content, "[trimmed: ") {
		return m
	}
	m.Content = fmt.Sprintf("[trimmed: %d bytes of tool output]", len(m.Content))
	return m
}

// dropTurns leaves out out[:keepFrom] and puts a summary of it at the start
// of out[keepFrom], a user message.
func dropTurns(out []provider.Message, keepFrom int) []provider.Message {
	kept := append([]provider.Message(nil), out[keepFrom:]...)
	if len(kept) == 0 {
		return kept
	}
	kept[0].Content = Summarize(out[:keepFrom]) + "\n\n" + kept[0].Content
	return kept
}

// Summarize is a plain extractive summary of earlier turns: what the user
// asked, how the reply began and which tools ran, one line per turn, the
// most recent summaryLines turns only.
func Summarize(msgs []provider.Message) string {
	type turnSum struct {
		asked, answered string
		tools           []string
	}
	var turns []turnSum
	for _, m := range msgs {
		switch m.Role {
		case provider.RoleUser:
			turns = append(turns, turnSum{asked: m.Content})
		case provider.RoleAssistant:
			if len(turns) == 0 {
				turns = append(turns, turnSum{})
			}
			t := &turns[len(turns)-1]
			if strings.TrimSpace(m.Content) != "" {
				t.answered = m.Content
			}
			for _, c := range m.ToolCalls {
				if !contains(t.tools, c.Name) {
					t.tools = append(t.tools, c.Name)
				}
			}
		}
	}
	var b strings.Builder
	b.WriteString("[Earlier in this conversation (left out to fit the model's context; history_read can show it):")
	skipped := max(0, len(turns)-summaryLines)
	if skipped > 0 {
		fmt.Fprintf(&b, "\n- …%d earlier exchanges", skipped)
	}
	for _, t := range turns[skipped:] {
		b.WriteString("\n- ")
		if t.asked != "" {
			fmt.Fprintf(&b, "the user asked: %q", clip(t.asked))
		}
		if t.answered != "" {
			if t.asked != "" {
				b.WriteString("; ")
			}
			fmt.Fprintf(&b, "you answered: %q", clip(t.answered))
		}
		if len(t.tools) > 0 {
			fmt.Fprintf(&b, " (tools used: %s)", strings.Join(t.tools, ", "))
		}
	}
	b.WriteString("]")
	return b.String()
}

func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= summaryChars {
		return s
	}
	return string([]rune(s)[:summaryChars-1]) + "…"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
