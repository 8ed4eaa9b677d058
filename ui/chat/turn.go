package chat

import (
	"context"
	"strings"
	"sync/atomic"
	"time"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
)

// turnRun is one running turn.
type turnRun struct {
	tr     *transcript
	cancel context.CancelFunc
	text   string // the message, for Retry when no conversation was kept
	// wait is what the turn waits for now, shown as a row (waitingline.go).
	wait *waiting
	// started is when it started (c.now), to tell a long reply.
	started time.Time
}

// runFn starts a turn in the core: Turn, Resend or Regenerate.
type runFn func(ctx context.Context, opt assistant.TurnOptions) (store.ID, error)

// send sends the composer's text, with the images of its attached
// resources: a new message, or an edited one (which keeps the images it
// was sent with unless new ones are attached).
func (c *Chat) send(text string, files []string, images ...provider.Image) bool {
	if strings.TrimSpace(text) == "" || c.running(c.cur) {
		return false
	}
	if r := c.editing; r != nil {
		c.editing = nil
		c.composer.endEdit()
		c.resend(r, text, files, images)
		return true
	}
	id := c.cur.id
	c.startTurn(c.cur, text, func(ctx context.Context, opt assistant.TurnOptions) (store.ID, error) {
		opt.Images, opt.Files = images, files
		return c.core.Turn(ctx, id, text, opt)
	})
	return true
}

// resend replaces user message r (and what followed) with text.
func (c *Chat) resend(r *row, text string, files []string, images []provider.Image) {
	if c.running(c.cur) || c.cur.id == 0 {
		return
	}
	id, seq := c.cur.id, r.seq
	c.cur.truncateFrom(seq)
	c.list.changed(0)
	c.startTurn(c.cur, text, func(ctx context.Context, opt assistant.TurnOptions) (store.ID, error) {
		opt.Images, opt.Files = images, files
		return c.core.Resend(ctx, id, seq, text, opt)
	})
}

// regenerate answers the last user message again.
func (c *Chat) regenerate() {
	u := c.cur.lastUser()
	if c.running(c.cur) || c.cur.id == 0 || u == nil {
		return
	}
	id := c.cur.id
	c.cur.truncateFrom(u.seq)
	c.list.changed(0)
	c.startTurn(c.cur, u.text, func(ctx context.Context, opt assistant.TurnOptions) (store.ID, error) {
		return c.core.Regenerate(ctx, id, opt)
	})
}

// retry runs the failed turn again: Regenerate, or, when the core kept no
// conversation (no model answered a first message), the message again.
func (c *Chat) retry() {
	if c.running(c.cur) {
		return
	}
	if c.cur.id != 0 {
		c.regenerate()
		return
	}
	u := c.cur.lastUser()
	if u == nil {
		return
	}
	text, images := u.text, u.images
	c.cur.load(nil, true)
	c.list.changed(0)
	c.send(text, nil, images...)
}

// startTurn runs fn in the background, writing what happens into tr.
func (c *Chat) startTurn(tr *transcript, text string, fn runFn) {
	ctx, cancel := context.WithCancel(context.Background())
	run := &turnRun{tr: tr, cancel: cancel, text: text, started: c.now()}
	c.turns[tr] = run
	c.idleGen++ // not idle
	if tr.id != 0 {
		c.live[tr.id] = tr
	}
	c.find.reset()
	c.refreshChrome()
	c.list.changed(0) // Edit and Regenerate go while it runs
	// Sending goes to the end, wherever the view was, and the view follows
	// the reply from there.
	c.list.scrollToEnd()
	sink := &turnSink{c: c, run: run}
	sink.th = newThrottle(streamInterval, c.now, c.timer, sink.flush)
	// The core says which conversation a first turn made before its first
	// event; env.Do keeps that order, so the transcript has its id before
	// any of its rows.
	started := func(id store.ID) { c.env.Do(func() { c.bind(run, id) }) }
	model := c.picker.pendingFor(tr) // a model picked before the first message
	var instructions string
	if tr.id == 0 {
		instructions = tr.draftInstructions // set in the header before it
	}
	c.env.Go(func() {
		// The message and its error stay on screen with Retry, so the
		// conversation stays too, listed in the sidebar (KeepUnanswered).
		id, err := fn(ctx, assistant.TurnOptions{Approver: c.approvals, Sink: sink, Started: started, Model: model, Instructions: instructions, KeepUnanswered: true})
		cancel()
		c.env.Do(func() { c.turnEnded(run, id, err) })
	})
}

