package agent

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode"
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
//
// Its cost is linear in the messages it keeps, not quadratic in the
// history: it counts from the newest message back and stops counting once
// what it has counted is already over the limit, because everything older
// is then trimmed or dropped anyway. That shortcut assumes count is never
// negative and never counts more for the short trim note than for the tool
// output of trimMinBytes or more it replaces (true of byte counts and of
// cerebellum.EstimateTokens, which counts at least one token per 3.5 bytes).
func Fit(msgs []provider.Message, limit, fixed int, count func(string) int) ([]provider.Message, FitReport) {
	var f fitter
	out, rep, _ := f.fit(msgs, nil, limit, fixed, count)
	return out, rep
}

// tailBase is what fitting a tail of a conversation's messages (from a
// user message on) needs to know of the messages before it to give what
// fitting them all gives: where the summary's turns are numbered from and
// the trims reported. nil stands for no messages before.
type tailBase struct {
	// starts counts the fitter's starts before the tail: index 0 when it
	// is not a user message, and every user message.
	starts int
	// lead: the first message is not a user message; pre: an assistant
	// message comes before the first user message (a turn of its own in
	// a summary).
	lead, pre bool
	// trimmable counts the messages before the tail that step 1 trims.
	trimmable int
}

// extend is b followed by msgs (the first messages of the tail b was
// for, up to a user message).
func (b *tailBase) extend(msgs []provider.Message) tailBase {
	var n tailBase
	if b != nil {
		n = *b
	} else if len(msgs) > 0 {
		n.lead = msgs[0].Role != provider.RoleUser
		for _, m := range msgs {
			if m.Role == provider.RoleUser {
				break
			}
			if m.Role == provider.RoleAssistant {
				n.pre = true
			}
		}
	}
	for i := range msgs {
		if msgs[i].Role == provider.RoleUser || (i == 0 && b == nil) {
			n.starts++
		}
		if trimmable(&msgs[i]) {
			n.trimmable++
		}
	}
	return n
}

// tailMargin is how many turns more than a summary shows a tail keeps
// before the oldest message a request counts (see fitter.keep).
const tailMargin = summaryLines + 2

// fitter is Fit with memory: it keeps each message's counted size, the
// size of its trimmed form and the size of a first kept message carrying
// the summary of the turns before it, for as long as the messages up to it
// stay the same. A turn keeps one for its requests, so each request counts
// only what is new since the last one.
type fitter struct {
	keys []msgKey // what each remembered message was
	// size, tsize and head are -1 until counted: the message as it is,
	// trimmed, and carrying the summary of the messages before it.
	size, tsize, head []int
	// note is the trimmed form's content once made ("" until then).
	note []string
	// headAt and headText remember the summary note last put in front.
	headAt   int
	headText string
	// Scratch, reused across requests.
	suf, starts []int
	// lo is where the last fit stopped counting (-1: it counted every
	// message, or did not fit).
	lo int
	// known is how many of the next fit's messages the caller knows to
	// be those keys describe, unchanged (requestHistory: the history
	// before the current turn, which it never writes again), so sync
	// compares only the messages after them: a long conversation's
	// requests then compare what is new, not every message held. The
	// next sync resets it.
	known int
}

// msgKey is what a message's remembered sizes and summary depend on.
type msgKey struct {
	role    provider.Role
	content string
	calls   []provider.ToolCall
}

// same compares m with k; strings that share memory compare in O(1), so
// for an unchanged history this is a cheap walk.
func (k *msgKey) same(m *provider.Message) bool {
	if k.role != m.Role || k.content != m.Content || len(k.calls) != len(m.ToolCalls) {
		return false
	}
	for i, c := range m.ToolCalls {
		if k.calls[i].Name != c.Name || !bytes.Equal(k.calls[i].Arguments, c.Arguments) {
			return false
		}
	}
	return true
}

// sync forgets what it remembers past the first message that changed.
func (f *fitter) sync(msgs []provider.Message) {
	v := min(f.known, len(msgs), len(f.keys))
	f.known = 0
	for v < len(msgs) && v < len(f.keys) && f.keys[v].same(&msgs[v]) {
		v++
	}
	add := len(msgs) - v
	f.keys, f.note = slices.Grow(f.keys[:v], add), slices.Grow(f.note[:v], add)
	f.size, f.tsize, f.head = slices.Grow(f.size[:v], add), slices.Grow(f.tsize[:v], add), slices.Grow(f.head[:v], add)
	for i := v; i < len(msgs); i++ {
		m := &msgs[i]
		f.keys = append(f.keys, msgKey{role: m.Role, content: m.Content, calls: m.ToolCalls})
		f.size = append(f.size, -1)
		f.tsize = append(f.tsize, -1)
		f.head = append(f.head, -1)
		f.note = append(f.note, "")
	}
	if f.headAt >= v {
		f.headAt, f.headText = -1, ""
	}
}

