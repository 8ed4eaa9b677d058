package plugins

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// The host's side of a plugin process's messages: a request and the
// wait for its reply, read by the goroutine that waits (see childProc),
// and the answers to the process's own requests (secrets, hosts).

// send writes one message to the process.
func (p *childProc) send(m *wireMsg) error {
	// A process that stopped reading must not block the host for ever.
	_ = p.stdin.SetWriteDeadline(time.Now().Add(childExitWait))
	if err := p.w.send(m); err != nil {
		return fmt.Errorf("cannot write to the plugin process: %w", err)
	}
	return nil
}

// begin registers m for its reply and sends it. m.reply receives the reply.
func (p *childProc) begin(m *wireMsg) error {
	m.reply = make(chan *wireMsg, 1)
	p.mu.Lock()
	p.nextID++
	m.ID = p.nextID
	p.waiting[m.ID] = m
	p.mu.Unlock()
	if err := p.send(m); err != nil {
		p.end(m.ID)
		return err
	}
	return nil
}

func (p *childProc) end(id uint64) {
	p.mu.Lock()
	delete(p.waiting, id)
	p.mu.Unlock()
}

// How a wait for a reply ended.
type waitEnd int

const (
	waitReplied waitEnd = iota
	// waitGone: the process's messages ended without the reply.
	waitGone
	// waitTimedOut: the deadline passed first.
	waitTimedOut
	// waitCancelled: ctx ended first.
	waitCancelled
)

// await waits for the reply to m (sent with begin) until deadline or the
// end of ctx, reading the process's messages itself whenever no other
// goroutine does.
func (p *childProc) await(ctx context.Context, m *wireMsg, deadline time.Time) (*wireMsg, waitEnd) {
	select {
	case p.readTok <- struct{}{}: // the usual case: nobody else waits
		return p.readFor(ctx, m, deadline)
	default:
	}
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case r := <-m.reply:
		return r, waitReplied
	case p.readTok <- struct{}{}:
		return p.readFor(ctx, m, deadline)
	case <-p.gone:
		if r := p.lateReply(m); r != nil {
			return r, waitReplied
		}
		return nil, waitGone
	case <-t.C:
		return nil, waitTimedOut
	case <-ctx.Done():
		return nil, waitCancelled
	}
}

// readFor reads the process's messages, holding readTok (which it gives
// back), until the reply to m comes or the wait ends.
func (p *childProc) readFor(ctx context.Context, m *wireMsg, deadline time.Time) (*wireMsg, waitEnd) {
	defer func() { <-p.readTok }()
	// An end of ctx wakes the read (a deadline in the past).
	if ctx.Done() != nil {
		defer context.AfterFunc(ctx, func() { _ = p.stdout.SetReadDeadline(time.Now()) })()
	}
	// readBy is deadline until the process is seen to have ended, then
	// the end of the drain (fixed once: a program the process started may
	// keep writing for as long as it likes).
	readBy, ended := deadline, false
	for {
		// The reply came while another goroutine was reading.
		if r := p.lateReply(m); r != nil {
			return r, waitReplied
		}
		select {
		case <-p.gone:
			return nil, waitGone
		default:
		}
		// The deadline first, then the checks: a wake (the end of ctx, of
		// the process) sets the deadline after what it checks for is so,
		// so either the check sees it or the wake comes after this set.
		_ = p.stdout.SetReadDeadline(readBy)
		if !ended {
			select {
			case <-p.exited:
				// What the process wrote before it ended is in the pipe; a
				// program it started may hold the pipe open, so this does
				// not wait for the end of the stream.
				readBy, ended = time.Now().Add(drainWait), true
				_ = p.stdout.SetReadDeadline(readBy)
			default:
			}
		}
		if ended && !time.Now().Before(readBy) {
			p.stop(nil)
			return nil, waitGone
		}
		if ctx.Err() != nil {
			return nil, waitCancelled
		}
		if !ended && !time.Now().Before(deadline) {
			return nil, waitTimedOut
		}
		line, err := p.rd.Next()
		switch {
		case err == nil:
		case errors.Is(err, os.ErrDeadlineExceeded):
			continue // woken, or the end of the drain: look again
		case errors.Is(err, io.EOF), errors.Is(err, os.ErrClosed):
			p.stop(nil)
			return nil, waitGone
		default:
			p.stop(fmt.Errorf("its messages cannot be read: %w", err))
			return nil, waitGone
		}
		r := &wireMsg{}
		if err := json.Unmarshal(line, r); err != nil {
			p.stop(fmt.Errorf("it sent a malformed message: %w", err))
			return nil, waitGone
		}
		if r.ID == m.ID && r.Op != opSecret && r.Op != opHost {
			p.logs.wait(r.Logs, p.errDone)
			return r, waitReplied
		}
		p.deliver(r)
	}
}

