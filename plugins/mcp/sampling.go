package mcp

//lint:file-ignore SA1019 MCP sampling is deprecated from protocol 2026-07-28 on and still what servers of earlier versions use

import (
	"context"
	"fmt"
	"log/slog"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Sampler answers a server's request for a completion
// (sampling/createMessage): it shows the request to the person and only
// once they approve asks the conversation's model. The window asks on a
// card in the chat, the CLI on the terminal.
type Sampler interface {
	// Sample returns the model's answer, or an error wrapping
	// ErrSamplingDeclined when the person said no or could not be asked.
	Sample(ctx context.Context, req SampleRequest) (SampleResult, error)
}

// SampleRequest is a server's request for a completion, text only.
type SampleRequest struct {
	// Server is the capability's name; Conversation and Tool the
	// conversation and tool call it asks during, when known (as for a
	// Question).
	Server, Conversation, Tool string
	SystemPrompt               string
	Messages                   []SampleMessage
	// MaxTokens bounds the answer (the server's own limit).
	MaxTokens int64
}

// SampleMessage is one message of the prompt: Role is user or assistant.
type SampleMessage struct {
	Role, Text string
}

// SampleResult is the model's answer.
type SampleResult struct {
	Text string
	// Model names the model that answered; StopReason why it stopped
	// (endTurn, maxTokens), when known.
	Model, StopReason string
}

// sampleRequestOf reads a sampling/createMessage request. Content other
// than text is refused: Wrasse shows the person the whole prompt before
// it goes to the model, and an image or a sound is not shown.
func sampleRequestOf(server string, p *sdk.CreateMessageParams) (SampleRequest, error) {
	req := SampleRequest{Server: server, SystemPrompt: p.SystemPrompt, MaxTokens: p.MaxTokens}
	for i, m := range p.Messages {
		if m == nil {
			continue
		}
		t, ok := m.Content.(*sdk.TextContent)
		if !ok {
			return req, fmt.Errorf("%w: message %d is %T, and Wrasse answers text only", ErrBadSampling, i+1, m.Content)
		}
		req.Messages = append(req.Messages, SampleMessage{Role: string(m.Role), Text: t.Text})
	}
	if len(req.Messages) == 0 {
		return req, fmt.Errorf("%w: it has no messages", ErrBadSampling)
	}
	return req, nil
}

// sampleHandler answers sampling/createMessage through the Sampler. A
// declined request is an error to the server, as the spec asks.
func (s *server) sampleHandler(ctx context.Context, r *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
	req, err := sampleRequestOf(s.cfg.name, r.Params)
	if err != nil {
		s.log.Warn("an MCP server asked for a completion Wrasse cannot answer", "error", err)
		return nil, err
	}
	req.Conversation, req.Tool = s.calls.asker()
	res, err := s.l.opts.Sampler.Sample(ctx, req)
	if err != nil {
		s.log.Info("an MCP server's request for a completion was not answered", "error", slog.StringValue(err.Error()))
		return nil, fmt.Errorf("MCP server %s's request for a completion: %w", s.cfg.name, err)
	}
	return &sdk.CreateMessageResult{Content: &sdk.TextContent{Text: res.Text}, Model: res.Model, Role: "assistant", StopReason: res.StopReason}, nil
}

// SamplingApprover is an Asker that can also put a server's request for a
// completion to the person: the whole prompt, before it goes to the
// model. An Asker without it has every request declined.
type SamplingApprover interface {
	// ApproveSampling shows req and reports whether the person let it
	// go to the model; an error (ctx ended, no one to ask) declines.
	ApproveSampling(ctx context.Context, req SampleRequest) (bool, error)
}
