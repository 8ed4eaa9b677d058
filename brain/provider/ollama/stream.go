package ollama

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/types/model"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/internal/wire"
)

// errDone stops reading once the server sent its last line (done: true):
// the answer is whole whether or not the connection ends.
var errDone = errors.New("ollama: answer complete")

// Stream sends req to /api/chat and streams the answer to onEvent. See
// provider.Provider.
func (p *Provider) Stream(ctx context.Context, req provider.Request, onEvent func(provider.Event) error) (*provider.Response, error) {
	call, perr := wire.Start(p.name, p.baseURL, "", req.Model, p.model, onEvent)
	name, cls, b := call.Model, call.Cls, call.B
	if perr != nil {
		return b.Response(), perr
	}
	wctx := call.Watch(ctx, wire.WatchConfig{Clock: p.clock, Timeouts: p.timeouts, Server: "Ollama", Local: p.local,
		OnSlow: func() { p.whySlow(ctx, call.W, name) }})
	defer call.W.Stop()

	f, err := p.show(ctx, name)
	if err != nil {
		return wire.Fail(ctx, p.log, b, cls, err)
	}
	if !f.can(model.CapabilityCompletion) && f.can(model.CapabilityEmbedding) {
		return wire.Fail(ctx, p.log, b, cls, &provider.Error{Kind: provider.ErrBadRequest, Provider: p.name,
			Message: fmt.Sprintf("%s is an embedding model: it cannot chat. Choose another model.", name)})
	}
	chat, dropped, err := p.chatRequest(req, name, f)
	if err != nil {
		return b.Response(), wire.BadParams(p.name, err)
	}
	if dropped {
		if err := b.Notice(modelNote(name)); err != nil {
			return wire.Fail(ctx, p.log, b, cls, err)
		}
	}
	p.log.DebugContext(ctx, "model request", "base_url", p.baseURL, "model", name, "messages", len(chat.Messages),
		"tools", len(chat.Tools), "num_ctx", chat.Options["num_ctx"], "think", chat.Think != nil)

	var (
		done   bool
		stop   string
		nCalls int
		x      wire.Exchange
	)
	err = p.client.Chat(wire.WithExchange(wctx, &x), chat, func(r api.ChatResponse) error {
		if err := b.Thinking(r.Message.Thinking); err != nil {
			return err
		}
		if err := b.Text(r.Message.Content); err != nil {
			return err
		}
		for _, tc := range r.Message.ToolCalls {
			nCalls++
			id := tc.ID
			if id == "" {
				id = fmt.Sprintf("call_%d", nCalls)
			}
			args, aerr := tc.Function.Arguments.MarshalJSON()
			if aerr != nil {
				args = []byte("{}")
			}
			if err := b.ToolCall(provider.ToolCall{ID: id, Name: tc.Function.Name, Arguments: args}); err != nil {
				return err
			}
		}
		if !r.Done {
			return nil
		}
		done = true
		b.SetUsage(provider.Usage{InputTokens: r.PromptEvalCount, OutputTokens: r.EvalCount})
		stop = stopReason(r.DoneReason, nCalls)
		return errDone
	})
	if errors.Is(err, errDone) {
		err = nil
	}
	if err != nil {
		var cb *wire.CallbackError
		if errors.As(err, &cb) {
			return wire.Fail(ctx, p.log, b, cls, err)
		}
		if ferr := call.Fired(); ferr != nil {
			return wire.Fail(ctx, p.log, b, cls, ferr)
		}
		return wire.Fail(ctx, p.log, b, cls, p.classify(ctx, cls, err, &x))
	}
	if !done {
		if perr := cls.Context(ctx, nil); perr != nil {
			return wire.Fail(ctx, p.log, b, cls, perr)
		}
		if ferr := call.Fired(); ferr != nil {
			return wire.Fail(ctx, p.log, b, cls, ferr)
		}
		if wire.IsHTML(x.ContentType(), nil) {
			return wire.Fail(ctx, p.log, b, cls, cls.NotAPI(x.Status, nil))
		}
		return wire.Fail(ctx, p.log, b, cls, cls.BadStream("the stream ended before its last line (done)", b.Shown(), nil))
	}
	return call.Done(ctx, p.log, stop)
}

// stopReason normalises done_reason.
func stopReason(reason string, calls int) string {
	switch {
	case reason == "length":
		return provider.StopMaxTokens
	case calls > 0:
		// Ollama says "stop" when the model called tools.
		return provider.StopToolUse
	case reason == "stop", reason == "":
		return provider.StopEnd
	}
	return reason
}

// whySlow runs when no answer came within a second: /api/ps tells
// whether the model is being loaded into memory (the first byte may then
// take the load timeout) or reads the prompt. Ollama lists a model from
// the moment it starts loading it, with an expiry of now + keep_alive
// until the request that loaded it ends; a model loaded before expires
// at its last request's end + keep_alive.
func (p *Provider) whySlow(ctx context.Context, w *wire.Watch, name string) {
	ctx, cancel := context.WithTimeout(ctx, wire.DiscoveryTimeout)
	defer cancel()
	res, err := p.client.ListRunning(ctx)
	if err != nil {
		return
	}
	now := p.clock.Now()
	for _, m := range res.Models {
		if !sameModel(m.Name, name) && !sameModel(m.Model, name) {
			continue
		}
		if d := m.ExpiresAt.Sub(now.Add(p.keepAlive)); p.keepAlive > 0 && d > -loadSlack && d < loadSlack {
			break // loading for this request
		}
		w.Say(provider.PhaseWaiting, name+" is reading the prompt…")
		return
	}
	w.Loading()
}

// loadSlack is how close to now + keep_alive a listed model's expiry must
// be to count as loaded by this request.
const loadSlack = 10 * time.Second