// bind gives a first turn's transcript the conversation the core made.
func (c *Chat) bind(run *turnRun, id store.ID) {
	tr := run.tr
	if tr.id != 0 || id == 0 {
		return
	}
	tr.id = id
	tr.draftInstructions = "" // the conversation holds them now
	if c.turns[tr] != nil {
		c.live[id] = tr
	}
	if tr == c.cur {
		c.sidebar.reload()
		c.sidebar.selectID(id)
		c.refreshChrome()
	}
}

func (c *Chat) turnEnded(run *turnRun, id store.ID, err error) {
	tr := run.tr
	delete(c.turns, tr)
	c.idleLater()
	c.bind(run, id)
	if tr.id != 0 {
		delete(c.live, tr.id)
		c.withdrawAsks(tr.id.String()) // stopped: its servers' questions go too
	}
	c.turnAttention(run, tr.id, err)
	if err != nil {
		// The core removed the conversation (a turn that asked it not to
		// keep one no model answered): the screen shows an unsent one.
		tr.id = id
	}
	if tr != c.cur {
		return
	}
	if err != nil {
		tr.attachError(err)
	}
	c.pendingRows = c.approvalRows()
	c.list.changed(0)
	c.refreshChrome()
	c.sidebar.reload()
	c.sidebar.selectID(tr.id)
}

// idleAfter is how long after a turn ends with none running OnIdle is
// called.
const idleAfter = 2 * time.Second

// idleLater calls OnIdle once no turn has run for idleAfter.
func (c *Chat) idleLater() {
	c.idleGen++
	gen := c.idleGen
	c.after(idleAfter, func() {
		if gen == c.idleGen && len(c.turns) == 0 && c.OnIdle != nil {
			c.OnIdle()
		}
	})
}

// applyEvent shows a stored event of run's turn.
func (c *Chat) applyEvent(run *turnRun, e store.Event) {
	if e.Type == store.EventUserMessage {
		c.readVersions(run.tr) // an edit's message is a new version
	}
	i := run.tr.apply(e)
	if run.tr != c.cur {
		return
	}
	switch e.Type {
	case store.EventUsage:
		c.status.refresh()
	case store.EventToolResult:
		c.strip.refresh()
	}
	if i >= 0 {
		c.list.changed(i)
	}
}

// turnSink receives a turn on its goroutine and hands it to the UI.
type turnSink struct {
	c   *Chat
	run *turnRun
	th  *throttle
	// waits is set while a waiting row shows (OnStatus, waitingline.go).
	waits atomic.Bool
}

var _ agent.Sink = (*turnSink)(nil)

func (s *turnSink) OnStep(int) { s.endWait() }

func (s *turnSink) OnText(seq uint64, delta string) {
	s.endWait()
	s.th.add(seq, delta)
}

func (s *turnSink) OnEvent(e store.Event) {
	s.endWaitFor(e)
	s.c.env.Do(func() { s.c.applyEvent(s.run, e) })
}

// flush shows streamed text (from the throttle, at most ten times a
// second), re-rendering only the replies that changed.
func (s *turnSink) flush(texts map[uint64]string) {
	s.c.env.Do(func() {
		for seq, text := range texts {
			i := s.run.tr.streamed(seq, text)
			if s.run.tr == s.c.cur && i >= 0 {
				s.c.list.rowChanged(i)
			}
		}
	})
}
