package providertest

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// The token usage a response reports when its Reply has no Usage part.
const (
	DefaultInputTokens  = 100
	DefaultOutputTokens = 10
)

func defaultUsage() provider.Usage {
	return provider.Usage{InputTokens: DefaultInputTokens, OutputTokens: DefaultOutputTokens}
}

type partKind int

const (
	partText partKind = iota + 1
	partCall
	partStatus
	partHold
	partWait
	partCut
	partUsage
	partFail
	partMaxTokens
	partThinking
	partRedacted
	partLinger
)

// Part is one piece of a scripted model response. Build Parts with Text,
// Thinking, RedactedThinking, ToolCall, Status, Usage, MaxTokens, Hold,
// Wait, Cut, Linger and Fail; a Reply plays them in order.
type Part struct {
	kind   partKind
	pieces []string
	id     string
	idSet  bool
	name   string
	args   string
	status int
	body   string
	header http.Header
	wait   <-chan struct{}
	usage  provider.Usage
	err    error
}

// Text is assistant text, streamed as one delta per piece: Text("Hel",
// "lo") arrives as two pieces. Over the Anthropic format each Text part is
// one text content block.
func Text(pieces ...string) Part { return Part{kind: partText, pieces: pieces} }

// Thinking is reasoning, streamed one delta per piece in the format's own
// way: Ollama's message.thinking, an OpenAI-compatible server's
// reasoning_content (or reasoning, see WithReasoningField), Anthropic's
// thinking block with its signature. A server asked not to think (Ollama
// think:false, Anthropic without thinking) leaves it out, as the real
// ones do.
func Thinking(pieces ...string) Part { return Part{kind: partThinking, pieces: pieces} }

// RedactedThinking is an Anthropic redacted_thinking block with data; the
// other formats leave it out.
func RedactedThinking(data string) Part { return Part{kind: partRedacted, body: data} }

// Linger sends the end of the answer (finish_reason, message_delta with
// stop_reason, Ollama's done line) and then holds the connection open
// without the stream's end ([DONE], message_stop, closing): a server that
// never lets go. Waiting() receives when it starts. Nothing may follow it.
func Linger() Part { return Part{kind: partLinger} }

// ToolCall is one call of tool name with args (the JSON the model writes,
// kept as is even when it is not valid JSON; "" means no arguments). Over
// the wire the arguments arrive split across two deltas, as real servers
// split them. Its ID is generated ("call_1", "toolu_1", numbered in script
// order per fake) unless WithID sets one.
func ToolCall(name, args string) Part { return Part{kind: partCall, name: name, args: args} }

// WithID sets a ToolCall's ID ("" is a valid choice: some servers send
// none). It has no effect on other parts.
func (p Part) WithID(id string) Part {
	p.id, p.idSet = id, true
	return p
}

// Status makes the response an HTTP error with that status and body. An
// empty body becomes an error body of the fake's format that fits the
// status (401 authentication_error, 404 model not found, 429 rate limit,
// 529 overloaded, …). Only Wait parts may come before it, nothing after.
func Status(code int, body string) Part { return Part{kind: partStatus, status: code, body: body} }

// WithHeader adds a response header to a Status part (Retry-After,
// retry-after-ms). It has no effect on other parts.
func (p Part) WithHeader(key, value string) Part {
	h := p.header.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Add(key, value)
	p.header = h
	return p
}

// Usage sets the response's token usage (default DefaultInputTokens and
// DefaultOutputTokens).
func Usage(input, output int) Part {
	return Part{kind: partUsage, usage: provider.Usage{InputTokens: input, OutputTokens: output}}
}

// MaxTokens makes the response end as cut off by the token limit
// (finish_reason "length", stop_reason "max_tokens") instead of finished.
func MaxTokens() Part { return Part{kind: partMaxTokens} }

// Hold stops the response where it stands, after whatever came before it
// was sent, until the client goes away or the fake closes. Waiting()
// receives when it starts. Nothing may follow it.
func Hold() Part { return Part{kind: partHold} }

// Wait pauses the response, after whatever came before it was sent, until
// ch receives or is closed (or the client goes away). Waiting() receives
// when it starts. It drives slow streaming step by step from the test.
func Wait(ch <-chan struct{}) Part { return Part{kind: partWait, wait: ch} }

// Cut ends the response where it stands, without the end of the stream: the
// client sees a stream that broke off (ErrBadStream). A Cut with nothing
// before it sends a 200 response with an empty stream. Nothing may follow
// it.
func Cut() Part { return Part{kind: partCut} }

// Fail makes the in-memory Provider return err (as is) after the parts
// before it. It is for Provider only: over HTTP use Status or Cut. Nothing
// may follow it.
func Fail(err error) Part { return Part{kind: partFail, err: err} }

// errScript is wrapped by every complaint about a Reply's parts.
var errScript = errors.New("providertest: invalid Reply")

// reply is one scripted response, checked.
type reply struct {
	parts  []Part
	usage  provider.Usage
	status *Part
	max    bool
	linger bool
}

// newReply checks parts and numbers the calls that have no ID; next
// returns the next generated ID.
func newReply(parts []Part, overHTTP bool, next func() string) (reply, error) {
	r := reply{usage: defaultUsage()}
	ended := ""
	for i, p := range parts {
		if ended != "" {
			return r, fmt.Errorf("%w: part %d comes after %s, which ends the response", errScript, i+1, ended)
		}
		switch p.kind {
		case partText, partCall, partThinking, partRedacted:
			if r.status != nil {
				return r, fmt.Errorf("%w: a Status reply carries no text or calls", errScript)
			}
			if p.kind == partCall && !p.idSet {
				p.id = next()
			}
		case partStatus:
			for _, q := range parts[:i] {
				if q.kind != partWait && q.kind != partUsage {
					return r, fmt.Errorf("%w: only Wait may come before Status (an HTTP error has no streamed content; use Cut for an answer that breaks off)", errScript)
				}
			}
			if p.status < 400 || p.status > 599 {
				return r, fmt.Errorf("%w: Status(%d) is not an error status", errScript, p.status)
			}
			st := p
			r.status = &st
			ended = "Status"
		case partHold:
			ended = "Hold"
		case partCut:
			ended = "Cut"
		case partFail:
			if overHTTP {
				return r, fmt.Errorf("%w: Fail is for the in-memory Provider; over HTTP use Status or Cut", errScript)
			}
			ended = "Fail"
		case partWait:
			if p.wait == nil {
				return r, fmt.Errorf("%w: Wait needs a channel", errScript)
			}
		case partUsage:
			r.usage = p.usage
		case partMaxTokens:
			r.max = true
		case partLinger:
			if !overHTTP {
				return r, fmt.Errorf("%w: Linger is for the fakes over HTTP", errScript)
			}
			r.linger = true
			ended = "Linger"
		default:
			return r, fmt.Errorf("%w: part %d is a zero Part; build parts with Text, ToolCall, …", errScript, i+1)
		}
		r.parts = append(r.parts, p)
	}
	return r, nil
}

// signal sends on ch without blocking: a test that does not listen for
// Waiting must not stall the fake.
func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// waitingBuffer is how many unread Waiting signals are kept.
const waitingBuffer = 64
