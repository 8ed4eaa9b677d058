package chat

import (
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
)

// waitTick is how often the time a turn has waited is redrawn.
const waitTick = time.Second

// waiting is what a running turn waits for before its answer starts (the
// provider's statuses: connecting, loading the model, reading the prompt,
// thinking, retrying, a stall), shown as the last row of its conversation
// with the time elapsed, updated every second until the first text, tool
// call or next step.
type waiting struct {
	row *row
	st  provider.Status
	// gen moves with each status, so only the latest one's tick runs on.
	gen int
}

var (
	_ agent.StatusSink   = (*turnSink)(nil)
	_ agent.ThinkingSink = (*turnSink)(nil)
)

// OnStatus shows what the request waits for. It may be called from a
// timer's goroutine: it hands the status to the UI goroutine.
func (s *turnSink) OnStatus(st provider.Status) {
	s.waits.Store(true)
	s.c.env.Do(func() { s.c.showWaiting(s.run, st) })
}

// OnThinking streams reasoning into its thinking block, throttled like
// the reply's text (seqs are the conversation's, so the two never mix).
func (s *turnSink) OnThinking(seq uint64, delta string) { s.th.add(seq, delta) }

// endWait hides the waiting row, when one shows: the answer began.
func (s *turnSink) endWait() {
	if s.waits.Swap(false) {
		s.c.env.Do(func() { s.c.hideWaiting(s.run) })
	}
}

// endWaitFor hides the waiting row when e starts the answer (a call).
func (s *turnSink) endWaitFor(e store.Event) {
	if e.Type == store.EventToolCall {
		s.endWait()
	}
}

// waitingRow is the current conversation's waiting row, or nil.
func (c *Chat) waitingRow() *row {
	if run := c.turns[c.cur]; run != nil && run.wait != nil {
		return run.wait.row
	}
	return nil
}

// showWaiting shows st as run's waiting row.
func (c *Chat) showWaiting(run *turnRun, st provider.Status) {
	if c.turns[run.tr] != run {
		return // the turn ended meanwhile
	}
	w := run.wait
	added := w == nil
	if added {
		w = &waiting{row: &row{kind: rowWaiting}}
		run.wait = w
	}
	w.st = st
	w.gen++
	c.redrawWaiting(run, added)
	gen := w.gen
	c.after(waitTick, func() { c.tickWaiting(run, gen) })
}

// tickWaiting redraws the time waited, every waitTick while the same
// status shows.
func (c *Chat) tickWaiting(run *turnRun, gen int) {
	w := run.wait
	if w == nil || w.gen != gen || c.turns[run.tr] != run {
		return
	}
	c.redrawWaiting(run, false)
	c.after(waitTick, func() { c.tickWaiting(run, gen) })
}

func (c *Chat) redrawWaiting(run *turnRun, added bool) {
	w := run.wait
	w.row.text = waitingText(w.st, c.now())
	w.row.version++
	if run.tr != c.cur {
		return
	}
	i := len(c.cur.rows) // the waiting row follows the transcript's
	if added {
		c.list.changed(i)
		return
	}
	c.list.rowChanged(i)
}

// hideWaiting removes run's waiting row.
func (c *Chat) hideWaiting(run *turnRun) {
	if run.wait == nil {
		return
	}
	run.wait = nil
	if run.tr == c.cur {
		c.list.changed(len(c.cur.rows))
	}
}

// waitingText is the status with the time since its phase began:
// "loading llama3.1 into memory… 12 s", or for one that says what
// happened, "retrying (2 of 3) in 1.5 s: connection refused (3 s)".
func waitingText(st provider.Status, now time.Time) string {
	if st.Since.IsZero() {
		return st.Message
	}
	if strings.HasSuffix(st.Message, "…") {
		return st.Message + " " + st.Elapsed(now)
	}
	return st.Message + " (" + st.Elapsed(now) + ")"
}

// waitingLine shows a waiting row: an hourglass and the status.
type waitingLine struct {
	quiet bool
	col   *column
	text  *widget.Label
}

func newWaitingLine() *waitingLine {
	l := &waitingLine{}
	l.text = widget.NewLabel("")
	l.text.Truncation = fyne.TextTruncateEllipsis
	icon := widget.NewIcon(theme.HistoryIcon())
	l.col = newColumn("", container.NewBorder(nil, nil, icon, nil, l.text))
	return l
}

func (l *waitingLine) bind(r *row) {
	setLabel(l.text, r.text, l.quiet)
	if !l.quiet {
		l.col.Refresh()
	}
}
