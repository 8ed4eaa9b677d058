package agent

import (
	"strings"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
)

// What a reply brings besides its text and calls: reasoning, statuses and
// notices (see provider.EventThinking, EventStatus, EventNotice).
//
// Reasoning is stored as thinking events, streamed and committed as the
// reply's text is (a crash keeps what was shown), one event per block the
// server sent (Anthropic) or per run of reasoning (the others); a signed
// block's signature is stored with it so ToMessages can give it back. A
// status goes to a StatusSink and is never stored; a stall (the answer
// stopped arriving for a moment) commits what was shown at once, so text
// on screen is in the database within the bounded delay even while the
// server sends nothing. A notice is stored once per turn.

// thoughts is the reasoning of one step being streamed.
type thoughts struct {
	cur *streamed
}

// streamed is one event whose text streams in.
type streamed struct {
	t       *turn
	seq     uint64
	pending strings.Builder
	stored  int
	// unshown is the end that may be the start of a secret (see reply).
	unshown string
	flushed time.Time
}

// add records and shows one piece.
func (s *streamed) add(piece string, show func(seq uint64, delta string)) error {
	s.pending.WriteString(piece)
	out, held := s.t.a.opts.Store.Redactor().Hold(s.unshown + piece)
	s.unshown = held
	if out != "" && show != nil {
		show(s.seq, out)
	}
	n := s.pending.Len()
	if n >= max(flushBytes, (s.stored+n)/flushShare) || s.t.a.opts.Clock().Sub(s.flushed) >= flushEvery {
		return s.flush()
	}
	return nil
}

func (s *streamed) flush() error {
	if s.pending.Len() == 0 {
		return nil
	}
	err := s.t.a.opts.Store.AppendText(s.t.id, s.seq, s.pending.String())
	s.stored += s.pending.Len()
	s.pending.Reset()
	s.flushed = s.t.a.opts.Clock()
	return err
}

// finish commits the event with status and, for a signed or redacted
// block, what must go back with it.
func (s *streamed) finish(status store.Status, show func(seq uint64, delta string), blk *provider.ThinkingBlock) error {
	db := s.t.a.opts.Store
	if s.unshown != "" {
		if show != nil {
			show(s.seq, db.Redactor().String(s.unshown))
		}
		s.unshown = ""
	}
	if err := s.flush(); err != nil {
		return err
	}
	if err := db.FinishEvent(s.t.id, s.seq, status); err != nil {
		return err
	}
	e, err := db.Event(s.t.id, s.seq)
	if err != nil {
		return err
	}
	if blk != nil && (blk.Signature != "" || blk.Redacted != "") {
		e.Signature, e.Redacted = blk.Signature, blk.Redacted
		if err := db.UpdateEvent(s.t.id, e); err != nil {
			return err
		}
	}
	s.t.replace(e)
	return nil
}

// thinkingShow is the sink's OnThinking, when it has one.
func (r *reply) thinkingShow() func(uint64, string) {
	if ts, ok := r.t.sink.(ThinkingSink); ok {
		return ts.OnThinking
	}
	return nil
}

// thinking records a piece of reasoning.
func (r *reply) thinking(piece string) error {
	if piece == "" {
		return nil
	}
	if r.th.cur == nil {
		e, err := r.t.record(store.Event{Type: store.EventThinking, Model: r.t.a.opts.Model, Status: store.StatusStreaming})
		if err != nil {
			return err
		}
		r.th.cur = &streamed{t: r.t, seq: e.Seq, flushed: r.t.a.opts.Clock()}
	}
	return r.th.cur.add(piece, r.thinkingShow())
}

// thinkingBlock ends the reasoning streamed so far as one block with its
// signature, or records a redacted block.
func (r *reply) thinkingBlock(blk provider.ThinkingBlock) error {
	if blk.Redacted != "" {
		if err := r.endThinking(store.StatusComplete, nil); err != nil {
			return err
		}
		_, err := r.t.record(store.Event{Type: store.EventThinking, Model: r.t.a.opts.Model, Redacted: blk.Redacted})
		return err
	}
	return r.endThinking(store.StatusComplete, &blk)
}

// endThinking finishes the reasoning being streamed, if any.
func (r *reply) endThinking(status store.Status, blk *provider.ThinkingBlock) error {
	cur := r.th.cur
	if cur == nil {
		return nil
	}
	r.th.cur = nil
	return cur.finish(status, r.thinkingShow(), blk)
}

// status shows a status; a stall commits what was shown.
func (r *reply) status(st *provider.Status) error {
	if st == nil {
		return nil
	}
	if st.Phase == provider.PhaseStalled {
		if err := r.flush(); err != nil {
			return err
		}
		if r.th.cur != nil {
			if err := r.th.cur.flush(); err != nil {
				return err
			}
		}
	}
	if ss, ok := r.t.sink.(StatusSink); ok {
		ss.OnStatus(*st)
	}
	return nil
}

// notice records a notice once per turn.
func (r *reply) notice(text string) error {
	if text == "" || r.t.noticed[text] {
		return nil
	}
	if r.t.noticed == nil {
		r.t.noticed = map[string]bool{}
	}
	r.t.noticed[text] = true
	_, err := r.t.record(store.Event{Type: store.EventNotice, Text: text, Model: r.t.a.opts.Model})
	return err
}

// other handles the events that are neither text nor calls.
func (r *reply) other(ev provider.Event) error {
	switch ev.Type {
	case provider.EventThinking:
		return r.thinking(ev.Text)
	case provider.EventThinkingBlock:
		if ev.Block != nil {
			return r.thinkingBlock(*ev.Block)
		}
	case provider.EventStatus:
		return r.status(ev.Status)
	case provider.EventNotice:
		return r.notice(ev.Text)
	}
	return nil
}

// lengthStop records, for a reply stopped for length without any text
// (finish gave a text event StatusLength already), an empty reply with
// StatusLength, so a front end can say "stopped: length" and offer
// Continue.
func (r *reply) lengthStop() error {
	_, err := r.t.record(store.Event{Type: store.EventAssistantText, Model: r.t.a.opts.Model, Status: store.StatusLength})
	return err
}

// lengthOnly is status when it is StatusLength, else complete.
func lengthOnly(status store.Status) store.Status {
	if status == store.StatusLength {
		return status
	}
	return store.StatusComplete
}
