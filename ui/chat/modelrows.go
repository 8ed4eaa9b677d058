package chat

import (
	"fyne.io/fyne/v2"

	"github.com/wrasse-app/wrasse/brain/store"
)

// The rows of what a model does besides answering: its reasoning
// (thinkingblock.go), notices about its answer (noticeline.go) and what a
// turn waits for before the answer starts (waitingline.go). They follow
// the transcript's other kinds.
const (
	// rowThinking is the model's reasoning, a stored thinking event,
	// shown collapsed above the answer it led to.
	rowThinking rowKind = rowApproval + 1 + iota
	// rowNotice is a stored notice ("llama2 cannot call tools…").
	rowNotice
	// rowWaiting is what the running turn waits for ("loading llama3.1
	// into memory… 12 s"); never stored, and gone with the first text.
	rowWaiting
)

// thought adds or updates the row of a thinking event. A block the
// provider withheld (Redacted) has no text and says so.
func (t *transcript) thought(e store.Event) int {
	r := t.seqs[e.Seq]
	if r == nil {
		if e.Text == "" && e.Redacted == "" && e.Status != store.StatusStreaming {
			return -1 // nothing was thought after all
		}
		r = &row{kind: rowThinking, seq: e.Seq}
		t.seqs[e.Seq] = r
		t.rows = append(t.rows, r)
	}
	r.text, r.status, r.model, r.redacted = e.Text, e.Status, e.Model, e.Redacted != ""
	r.version++
	if e.Text == "" && !r.redacted && e.Status != store.StatusStreaming {
		t.remove(r)
		return -1
	}
	return t.index(r)
}

// notice adds the row of a notice event.
func (t *transcript) notice(e store.Event) int {
	if t.seqs[e.Seq] != nil || e.Text == "" {
		return -1
	}
	r := &row{kind: rowNotice, seq: e.Seq, text: e.Text, model: e.Model}
	t.seqs[e.Seq] = r
	t.rows = append(t.rows, r)
	return len(t.rows) - 1
}

// modelRows are a rowView's widgets for the rows above, made the first
// time the row widget shows one.
type modelRows struct {
	thinking *thinkingBlock
	notice   *noticeLine
	waiting  *waitingLine
	ask      *askCard
}

// bindModelRow shows r, one of the kinds above, and returns what shows it.
func (v *rowView) bindModelRow(r *row) fyne.CanvasObject {
	switch r.kind {
	case rowThinking:
		if v.model.thinking == nil {
			v.model.thinking = newThinkingBlock(v.c)
			v.model.thinking.quiet = v.quiet
		}
		v.model.thinking.bind(r)
		return v.model.thinking.col
	case rowNotice:
		if v.model.notice == nil {
			v.model.notice = newNoticeLine()
			v.model.notice.quiet = v.quiet
		}
		v.model.notice.bind(r)
		return v.model.notice.col
	case rowWaiting:
		if v.model.waiting == nil {
			v.model.waiting = newWaitingLine()
			v.model.waiting.quiet = v.quiet
		}
		v.model.waiting.bind(r)
		return v.model.waiting.col
	case rowAsk:
		if v.model.ask == nil {
			v.model.ask = newAskCard(v.c)
			v.model.ask.quiet = v.quiet
		}
		v.model.ask.bind(r)
		return v.model.ask.col
	}
	return nil
}
