package openai

import (
	"fmt"
	"strings"
	"sync"

	sdk "github.com/openai/openai-go/v3"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// encodedMessages keeps the JSON of the history messages of the last
// requests, so a request late in a long conversation encodes only what is
// new since the one before instead of its whole window again (at turn 300
// the SDK's encoding of the history was most of a turn's growth in
// allocations: issue 24). Each request holds the encodings it used; those
// of the request before stay until the next one, so a conversation's
// consecutive requests, which share all but their last messages, find
// them. Two conversations streaming at once take turns evicting each
// other's and encode afresh, which costs what encoding always did. It
// holds about two requests' worth of history.
type encodedMessages struct {
	mu        sync.Mutex
	cur, prev map[messageKey][]byte
}

// messageKey is everything message() reads from a provider.Message
// without images (a message with images is encoded each time; see body).
// Hashing content costs a pass over it, far less than encoding it.
type messageKey struct {
	role    provider.Role
	content string
	callID  string
	isError bool
	// calls are the assistant's tool calls, each ID, name and arguments
	// joined (see callsKey).
	calls string
}

// callsKey joins the parts of calls that message() encodes.
func callsKey(calls []provider.ToolCall) string {
	if len(calls) == 0 {
		return ""
	}
	var b strings.Builder
	for _, c := range calls {
		b.WriteString(c.ID)
		b.WriteByte(0)
		b.WriteString(c.Name)
		b.WriteByte(0)
		b.Write(c.Arguments)
		b.WriteByte(1)
	}
	return b.String()
}

// begin starts a request: what the request before used becomes prev, and
// the encodings of the one before it are dropped (their maps reused).
// The caller holds mu until the request's body is built.
func (c *encodedMessages) begin() {
	if c.cur == nil {
		c.cur, c.prev = map[messageKey][]byte{}, map[messageKey][]byte{}
		return
	}
	c.prev, c.cur = c.cur, c.prev
	clear(c.cur)
}

// encode returns m's JSON as message() makes it (nil, false for a message
// that is not sent), reusing the encoding of the same message in this
// request or the one before. m carries no images.
func (c *encodedMessages) encode(m provider.Message) ([]byte, bool, error) {
	k := messageKey{role: m.Role, content: m.Content, callID: m.ToolCallID, isError: m.IsError, calls: callsKey(m.ToolCalls)}
	if b, ok := c.cur[k]; ok {
		return b, b != nil, nil
	}
	if b, ok := c.prev[k]; ok {
		c.cur[k] = b
		return b, b != nil, nil
	}
	b, ok, err := encodeMessage(m)
	if err != nil {
		return nil, false, err
	}
	c.cur[k] = b // nil when not sent, remembered as such
	return b, ok, nil
}

// encodeMessage is message(m) as JSON.
func encodeMessage(m provider.Message) ([]byte, bool, error) {
	msg, ok, err := message(m)
	if err != nil || !ok {
		return nil, false, err
	}
	b, err := msg.MarshalJSON()
	if err != nil {
		return nil, false, err
	}
	return b, true, nil
}

// body is the JSON of a Chat Completions request: params (without
// messages) with the system prompt and history as messages, each history
// message's encoding reused when an earlier request had the same one.
// The messages come last; a JSON object's members have no order that
// counts. It is what encoding params with the messages in them and
// "stream": true gives.
func (p *Provider) body(params sdk.ChatCompletionNewParams, system string, history []provider.Message) ([]byte, int, error) {
	head, err := params.MarshalJSON()
	if err != nil {
		return nil, 0, err
	}
	var parts [][]byte
	if system != "" {
		b, err := sdk.SystemMessage(system).MarshalJSON()
		if err != nil {
			return nil, 0, err
		}
		parts = append(parts, b)
	}
	p.encoded.mu.Lock()
	p.encoded.begin()
	for i, m := range history {
		var b []byte
		ok := true
		if len(m.Images) > 0 {
			b, ok, err = encodeMessage(m)
		} else {
			b, ok, err = p.encoded.encode(m)
		}
		if err != nil {
			p.encoded.mu.Unlock()
			return nil, 0, fmt.Errorf("message %d: %w", i, err)
		}
		if ok {
			parts = append(parts, b)
		}
		if u := appendImages(nil, history, i); len(u) > 0 {
			if b, err = u[0].MarshalJSON(); err != nil {
				p.encoded.mu.Unlock()
				return nil, 0, fmt.Errorf("images after message %d: %w", i, err)
			}
			parts = append(parts, b)
		}
	}
	p.encoded.mu.Unlock()
	size := len(head) + len(`,"stream":true,"messages":[]`) + len(parts)
	for _, b := range parts {
		size += len(b)
	}
	out := make([]byte, 0, size)
	out = append(out, head[:len(head)-1]...) // without its closing brace
	if len(head) > 2 {
		out = append(out, ',')
	}
	// "stream": true is written here rather than by the SDK, whose option
	// for it copies the whole body (sendBody).
	out = append(out, `"stream":true,"messages":[`...)
	for i, b := range parts {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, b...)
	}
	return append(out, "]}"...), len(parts), nil
}
