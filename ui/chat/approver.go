package chat

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/wrasse-app/wrasse/brain/gate"
)

// pending is one call waiting for the user's answer.
type pending struct {
	req    gate.Request
	answer chan gate.Approval // buffered: answering never blocks the UI
	row    *row               // the approval card's row, made once
	// n numbers the requests in the order asked, across conversations.
	n uint64
}

// approvals is the window's gate.Approver: every request waits here, per
// conversation, until the user answers on its card or the turn ends. It
// belongs to the Chat, not to any widget, so a pending approval survives
// switching conversations and rebuilding the message list.
type approvals struct {
	mu     sync.Mutex
	byConv map[string][]*pending
	// changed is told (on the asking goroutine) that conversation conv's
	// queue changed; the Chat hands that to the UI goroutine.
	changed func(conv string)
	// asked counts the requests made (pending.n).
	asked uint64
	// onAsk, when set, is told of each new request (on the asking
	// goroutine).
	onAsk func(req gate.Request)
}

var _ gate.Approver = (*approvals)(nil)

func newApprovals(changed func(conv string)) *approvals {
	return &approvals{byConv: map[string][]*pending{}, changed: changed}
}

// Approve queues req and blocks until it is answered or ctx ends (the turn
// was stopped), which denies it.
func (q *approvals) Approve(ctx context.Context, req gate.Request) (gate.Approval, error) {
	p := &pending{req: req, answer: make(chan gate.Approval, 1)}
	p.row = &row{kind: rowApproval, pending: p}
	q.mu.Lock()
	q.asked++
	p.n = q.asked
	q.byConv[req.ConversationID] = append(q.byConv[req.ConversationID], p)
	onAsk := q.onAsk
	q.mu.Unlock()
	q.changed(req.ConversationID)
	if onAsk != nil {
		onAsk(req)
	}
	select {
	case a := <-p.answer:
		return a, nil
	case <-ctx.Done():
		q.drop(p)
		q.changed(req.ConversationID)
		return gate.Deny, fmt.Errorf("approval of %s: %w", req.Tool, context.Cause(ctx))
	}
}

// For returns conversation conv's pending requests in the order asked.
func (q *approvals) For(conv string) []*pending {
	q.mu.Lock()
	defer q.mu.Unlock()
	return slices.Clone(q.byConv[conv])
}

// Oldest is the request that has waited longest, in any conversation;
// ok is false when none waits.
func (q *approvals) Oldest() (p *pending, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, list := range q.byConv {
		// The first of each queue is its oldest; the least n of those is
		// the oldest of all, whatever order the map gives them in.
		if len(list) > 0 && (p == nil || list[0].n < p.n) {
			p = list[0]
		}
	}
	return p, p != nil
}

// Answer answers p; it reports false when p was already answered or
// withdrawn (a second tap, or the turn stopped meanwhile).
func (q *approvals) Answer(p *pending, a gate.Approval) bool {
	if !q.drop(p) {
		return false
	}
	p.answer <- a
	return true
}

// drop removes p from its queue, reporting whether it was there.
func (q *approvals) drop(p *pending) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	conv := p.req.ConversationID
	list := q.byConv[conv]
	i := slices.Index(list, p)
	if i < 0 {
		return false
	}
	list = slices.Delete(list, i, i+1)
	if len(list) == 0 {
		delete(q.byConv, conv)
	} else {
		q.byConv[conv] = list
	}
	return true
}
