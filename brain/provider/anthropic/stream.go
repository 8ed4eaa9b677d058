package anthropic

import (
	"context"
	"errors"
	"fmt"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

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
	deferred := p.useDeferred(req, model)
	params, err := p.params(req, model, deferred)
	if err != nil {
		return b.Response(), wire.BadParams(p.name, err)
	}
	p.log.DebugContext(ctx, "model request", "base_url", p.baseURL, "model", model,
		"messages", len(params.Messages), "tools", len(params.Tools), "max_tokens", params.MaxTokens, "deferred_tools", deferred)

	var x wire.Exchange
	wctx := call.Watch(ctx, wire.WatchConfig{Clock: p.clock, Timeouts: p.timeouts, Server: p.server, Local: p.local, Probe: p.probe})
	defer call.W.Stop()
	stream := p.messages.NewStreaming(wctx, params, option.WithMiddleware(x.Middleware))
	defer func() { stream.Close() }()

	st := &state{blocks: map[int64]*toolAcc{}, thinking: map[int64]*thinkAcc{}}
	read := func() error {
		for stream.Next() {
			if err := st.event(stream.Current(), b); err != nil {
				return err
			}
			if st.stopped {
				break
			}
			if st.stop != "" {
				// Only message_stop may follow; a server that neither
				// sends it nor closes the connection does not hold the turn.
				call.W.Finished()
			}
		}
		return nil
	}
	if err := read(); err != nil {
		return wire.Fail(ctx, p.log, b, cls, err)
	}
	if err := stream.Err(); err != nil && deferred && !st.started && refusesDeferred(x.Status, x.Body) {
		// The model (or a gateway in front of it) does not take deferred
		// tools: remember that and send the request the plain way.
		p.noDeferModels.Store(model, true)
		p.log.InfoContext(ctx, "model refused deferred tools; sending its requests with the loaded tools instead", "model", model)
		if params, err = p.params(req, model, false); err != nil {
			return b.Response(), wire.BadParams(p.name, err)
		}
		stream.Close()
		x = wire.Exchange{}
		stream = p.messages.NewStreaming(wctx, params, option.WithMiddleware(x.Middleware))
		if err := read(); err != nil {
			return wire.Fail(ctx, p.log, b, cls, err)
		}
	}
	if err := stream.Err(); err != nil && !(st.stop != "" && call.Complete()) {
		if ferr := call.Fired(); ferr != nil {
			return wire.Fail(ctx, p.log, b, cls, ferr)
		}
		return wire.Fail(ctx, p.log, b, cls, p.classify(ctx, cls, &x, err))
	}
	if st.stop != "" && call.Complete() {
		st.stopped = true
	}
	if !st.stopped || !st.started {
		if perr := cls.Context(ctx, nil); perr != nil {
			return wire.Fail(ctx, p.log, b, cls, perr)
		}
		if wire.IsHTML(x.Header.Get("Content-Type"), nil) {
			return wire.Fail(ctx, p.log, b, cls, cls.NotAPI(x.Status, nil))
		}
		detail := "the stream ended before message_stop"
		if !st.started {
			detail = "the stream had no message_start"
		}
		return wire.Fail(ctx, p.log, b, cls, cls.BadStream(detail, b.Shown(), nil))
	}
	return call.Done(ctx, p.log, stopReason(st.stop))
}

// classify turns an SDK error into a *provider.Error.
func (p *Provider) classify(ctx context.Context, cls *wire.Classifier, x *wire.Exchange, err error) *provider.Error {
	if perr := cls.Context(ctx, err); perr != nil {
		return perr
	}
	if x.Status >= 400 {
		return cls.Status(x.Status, x.Header, x.Body, err)
	}
	// "event: error" after a 200: the SDK returns it as an API error whose
	// raw JSON is the event's data.
	var ae *sdk.Error
	if errors.As(err, &ae) {
		return cls.Event([]byte(ae.RawJSON()), err)
	}
	return cls.Transport(err, x.Responded())
}

