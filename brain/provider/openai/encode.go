package openai

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"unsafe"

	sdk "github.com/openai/openai-go/v3"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// encodedMessages keeps the JSON of the history messages of recent
// requests, so a request late in a long conversation encodes only what is
// new since the one before instead of its whole window again (at turn 300
// the SDK's encoding of the history was most of a turn's growth in
// allocations: issue 24). What it keeps is bounded by encodedBudget bytes
// of JSON: past that, the messages the latest request did not use go, so
// it holds several conversations' windows and a person switching between
// them (or a scheduled task running between two turns) finds theirs, where
// keeping only the last two requests' made every switch encode a whole
// window again.
type encodedMessages struct {
	mu sync.Mutex
	m  map[messageKey]*encodedMessage
	// at finds an entry of m by where the message's strings and calls
	// are in memory (messageAt), without hashing their text: a request
	// late in a long conversation hashed every message's whole content
	// and joined every call's parts into a key (~0.1 ms and 120
	// allocations for 580 messages). Each entry of m has at most one key
	// here (encodedMessage.at).
	at map[messageAt]*encodedMessage
	// gen counts requests; bytes is the JSON kept.
	gen   uint64
	bytes int
	// fresh counts the messages encoded rather than reused (for tests).
	fresh int
}

// encodedMessage is one message's JSON (nil: not sent) and the request
// that last used it.
type encodedMessage struct {
	b   []byte
	gen uint64
	// at is its key in encodedMessages.at, if any; calls are a copy of
	// the message's tool calls, which a hit there is checked against.
	at    messageAt
	hasAt bool
	calls []provider.ToolCall
}

// encodedBudget bounds the JSON encodedMessages keeps across requests:
// about twenty 32k-token windows.
const encodedBudget = 2 << 20

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

// messageAt is a message by where its strings and calls are in memory.
// A string never changes, so the same pointer and length is the same
// text (nothing in Wrasse makes strings over memory it later changes);
// the calls are a slice, which may change in place, so a hit is checked
// against the calls the entry was made from (sameCalls).
type messageAt struct {
	content, callID   *byte
	calls             *provider.ToolCall
	nContent, nCallID uintptr
	nCalls            uintptr
	// kind is the role and the error flag (atOf). The key is words
	// only, no padding and no strings, so it hashes as one block.
	kind uintptr
}

// atOf is m's key in encodedMessages.at; false for a role it has none for.
func atOf(m *provider.Message) (messageAt, bool) {
	var kind uintptr
	switch m.Role {
	case provider.RoleUser:
		kind = 1
	case provider.RoleAssistant:
		kind = 2
	case provider.RoleTool:
		kind = 3
	default:
		return messageAt{}, false
	}
	if m.IsError {
		kind |= 4
	}
	return messageAt{content: unsafe.StringData(m.Content), nContent: uintptr(len(m.Content)),
		callID: unsafe.StringData(m.ToolCallID), nCallID: uintptr(len(m.ToolCallID)),
		calls: unsafe.SliceData(m.ToolCalls), nCalls: uintptr(len(m.ToolCalls)), kind: kind}, true
}

// sameCalls reports whether calls are what was encoded (kept) in the
// parts message() reads: comparing memory that did not move is cheap.
func sameCalls(kept, calls []provider.ToolCall) bool {
	if len(kept) != len(calls) {
		return false
	}
	for i := range calls {
		if kept[i].ID != calls[i].ID || kept[i].Name != calls[i].Name || string(kept[i].Arguments) != string(calls[i].Arguments) {
			return false
		}
	}
	return true
}

// cloneCalls copies the parts of calls that message() reads.
func cloneCalls(calls []provider.ToolCall) []provider.ToolCall {
	if len(calls) == 0 {
		return nil
	}
	out := make([]provider.ToolCall, len(calls))
	for i, c := range calls {
		out[i] = provider.ToolCall{ID: c.ID, Name: c.Name, Arguments: bytes.Clone(c.Arguments)}
	}
	return out
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

// begin starts a request; end ends it. The caller holds mu.
func (c *encodedMessages) begin() {
	if c.m == nil {
		c.m, c.at = map[messageKey]*encodedMessage{}, map[messageAt]*encodedMessage{}
	}
	c.gen++
}

// end ends a request: over the budget, what it did not use goes.
func (c *encodedMessages) end() {
	if c.bytes <= encodedBudget {
		return
	}
	for k, e := range c.m {
		if e.gen != c.gen {
			c.bytes -= len(e.b)
			delete(c.m, k)
			if e.hasAt {
				delete(c.at, e.at)
			}
		}
	}
}

// encode returns m's JSON as message() makes it (nil, false for a message
// that is not sent), reusing the encoding of the same message in an
// earlier request. m carries no images.
func (c *encodedMessages) encode(m *provider.Message) ([]byte, bool, error) {
	at, byAt := atOf(m)
	if byAt {
		if e, ok := c.at[at]; ok && sameCalls(e.calls, m.ToolCalls) {
			e.gen = c.gen
			return e.b, e.b != nil, nil
		}
	}
	k := messageKey{role: m.Role, content: m.Content, callID: m.ToolCallID, isError: m.IsError, calls: callsKey(m.ToolCalls)}
	e, ok := c.m[k]
	if !ok {
		b, _, err := encodeMessage(*m)
		if err != nil {
			return nil, false, err
		}
		c.fresh++
		e = &encodedMessage{b: b, calls: cloneCalls(m.ToolCalls)} // b nil when not sent, remembered as such
		c.m[k] = e
		c.bytes += len(b)
	}
	e.gen = c.gen
	if !byAt {
		return e.b, e.b != nil, nil
	}
	// The entry is now found where this message is: an earlier key of
	// it goes, so at holds no more keys (and pins no more strings) than
	// m holds entries. A key of another entry at the same place (its
	// calls changed in place) is taken over.
	if e.hasAt {
		delete(c.at, e.at)
	}
	if old, ok := c.at[at]; ok && old != e {
		old.hasAt = false
	}
	c.at[at], e.at, e.hasAt = e, at, true
	return e.b, e.b != nil, nil
}

// messages are the JSON of history's messages and of the images after
// them, in order, those without images reused from earlier requests.
func (c *encodedMessages) messages(history []provider.Message) ([][]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.begin()
	defer c.end()
	parts := make([][]byte, 0, len(history)+1)
	for i := range history {
		m := &history[i]
		var b []byte
		ok := true
		var err error
		if len(m.Images) > 0 {
			b, ok, err = encodeMessage(*m)
		} else {
			b, ok, err = c.encode(m)
		}
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", i, err)
		}
		if ok {
			parts = append(parts, b)
		}
		if u := appendImages(nil, history, i); len(u) > 0 {
			if b, err = u[0].MarshalJSON(); err != nil {
				return nil, fmt.Errorf("images after message %d: %w", i, err)
			}
			parts = append(parts, b)
		}
	}
	return parts, nil
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
	msgs, err := p.encoded.messages(history)
	if err != nil {
		return nil, 0, err
	}
	parts = append(parts, msgs...)
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