func msgSize(m *provider.Message, count func(string) int) int {
	n := perMessage + count(m.Content) + len(m.Images)*imageTokens
	for _, c := range m.ToolCalls {
		n += count(c.Name) + count(string(c.Arguments))
	}
	return n
}

func (f *fitter) sizeOf(msgs []provider.Message, i int, count func(string) int) int {
	if f.size[i] < 0 {
		f.size[i] = msgSize(&msgs[i], count)
	}
	return f.size[i]
}

func (f *fitter) trimmedSizeOf(msgs []provider.Message, i int, count func(string) int) int {
	if f.tsize[i] < 0 {
		t := f.trimmedOf(msgs, i)
		if t.Content == msgs[i].Content && len(msgs[i].Images) == 0 {
			f.tsize[i] = f.sizeOf(msgs, i, count)
		} else {
			f.tsize[i] = msgSize(&t, count)
		}
	}
	return f.tsize[i]
}

// trimmedOf is trimmed(msgs[i]), its note made once.
func (f *fitter) trimmedOf(msgs []provider.Message, i int) provider.Message {
	if f.note[i] == "" {
		f.note[i] = trimmed(msgs[i]).Content
	}
	m := msgs[i]
	m.Content, m.Images = f.note[i], nil
	return m
}

// trimmable reports whether step 1 or 3 may trim msgs[i].
func trimmable(m *provider.Message) bool {
	return m.Role == provider.RoleTool && (len(m.Content) >= trimMinBytes || len(m.Images) > 0)
}

