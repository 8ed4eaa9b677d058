package assistant

import (
	"context"
	"fmt"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/plugins/mcp"
)

// maxSampleTokens bounds an answer to a server, whatever it asks for.
const maxSampleTokens = 4096

// mcpSampler is the MCP loader's Sampler when the asker can put requests
// for a completion to the person, else nil: then Wrasse does not
// advertise sampling at all.
func (a *App) mcpSampler(asker mcp.Asker) mcp.Sampler {
	ap, ok := asker.(mcp.SamplingApprover)
	if !ok {
		return nil
	}
	return sampler{a: a, approve: ap}
}

// sampler answers a server's request for a completion with the model of
// the conversation whose call it asks during (the configured model
// outside a conversation), only after the person approved the prompt.
type sampler struct {
	a       *App
	approve mcp.SamplingApprover
}

func (s sampler) Sample(ctx context.Context, req mcp.SampleRequest) (mcp.SampleResult, error) {
	ok, err := s.approve.ApproveSampling(ctx, req)
	if err != nil {
		return mcp.SampleResult{}, fmt.Errorf("%w: %w", mcp.ErrSamplingDeclined, err)
	}
	if !ok {
		return mcp.SampleResult{}, fmt.Errorf("%w by the person", mcp.ErrSamplingDeclined)
	}
	st := s.a.model.Load()
	if st.provider == nil {
		return mcp.SampleResult{}, fmt.Errorf("no model to answer with: %w", st.setupErr)
	}
	model := st.cfg.Model // unknown conversation: the configured model
	if id, err := store.ParseID(req.Conversation); req.Conversation != "" && err == nil {
		model, _ = s.a.ConversationModel(id)
	}
	msgs := make([]provider.Message, 0, len(req.Messages))
	for _, m := range req.Messages {
		role := provider.RoleUser
		if m.Role == "assistant" {
			role = provider.RoleAssistant
		}
		msgs = append(msgs, provider.Message{Role: role, Content: m.Text})
	}
	limit := maxSampleTokens
	if req.MaxTokens > 0 && req.MaxTokens < maxSampleTokens {
		limit = int(req.MaxTokens)
	}
	resp, err := st.provider.Stream(ctx, provider.Request{Model: model, System: req.SystemPrompt, Messages: msgs, MaxTokens: limit},
		func(provider.Event) error { return nil })
	if err != nil {
		return mcp.SampleResult{}, fmt.Errorf("the model %s did not answer: %w", model, err)
	}
	stop := resp.StopReason
	switch stop {
	case provider.StopEnd:
		stop = "endTurn"
	case provider.StopMaxTokens:
		stop = "maxTokens"
	}
	return mcp.SampleResult{Text: resp.Text, Model: model, StopReason: stop}, nil
}
