package openai

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/internal/wire"
)

// Stream sends req and streams the answer to onEvent. See provider.Provider.
func (p *Provider) Stream(ctx context.Context, req provider.Request, onEvent func(provider.Event) error) (*provider.Response, error) {
	call, perr := wire.Start(p.name, p.baseURL, p.apiKey, req.Model, p.model, onEvent)
	model, cls, b := call.Model, call.Cls, call.B
	if perr != nil {
		return b.Response(), perr
	}
	params, err := p.params(req, model)
	if err != nil {
		return b.Response(), wire.BadParams(p.name, err)
	}
	body, sent, err := p.body(params, req.System, p.withImages(req.Messages, model))
	if err != nil {
		return b.Response(), wire.BadParams(p.name, err)
	}
	p.log.DebugContext(ctx, "model request", "base_url", p.baseURL, "model", model,
		"messages", sent, "tools", len(params.Tools))

	var x wire.Exchange
	wctx := call.Watch(ctx, wire.WatchConfig{Clock: p.clock, Timeouts: p.timeouts, Server: p.server, Local: p.local, Probe: p.probe})
	defer call.W.Stop()
	// The body is built by p.body, "stream": true included, and put on
	// the request by sendBody: the SDK's own body is a stand-in.
	stream := p.chat.NewStreaming(wctx, sdk.ChatCompletionNewParams{}, option.WithMiddleware(sendBody(body)),
		option.WithMiddleware(x.Middleware), option.WithRequestBody("application/json", []byte("{}")))
	defer stream.Close()

	st := &state{calls: map[int64]*callAcc{}}
	for stream.Next() {
		if err := st.chunk(stream.Current(), b); err != nil {
			return wire.Fail(ctx, p.log, b, cls, err)
		}
		if st.finished {
			// Only the usage and [DONE] may follow; a server that sends
			// neither nor closes the connection does not hold the turn.
			call.W.Finished()
		}
	}
	if err := stream.Err(); err != nil && !(st.finished && call.Complete()) {
		if ferr := call.Fired(); ferr != nil {
			return wire.Fail(ctx, p.log, b, cls, ferr)
		}
		return wire.Fail(ctx, p.log, b, cls, p.classify(ctx, cls, &x, err))
	}
	if !st.finished {
		if perr := cls.Context(ctx, nil); perr != nil {
			return wire.Fail(ctx, p.log, b, cls, perr)
		}
		if wire.IsHTML(x.Header.Get("Content-Type"), nil) {
			return wire.Fail(ctx, p.log, b, cls, cls.NotAPI(x.Status, nil))
		}
		return wire.Fail(ctx, p.log, b, cls, cls.BadStream("the stream ended before a finish_reason", b.Shown(), nil))
	}
	// Tool-call deltas a server sent after its finish_reason chunk are
	// complete now that the stream is over.
	if err := st.flush(b); err != nil {
		return wire.Fail(ctx, p.log, b, cls, err)
	}
	return call.Done(ctx, p.log, st.stopReason())
}

// classify turns an SDK error into a *provider.Error.
func (p *Provider) classify(ctx context.Context, cls *wire.Classifier, x *wire.Exchange, err error) *provider.Error {
	if perr := cls.Context(ctx, err); perr != nil {
		return perr
	}
	if x.Status >= 400 {
		return cls.Status(x.Status, x.Header, x.Body, err)
	}
	// An error object inside the stream (OpenRouter reports upstream
	// failures this way after a 200).
	var se *ssestream.StreamError
	if errors.As(err, &se) {
		return cls.Event(se.Event.Data, err)
	}
	return cls.Transport(err, x.Responded())
}

// state gathers one response's tool calls and finish reason.
type state struct {
	// calls maps a stream index to the call it currently builds; order
	// keeps the calls in the order they began.
	calls    map[int64]*callAcc
	order    []*callAcc
	finished bool
	finish   string
}

type callAcc struct {
	id, name string
	args     []byte
	index    int64
	seq      int
	done     bool
}