// state follows one message's content blocks.
type state struct {
	// blocks holds the tool_use blocks still open, by content index;
	// thinking the thinking blocks.
	blocks   map[int64]*toolAcc
	thinking map[int64]*thinkAcc
	// Raw token counts as the API reports them.
	in, cacheRead, cacheWrite, out int64
	stop                           string
	started, stopped               bool
}

// usage normalises the counts: Anthropic's input_tokens excludes cache reads
// and writes, provider.Usage.InputTokens includes them.
func (s *state) usage() provider.Usage {
	return provider.Usage{
		InputTokens:      int(s.in + s.cacheRead + s.cacheWrite),
		OutputTokens:     int(s.out),
		CachedTokens:     int(s.cacheRead),
		CacheWriteTokens: int(s.cacheWrite),
	}
}

type toolAcc struct {
	id, name string
	args     []byte
}

// thinkAcc is an open thinking or redacted_thinking block.
type thinkAcc struct {
	signature string
	redacted  string
}

func (s *state) event(ev sdk.MessageStreamEventUnion, b *wire.Builder) error {
	switch ev.Type {
	case "message_start":
		s.started = true
		u := ev.Message.Usage
		s.in, s.cacheRead, s.cacheWrite, s.out = u.InputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens, u.OutputTokens
		b.SetUsage(s.usage())
	case "content_block_start":
		switch ev.ContentBlock.Type {
		case "tool_use":
			id := ev.ContentBlock.ID
			if id == "" {
				// Anthropic always sends one; a compatible gateway might not,
				// and the result must still name its call.
				id = fmt.Sprintf("toolu_%d", ev.Index)
			}
			s.blocks[ev.Index] = &toolAcc{id: id, name: ev.ContentBlock.Name}
		case "text":
			return b.Text(ev.ContentBlock.Text)
		case "thinking":
			s.thinking[ev.Index] = &thinkAcc{signature: ev.ContentBlock.Signature}
			return b.Thinking(ev.ContentBlock.Thinking)
		case "redacted_thinking":
			s.thinking[ev.Index] = &thinkAcc{redacted: ev.ContentBlock.Data}
		}
	case "content_block_delta":
		switch ev.Delta.Type {
		case "text_delta":
			return b.Text(ev.Delta.Text)
		case "input_json_delta":
			if acc := s.blocks[ev.Index]; acc != nil {
				acc.args = append(acc.args, ev.Delta.PartialJSON...)
			}
		case "thinking_delta":
			return b.Thinking(ev.Delta.Thinking)
		case "signature_delta":
			if acc := s.thinking[ev.Index]; acc != nil {
				acc.signature += ev.Delta.Signature
			}
		}
	case "content_block_stop":
		if th := s.thinking[ev.Index]; th != nil {
			delete(s.thinking, ev.Index)
			return b.ThinkingBlock(provider.ThinkingBlock{Signature: th.signature, Redacted: th.redacted})
		}
		acc := s.blocks[ev.Index]
		if acc == nil {
			return nil
		}
		delete(s.blocks, ev.Index)
		return b.ToolCall(provider.ToolCall{ID: acc.id, Name: acc.name, Arguments: wire.Arguments(string(acc.args))})
	case "message_delta":
		if ev.Delta.StopReason != "" {
			s.stop = string(ev.Delta.StopReason)
		}
		// message_delta counts are cumulative and replace message_start's;
		// input counts appear there only on newer API versions.
		u := ev.Usage
		if u.JSON.OutputTokens.Valid() {
			s.out = u.OutputTokens
		}
		if u.JSON.InputTokens.Valid() {
			s.in = u.InputTokens
		}
		if u.JSON.CacheReadInputTokens.Valid() {
			s.cacheRead = u.CacheReadInputTokens
		}
		if u.JSON.CacheCreationInputTokens.Valid() {
			s.cacheWrite = u.CacheCreationInputTokens
		}
		b.SetUsage(s.usage())
	case "message_stop":
		s.stopped = true
	}
	return nil
}

func stopReason(r string) string {
	switch r {
	case "end_turn", "stop_sequence", "":
		// No message_delta at all: the message simply ended.
		return provider.StopEnd
	case "tool_use":
		return provider.StopToolUse
	case "max_tokens", "model_context_window_exceeded":
		return provider.StopMaxTokens
	default:
		return r
	}
}
