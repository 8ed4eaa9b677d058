package providertest

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/internal/wire"
)

// Provider is an in-memory provider.Provider that plays Replies built from
// the same Parts as Model, without HTTP. Failures are the *provider.Error a
// real provider would return: Status is classified as the HTTP error would
// be, Hold and Wait end as cancellations, Cut as a broken stream; Fail
// returns any error as given.
type Provider struct {
	t       testing.TB
	name    string
	waiting chan struct{}
	log     *slog.Logger

	mu       sync.Mutex
	script   []reply
	next     int
	calls    int
	requests []provider.Request
	models   []provider.ModelInfo
}

var (
	_ provider.Provider    = (*Provider)(nil)
	_ provider.ModelLister = (*Provider)(nil)
)

// NewProvider returns an in-memory Provider named name ("" for "fake").
func NewProvider(t testing.TB, name string) *Provider {
	if name == "" {
		name = "fake"
	}
	return &Provider{t: t, name: name, waiting: make(chan struct{}, waitingBuffer),
		log: slog.New(slog.DiscardHandler), models: defaultModels()}
}

// Name returns the name given to NewProvider.
func (p *Provider) Name() string { return p.name }

// Reply adds one model response to the script (see Model.Reply). Tool calls
// without WithID are numbered "call_1", "call_2", ….
func (p *Provider) Reply(parts ...Part) {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	r, err := newReply(parts, false, func() string {
		p.calls++
		return "call_" + strconv.Itoa(p.calls)
	})
	if err != nil {
		p.t.Fatal(err)
		return
	}
	p.script = append(p.script, r)
}

// Pending returns how many Replies have not been played yet.
func (p *Provider) Pending() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.script) - p.next
}

// Requests returns the requests received so far (copies: the caller may
// reuse its slices).
func (p *Provider) Requests() []provider.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.requests)
}

// Waiting receives once each time a response reaches a Hold or Wait part.
func (p *Provider) Waiting() <-chan struct{} { return p.waiting }

// SetModels sets what ListModels returns (default: DefaultModelID).
func (p *Provider) SetModels(models ...provider.ModelInfo) {
	p.mu.Lock()
	p.models = slices.Clone(models)
	p.mu.Unlock()
}

// ListModels returns the models set with SetModels, sorted by ID.
func (p *Provider) ListModels(context.Context) ([]provider.ModelInfo, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := slices.Clone(p.models)
	slices.SortFunc(out, func(a, b provider.ModelInfo) int { return compare(a.ID, b.ID) })
	return out, nil
}

func compare(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Stream plays the next Reply. See provider.Provider.
func (p *Provider) Stream(ctx context.Context, req provider.Request, onEvent func(provider.Event) error) (*provider.Response, error) {
	req.Messages = slices.Clone(req.Messages)
	req.Tools = slices.Clone(req.Tools)
	call, perr := wire.Start(p.name, "memory://"+p.name, "", req.Model, "", onEvent)
	cls, b := call.Cls, call.B

	p.mu.Lock()
	p.requests = append(p.requests, req)
	n := len(p.requests)
	var rep reply
	ok := p.next < len(p.script)
	if ok {
		rep = p.script[p.next]
		p.next++
	}
	p.mu.Unlock()
	if !ok {
		msg := fmt.Sprintf("providertest: the script ran out: request %d has no Reply; add one with Provider.Reply", n)
		p.t.Errorf("%s", msg)
		return b.Response(), &provider.Error{Kind: provider.ErrBadRequest, Provider: p.name, Message: msg}
	}
	if perr != nil {
		return b.Response(), perr
	}
	if perr := cls.Context(ctx, ctx.Err()); perr != nil {
		return b.Response(), perr
	}
	stop := stopEnd
	for _, part := range rep.parts {
		var err error
		switch part.kind {
		case partText:
			for _, s := range part.pieces {
				if err = b.Text(s); err != nil {
					break
				}
			}
		case partThinking:
			for _, s := range part.pieces {
				if err = b.Thinking(s); err != nil {
					break
				}
			}
		case partCall:
			err = b.ToolCall(provider.ToolCall{ID: part.id, Name: part.name, Arguments: json.RawMessage(wire.Arguments(part.args))})
			stop = stopTools
		case partWait:
			signal(p.waiting)
			select {
			case <-part.wait:
			case <-ctx.Done():
				err = cls.Context(ctx, ctx.Err())
			}
		case partHold:
			signal(p.waiting)
			<-ctx.Done()
			err = cls.Context(ctx, ctx.Err())
		case partCut:
			err = cls.BadStream("the stream ended before it finished", b.Shown(), nil)
		case partStatus:
			err = cls.Status(part.status, part.header, []byte(statusBody(part)), nil)
		case partFail:
			return b.Response(), part.err
		}
		if err != nil {
			return wire.Fail(ctx, p.log, b, cls, err)
		}
	}
	if rep.max {
		stop = stopMax
	}
	// Usage comes with the end, as on OpenAI's wire: a failed response has
	// none.
	b.SetUsage(rep.usage)
	return call.Done(ctx, p.log, stop)
}

// statusBody is a Status part's body, or the OpenAI-shaped default.
func statusBody(p Part) string {
	if p.body != "" {
		return p.body
	}
	return errorBody(OpenAI, p.status, "")
}