// fit fits msgs, the messages of a conversation from a user message on
// after those base describes (nil: all of them). ok false says msgs are
// too few to tell what fitting the whole conversation gives (every
// message counted, or the summary of the turns before the first kept
// one reading before msgs): the caller fits the whole conversation.
func (f *fitter) fit(msgs []provider.Message, base *tailBase, limit, fixed int, count func(string) int) (_ []provider.Message, _ FitReport, ok bool) {
	f.sync(msgs)
	f.lo = -1
	n := len(msgs)
	if limit <= 0 {
		if base != nil {
			return nil, FitReport{}, false
		}
		total := fixed
		for i := range msgs {
			total += f.sizeOf(msgs, i, count)
		}
		return slices.Clone(msgs), FitReport{Tokens: total}, true
	}
	cur := 0
	for i := n - 1; i >= 0; i-- {
		if msgs[i].Role == provider.RoleUser {
			cur = i
			break
		}
	}
	// post is a message's size once every older tool result is trimmed.
	post := func(i int) int {
		if i < cur && trimmable(&msgs[i]) {
			return f.trimmedSizeOf(msgs, i, count)
		}
		return f.sizeOf(msgs, i, count)
	}
	// Count from the newest message back, everything older trimmed, until
	// the count is over the limit (at or before the current turn's first
	// reply). If it gets there, step 1 trims every older result, whatever
	// is older than lo can only be dropped and needs no count.
	// Without an earlier turn (cur 0) nothing is dropped: count it all.
	floor := cur + 1
	if cur == 0 {
		floor = 0
	}
	f.suf = slices.Grow(f.suf[:0], n+1)[:n+1]
	lo := n
	f.suf[n] = 0
	for lo > 0 && (lo > floor || fixed+f.suf[lo] <= limit) {
		lo--
		f.suf[lo] = f.suf[lo+1] + post(lo)
	}
	if base != nil && lo == 0 {
		return nil, FitReport{}, false // the count could go on before msgs
	}
	var trimOld []bool // step 1's trims, when it trims only some
	rep := FitReport{}
	if lo == 0 && fixed+f.suf[0] <= limit {
		// Everything fits once trimmed: count it all as it is, and trim as
		// little as a whole batch allows.
		total := fixed
		for i := range msgs {
			total += f.sizeOf(msgs, i, count)
		}
		if total <= limit {
			return slices.Clone(msgs), FitReport{Tokens: total}, true
		}
		var cands []int
		for i := 0; i < cur; i++ {
			if trimmable(&msgs[i]) {
				cands = append(cands, i)
			}
		}
		need, saved := 0, 0
		for _, i := range cands {
			if total-saved <= limit {
				break
			}
			saved += f.sizeOf(msgs, i, count) - f.trimmedSizeOf(msgs, i, count)
			need++
		}
		need = min(len(cands), (need+trimBatch-1)/trimBatch*trimBatch)
		trimOld = make([]bool, n)
		for _, i := range cands[:need] {
			trimOld[i] = true
		}
		rep.Trimmed = need
		f.suf[n] = 0
		for i := n - 1; i >= 0; i-- {
			s := f.sizeOf(msgs, i, count)
			if trimOld[i] {
				s = f.trimmedSizeOf(msgs, i, count)
			}
			f.suf[i] = f.suf[i+1] + s
		}
	} else {
		if base != nil {
			rep.Trimmed = base.trimmable
		}
		for i := 0; i < cur; i++ {
			if trimmable(&msgs[i]) {
				rep.Trimmed++
			}
		}
	}
	isTrimmedOld := func(i int) bool {
		if trimOld != nil {
			return trimOld[i]
		}
		return i < cur && trimmable(&msgs[i])
	}

	// 2. Drop earlier turns: try dropping dropBatch turns more each time,
	// and at last everything before the current turn. A candidate starting
	// before lo keeps more than was counted over the limit, so it cannot fit.
	keepFrom, headSize := 0, -1
	if (lo > 0 || fixed+f.suf[0] > limit) && cur > 0 {
		starts := f.starts[:0]
		for i := 0; i < cur; i++ {
			if msgs[i].Role == provider.RoleUser || i == 0 {
				starts = append(starts, i)
			}
		}
		starts = append(starts, cur)
		f.starts = starts
		kb := 0 // starts before msgs
		if base != nil {
			// Every turn a summary can show must be in msgs: at least
			// summaryLines+1 starts before any first kept message.
			if before, _ := slices.BinarySearch(starts, lo); before < tailMargin {
				return nil, FitReport{}, false
			}
			kb = base.starts
		}
		f.lo = lo
		for j := range starts {
			k, last := kb+j, j == len(starts)-1
			if k == 0 || k%dropBatch != 0 && !last {
				continue
			}
			s := starts[j]
			rep.Dropped, keepFrom = k, s
			if s < lo && !last {
				continue
			}
			headSize = f.headSizeOf(msgs, base, s, starts, count)
			if fixed+headSize+f.suf[s+1] <= limit {
				break
			}
		}
	}

	// Build the request: the kept messages, trimmed as decided.
	var out []provider.Message
	total := fixed + f.suf[keepFrom]
	if rep.Dropped > 0 {
		out = make([]provider.Message, 0, n-keepFrom)
		first := msgs[keepFrom]
		first.Content = f.headTextOf(msgs, base, keepFrom, f.starts)
		out = append(out, first)
		total = fixed + headSize + f.suf[keepFrom+1]
	} else {
		out = make([]provider.Message, 0, n)
		keepFrom = 0
	}
	for i := len(out) + keepFrom; i < n; i++ {
		if isTrimmedOld(i) {
			out = append(out, f.trimmedOf(msgs, i))
		} else {
			out = append(out, msgs[i])
		}
	}

	// 3. Trim the current turn's older tool results.
	if total > limit {
		last := n
		for i := n - 1; i > cur; i-- {
			if msgs[i].Role == provider.RoleAssistant {
				last = i
				break
			}
		}
		for i := cur; i < last && total > limit; i++ {
			if trimmable(&msgs[i]) {
				total += f.trimmedSizeOf(msgs, i, count) - f.sizeOf(msgs, i, count)
				out[i-keepFrom] = f.trimmedOf(msgs, i)
				rep.Trimmed++
			}
		}
	}
	rep.Tokens = total
	rep.Over = total > limit
	return out, rep, true
}

// headSizeOf counts msgs[s], a user message, with the summary of msgs[:s]
// in front, as dropping the turns before it makes it.
func (f *fitter) headSizeOf(msgs []provider.Message, base *tailBase, s int, starts []int, count func(string) int) int {
	if f.head[s] < 0 {
		m := msgs[s]
		m.Content = f.headTextOf(msgs, base, s, starts)
		f.head[s] = msgSize(&m, count)
	}
	return f.head[s]
}