func (s *state) chunk(c sdk.ChatCompletionChunk, b *wire.Builder) error {
	if c.JSON.Usage.Valid() {
		u := c.Usage
		b.SetUsage(provider.Usage{
			InputTokens:  int(u.PromptTokens),
			OutputTokens: int(u.CompletionTokens),
			CachedTokens: int(u.PromptTokensDetails.CachedTokens),
		})
	}
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue // n is always 1; ignore anything else a server invents
		}
		if err := b.Thinking(reasoning(ch.Delta)); err != nil {
			return err
		}
		if err := b.Text(ch.Delta.Content); err != nil {
			return err
		}
		if err := b.Text(ch.Delta.Refusal); err != nil {
			return err
		}
		for _, d := range ch.Delta.ToolCalls {
			s.toolDelta(d)
		}
		if ch.FinishReason != "" {
			s.finished = true
			s.finish = ch.FinishReason
			if err := s.flush(b); err != nil {
				return err
			}
		}
	}
	return nil
}

// reasoningFields are the delta fields OpenAI-compatible servers put
// reasoning in: reasoning_content (DeepSeek, vLLM, llama.cpp, LM Studio)
// and reasoning (OpenRouter, Ollama's /v1).
var reasoningFields = []string{"reasoning_content", "reasoning"}

// reasoning is the piece of reasoning a delta carries, "" for none.
func reasoning(d sdk.ChatCompletionChunkChoiceDelta) string {
	for _, name := range reasoningFields {
		f, ok := d.JSON.ExtraFields[name]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal([]byte(f.Raw()), &s) == nil && s != "" {
			return s
		}
	}
	return ""
}

func (s *state) toolDelta(d sdk.ChatCompletionChunkChoiceDeltaToolCall) {
	acc := s.calls[d.Index]
	// Some servers give every call index 0 and send each call whole in one
	// chunk. There a new id, or a name arriving after complete arguments
	// (when ids are missing), starts a new call at a known index.
	newID := d.ID != "" && acc != nil && acc.id != "" && d.ID != acc.id
	newName := d.ID == "" && d.Function.Name != "" && acc != nil && acc.name != "" && json.Valid(acc.args)
	if acc == nil || acc.done || newID || newName {
		acc = &callAcc{index: d.Index, seq: len(s.order)}
		s.calls[d.Index] = acc
		s.order = append(s.order, acc)
	}
	if acc.id == "" {
		acc.id = d.ID
	}
	if acc.name == "" {
		acc.name = d.Function.Name
	}
	acc.args = append(acc.args, d.Function.Arguments...)
}

// flush reports every call not yet reported, in stream-index order (the
// order the model meant), ties broken by arrival.
func (s *state) flush(b *wire.Builder) error {
	pending := make([]*callAcc, 0, len(s.order))
	for _, c := range s.order {
		if !c.done {
			pending = append(pending, c)
		}
	}
	slices.SortStableFunc(pending, func(x, y *callAcc) int {
		return cmp.Or(cmp.Compare(x.index, y.index), cmp.Compare(x.seq, y.seq))
	})
	for _, c := range pending {
		c.done = true
		id := c.id
		if id == "" {
			// Some local servers omit ids; results must still match calls.
			id = fmt.Sprintf("call_%d", c.seq)
		}
		if err := b.ToolCall(provider.ToolCall{ID: id, Name: c.name, Arguments: wire.Arguments(string(c.args))}); err != nil {
			return err
		}
	}
	return nil
}

func (s *state) stopReason() string {
	switch s.finish {
	case "tool_calls", "function_call":
		return provider.StopToolUse
	case "length":
		return provider.StopMaxTokens
	case "stop":
		// Older Ollama and llama.cpp say "stop" even when they called tools.
		if len(s.order) > 0 {
			return provider.StopToolUse
		}
		return provider.StopEnd
	default:
		return s.finish
	}
}

// sendBody is a middleware that sends body as the request's body, in place
// of what the SDK built. NewStreaming adds "stream": true to the body it is
// given with sjson, which copies the whole of it (a 32k-token window is
// about 100 kB) on every request; given a two-byte stand-in it copies
// that, and body (which p.body wrote with "stream": true) goes out as it
// is, on every attempt (the SDK's retries pass through the middleware
// again).
func sendBody(body []byte) option.Middleware {
	return func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		req.ContentLength = int64(len(body))
		return next(req)
	}
}
