package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// params maps a provider.Request onto Chat Completions parameters, all
// but the messages: body adds them (encode.go).
func (p *Provider) params(req provider.Request, model string) (sdk.ChatCompletionNewParams, error) {
	out := sdk.ChatCompletionNewParams{
		Model: shared.ChatModel(model),
		// Without this the usage chunk never comes.
		StreamOptions: sdk.ChatCompletionStreamOptionsParam{IncludeUsage: param.NewOpt(true)},
	}
	if effort := p.thinkingFor(model).Effort(); effort != "" {
		out.ReasoningEffort = shared.ReasoningEffort(effort)
	}
	if req.MaxTokens > 0 {
		if p.legacy {
			out.MaxTokens = param.NewOpt(int64(req.MaxTokens))
		} else {
			out.MaxCompletionTokens = param.NewOpt(int64(req.MaxTokens))
		}
	}
	for _, t := range req.Tools {
		schema, err := schemaOf(t)
		if err != nil {
			return out, err
		}
		fn := shared.FunctionDefinitionParam{Name: t.Name, Parameters: schema}
		if t.Description != "" {
			fn.Description = param.NewOpt(t.Description)
		}
		out.Tools = append(out.Tools, sdk.ChatCompletionFunctionTool(fn))
	}
	return out, nil
}

// message maps one history entry; ok is false for an entry that carries
// nothing (an empty assistant turn), which servers reject.
func message(m provider.Message) (sdk.ChatCompletionMessageParamUnion, bool, error) {
	switch m.Role {
	case provider.RoleUser:
		if len(m.Images) > 0 {
			return sdk.UserMessage(userParts(m)), true, nil
		}
		return sdk.UserMessage(m.Content), true, nil
	case provider.RoleAssistant:
		if m.Content == "" && len(m.ToolCalls) == 0 {
			return sdk.ChatCompletionMessageParamUnion{}, false, nil
		}
		a := sdk.ChatCompletionAssistantMessageParam{}
		if m.Content != "" {
			a.Content.OfString = param.NewOpt(m.Content)
		}
		for _, tc := range m.ToolCalls {
			a.ToolCalls = append(a.ToolCalls, sdk.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{
					ID: tc.ID,
					Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{
						Name: tc.Name,
						// Sent back as the model wrote it, even if invalid:
						// it is a string on this API.
						Arguments: string(argumentsOrEmpty(tc.Arguments)),
					},
				},
			})
		}
		return sdk.ChatCompletionMessageParamUnion{OfAssistant: &a}, true, nil
	case provider.RoleTool:
		content := m.Content
		if m.IsError && !strings.HasPrefix(strings.ToLower(content), "error") {
			// Chat Completions has no error flag on tool results.
			content = "Error: " + content
		}
		return sdk.ToolMessage(content, m.ToolCallID), true, nil
	default:
		return sdk.ChatCompletionMessageParamUnion{}, false, fmt.Errorf("unknown role %q", m.Role)
	}
}

func argumentsOrEmpty(a json.RawMessage) []byte {
	if len(bytes.TrimSpace(a)) == 0 {
		return []byte("{}")
	}
	return a
}

// schemaOf splits a tool's JSON Schema into its top-level members, each
// kept as raw bytes: the SDK encodes json.RawMessage verbatim (json.Number,
// by contrast, would become a string), so nested schema reaches the server
// unchanged and the request bytes stay stable for prompt caching.
func schemaOf(t provider.Tool) (shared.FunctionParameters, error) {
	if len(bytes.TrimSpace(t.Parameters)) == 0 {
		return shared.FunctionParameters{"type": "object", "properties": map[string]any{}}, nil
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(t.Parameters, &members); err != nil || members == nil {
		return nil, fmt.Errorf("tool %q: parameters are not a JSON Schema object", t.Name)
	}
	schema := make(shared.FunctionParameters, len(members))
	for k, v := range members {
		schema[k] = v
	}
	return schema, nil
}