func (f *fitter) headTextOf(msgs []provider.Message, base *tailBase, s int, starts []int) string {
	if f.headAt != s {
		f.headAt, f.headText = s, summarizeBefore(msgs, base, s, starts)+"\n\n"+msgs[s].Content
	}
	return f.headText
}

// summarizeBefore is Summarize(msgs[:s]) for s the index of a user message
// in starts, reading only the turns it shows: starts holds index 0 and
// every user message before the current turn, ascending. With a base,
// msgs are a tail after the messages it describes, and starts those of
// the tail: the turns shown must lie in the tail (fitter.fit checks).
func summarizeBefore(msgs []provider.Message, base *tailBase, s int, starts []int) string {
	// The turns of msgs[:s]: one per user message, and one before the
	// first when an assistant message comes before any user message.
	users, _ := slices.BinarySearch(starts, s)
	pre, lead, kb := 0, msgs[0].Role != provider.RoleUser, 0
	if base != nil {
		users += base.starts
		lead, kb = base.lead, base.starts
		if base.pre {
			pre = 1
		}
	}
	if lead {
		users-- // starts[0] is index 0, not a user message
		for i := 0; base == nil && i < s && msgs[i].Role != provider.RoleUser; i++ {
			if msgs[i].Role == provider.RoleAssistant {
				pre = 1
				break
			}
		}
	}
	skipped := max(0, users+pre-summaryLines)
	from := 0
	if skipped > 0 {
		// Turn number skipped is the (skipped-pre)th user message, which
		// is starts[skipped-pre] when starts[0] is one, else one further.
		j := skipped - pre
		if lead {
			j++
		}
		from = starts[j-kb]
	}
	return summaryText(skipped, collectTurns(msgs[from:s]))
}

func trimmed(m provider.Message) provider.Message {
	if strings.HasPrefix(m.Content, "[trimmed: ") {
		m.Images = nil
		return m
	}
	m.Content = fmt.Sprintf("[trimmed: %d bytes of tool output]", len(m.Content))
	m.Images = nil
	return m
}

// turnSum is one line of a summary.
type turnSum struct {
	asked, answered string
	tools           []string
}

// collectTurns splits msgs into the turns a summary shows.
func collectTurns(msgs []provider.Message) []turnSum {
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
	return turns
}

// Summarize is a plain extractive summary of earlier turns: what the user
// asked, how the reply began and which tools ran, one line per turn, the
// most recent summaryLines turns only.
func Summarize(msgs []provider.Message) string {
	turns := collectTurns(msgs)
	skipped := max(0, len(turns)-summaryLines)
	return summaryText(skipped, turns[skipped:])
}

// summaryText writes the summary of turns, after skipped earlier ones.
func summaryText(skipped int, turns []turnSum) string {
	var b strings.Builder
	b.WriteString("[Earlier in this conversation (left out to fit the model's context; history_read can show it):")
	if skipped > 0 {
		fmt.Fprintf(&b, "\n- …%d earlier exchanges", skipped)
	}
	for _, t := range turns {
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

// clip is s with its runs of white space made one space and its ends
// trimmed, cut to summaryChars runes with an ellipsis when longer. It
// reads s once and stops at the cut, allocating only what it returns: a
// summary clips 40 messages of any length every few requests of a long
// conversation (splitting a whole reply into words to keep its first 120
// runes cost ~5 kB a message).
func clip(s string) string {
	b := make([]byte, 0, min(len(s), 4*summaryChars))
	n, cut, space := 0, 0, false // runes in b, len(b) at summaryChars-1 runes
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			space, i = n > 0, i+w
			continue
		}
		if space {
			if n+2 > summaryChars {
				return clipped(b[:cut])
			}
			b, n, space = append(b, ' '), n+1, false
			if n == summaryChars-1 {
				cut = len(b)
			}
		}
		if n+1 > summaryChars {
			return clipped(b[:cut])
		}
		b, n, i = append(b, s[i:i+w]...), n+1, i+w
		if n == summaryChars-1 {
			cut = len(b)
		}
	}
	return string(b)
}

// clipped is a cut text with the ellipsis; bytes that are not UTF-8
// become U+FFFD, as converting to runes makes them.
func clipped(b []byte) string {
	if !utf8.Valid(b) {
		return string([]rune(string(b))) + "…"
	}
	return string(b) + "…"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