// drainWait bounds the reading of what a process that ended left in its
// stdout pipe.
const drainWait = 50 * time.Millisecond

// maxSecretRequests bounds the secret and host requests of a process
// being answered at once.
const maxSecretRequests = 16

// deliver passes on a message that is not the reader's reply: a secret or
// host request is answered, a reply goes to its waiter.
func (p *childProc) deliver(m *wireMsg) {
	if m.Op == opSecret || m.Op == opHost {
		// Each of the plugin's calls waits for its answer, so it has few
		// requests open at once; more is a process flooding the host
		// with goroutines (one per request, each answering).
		if p.asking.Add(1) > maxSecretRequests {
			p.stop(fmt.Errorf("it sent more than %d %s requests at once", maxSecretRequests, m.Op))
			return
		}
		go func() {
			defer p.asking.Add(-1)
			if m.Op == opHost {
				p.answerHost(m)
				return
			}
			p.answerSecret(m)
		}()
		return
	}
	// Relay the log lines written before the reply first.
	p.logs.wait(m.Logs, p.errDone)
	p.mu.Lock()
	w := p.waiting[m.ID]
	p.mu.Unlock()
	if w == nil {
		p.log.Debug("dropping a late reply from the plugin process", "op", m.Op)
		return
	}
	select {
	case w.reply <- m:
	default:
	}
}

// stop marks the end of the process's messages; err says why, if they
// did not simply end. A process out of step is killed.
func (p *childProc) stop(err error) {
	p.goneOnce.Do(func() {
		if err != nil {
			p.setGone(err)
			p.kill()
		}
		close(p.gone)
	})
}

// lateReply returns a reply another reader passed on, if there is one.
func (p *childProc) lateReply(m *wireMsg) *wireMsg {
	select {
	case r := <-m.reply:
		return r
	default:
		return nil
	}
}

// roundTrip sends m and waits, at most bound, for its reply.
func (p *childProc) roundTrip(ctx context.Context, m *wireMsg, bound time.Duration) (*wireMsg, error) {
	m.ctx = ctx
	if err := p.begin(m); err != nil {
		return nil, fmt.Errorf("%w: %s", ErrPluginCrashed, p.crashReport(err))
	}
	defer p.end(m.ID)
	r, how := p.await(ctx, m, time.Now().Add(bound))
	switch how {
	case waitReplied:
		return r, nil
	case waitGone:
		p.crashing.Store(true)
		report := p.crashReport(nil)
		p.logCrash("plugin process crashed", "during", m.Op, "report", report)
		return nil, fmt.Errorf("%w: %s", ErrPluginCrashed, report)
	case waitTimedOut:
		return nil, fmt.Errorf("%w: the plugin process did not answer within %s", ErrPluginTimeout, bound)
	}
	return nil, fmt.Errorf("abandoned: %w", context.Cause(ctx))
}

func (p *childProc) answerSecret(m *wireMsg) {
	v, err := p.secrets(m.Name)
	if err := p.send(&wireMsg{Op: opSecret, ID: m.ID, Value: v, Err: toWireError(err)}); err != nil {
		p.log.Warn("cannot answer a secret request of the plugin process", "err", err)
	}
}

// answerHost answers whether the load or call m.Call may reach the host
// of m.Name: the call's own check decides (sdk.CheckHost on its context,
// which the agent gives the conversation's answer). A request for no
// running call is refused.
func (p *childProc) answerHost(m *wireMsg) {
	p.mu.Lock()
	w := p.waiting[m.Call]
	p.mu.Unlock()
	var err error
	if w == nil || w.ctx == nil {
		err = fmt.Errorf("%w: %s: no call of the plugin is running", sdk.ErrHostNotAllowed, m.Name)
	} else {
		err = callCheck(w.ctx, m.Name)
	}
	if err != nil {
		p.log.Info("plugin may not reach a host", "target", m.Name, "err", err)
	} else {
		p.log.Debug("plugin reaches a host", "target", m.Name)
	}
	if err := p.send(&wireMsg{Op: opHost, ID: m.ID, Err: toWireError(err)}); err != nil {
		p.log.Warn("cannot answer a host request of the plugin process", "err", err)
	}
}
