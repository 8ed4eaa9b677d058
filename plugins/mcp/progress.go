package mcp

import (
	"context"
	"fmt"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// Progress is a server's report on a tool call under way
// (notifications/progress), told to Options.Progress.
type Progress struct {
	// Server is the capability's name; Tool the server's name of the tool.
	Server, Tool string
	// Conversation is the id of the conversation whose turn made the call
	// ("" for a call outside a conversation).
	Conversation string
	// Progress grows with each report; Total is the amount it reaches at
	// the end, 0 when the server does not know it.
	Progress, Total float64
	Message         string
}

// Fraction is how far the call is, from 0 to 1, and false when the server
// gave no total (a front end then shows the message alone).
func (p Progress) Fraction() (float64, bool) {
	if p.Total <= 0 {
		return 0, false
	}
	return min(max(p.Progress/p.Total, 0), 1), true
}

// inflight is one tool call of a server under way.
type inflight struct {
	tool, conversation string
}

// callBook is what a server knows of its calls under way: by progress
// token, so a progress notification finds its call, and in order, so a
// question (elicitation, sampling) the server asks during a call can be
// put in the conversation that made it.
type callBook struct {
	mu    sync.Mutex
	next  uint64
	calls map[string]inflight
}

// begin notes a call of tool made with ctx and returns its progress token.
func (b *callBook) begin(ctx context.Context, tool string) string {
	conv := ""
	if s := cerebellum.SessionFrom(ctx); s != nil {
		conv = s.ID()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.next++
	token := fmt.Sprintf("wrasse-%d", b.next)
	if b.calls == nil {
		b.calls = map[string]inflight{}
	}
	b.calls[token] = inflight{tool: tool, conversation: conv}
	return token
}

// end forgets a call that ended.
func (b *callBook) end(token string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.calls, token)
}

func (b *callBook) lookup(token any) (inflight, bool) {
	t, ok := token.(string)
	if !ok {
		return inflight{}, false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	c, ok := b.calls[t]
	return c, ok
}

// asker is the conversation and tool a server's question belongs to: the
// call under way when there is one, or the calls of one conversation.
// Over stdio a request carries no link to the call it serves, so with
// calls of several conversations under way (or none) it belongs to none
// and the front end asks outside any conversation.
func (b *callBook) asker() (conversation, tool string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	first := true
	for _, c := range b.calls {
		switch {
		case first:
			conversation, tool, first = c.conversation, c.tool, false
		case c.conversation != conversation:
			return "", ""
		case c.tool != tool:
			tool = "" // the same conversation, several tools: name none
		}
	}
	return conversation, tool
}

// progressHandler tells Options.Progress of a call's progress. A token
// that names no call under way (a late report, or one for another
// request) is dropped.
func (s *server) progressHandler(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
	tell := s.l.opts.Progress
	if tell == nil || req.Params == nil {
		return
	}
	c, ok := s.calls.lookup(req.Params.ProgressToken)
	if !ok {
		return
	}
	tell(Progress{Server: s.cfg.name, Tool: c.tool, Conversation: c.conversation,
		Progress: req.Params.Progress, Total: req.Params.Total, Message: req.Params.Message})
}
