package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/packages/param"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// params maps a provider.Request onto Messages parameters, the deferred
// way or the plain way (see cache.go).
func (p *Provider) params(req provider.Request, model string, deferred bool) (sdk.MessageNewParams, error) {
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = p.maxTokens
	}
	out := sdk.MessageNewParams{
		Model:     sdk.Model(model),
		MaxTokens: int64(maxTokens),
	}
	budget := p.thinkingBudget(model)
	if budget > 0 {
		// Thinking counts toward max_tokens: the answer keeps its own.
		out.Thinking = sdk.ThinkingConfigParamOfEnabled(int64(budget))
		out.MaxTokens += int64(budget)
	}
	if req.System != "" {
		block := sdk.TextBlockParam{Text: req.System}
		if !p.noCache {
			block.CacheControl = sdk.NewCacheControlEphemeralParam()
		}
		out.System = []sdk.TextBlockParam{block}
	}
	msgs, err := messages(p.withImages(req.Messages, model), budget > 0)
	if err != nil {
		return out, err
	}
	out.Messages = msgs
	tools, declared, err := p.toolParams(req, deferred)
	if err != nil {
		return out, err
	}
	out.Tools = tools
	addToolRefs(out.Messages, req.Messages, declared)
	p.markNewest(out.Messages)
	return out, nil
}

// messages maps the history. Consecutive entries with the same API role are
// merged into one message: the API wants all results of one assistant turn's
// tool calls in a single user message, and merging also keeps roles
// alternating when an empty turn was dropped. With thinking on, the
// assistant messages of the current turn (after the last user message)
// begin with their thinking blocks, signatures unchanged, as the API
// requires within a tool-use turn; earlier ones it ignores, so they are
// not sent.
func messages(in []provider.Message, thinking bool) ([]sdk.MessageParam, error) {
	turn := 0
	for i := len(in) - 1; i >= 0; i-- {
		if in[i].Role == provider.RoleUser {
			turn = i
			break
		}
	}
	var out []sdk.MessageParam
	add := func(role sdk.MessageParamRole, blocks ...sdk.ContentBlockParamUnion) {
		if len(blocks) == 0 {
			return
		}
		n := len(out)
		if n == 0 || out[n-1].Role != role {
			out = append(out, sdk.MessageParam{Role: role, Content: blocks})
			return
		}
		for _, b := range blocks {
			out[n-1].Content = insertBlock(out[n-1].Content, b)
		}
	}
	for i, m := range in {
		switch m.Role {
		case provider.RoleUser:
			if m.Content != "" {
				add(sdk.MessageParamRoleUser, sdk.NewTextBlock(m.Content))
			}
			add(sdk.MessageParamRoleUser, userImages(m)...)
		case provider.RoleAssistant:
			var blocks []sdk.ContentBlockParamUnion
			if thinking && i > turn {
				blocks = thinkingBlocks(m.Thinking)
			}
			if m.Content != "" {
				blocks = append(blocks, sdk.NewTextBlock(m.Content))
			}
			for _, tc := range m.ToolCalls {
				blocks = append(blocks, sdk.NewToolUseBlock(tc.ID, toolInput(tc.Arguments), tc.Name))
			}
			add(sdk.MessageParamRoleAssistant, blocks...)
		case provider.RoleTool:
			r := sdk.ToolResultBlockParam{ToolUseID: m.ToolCallID, Content: toolResultContent(m)}
			if m.IsError {
				r.IsError = param.NewOpt(true)
			}
			add(sdk.MessageParamRoleUser, sdk.ContentBlockParamUnion{OfToolResult: &r})
		default:
			return nil, fmt.Errorf("message %d: unknown role %q", i, m.Role)
		}
	}
	return out, nil
}

// insertBlock appends b, except that a tool_result goes after the leading
// tool_results and before any text: the API wants the results first in
// their message, and a user line typed while tools ran must not break that.
func insertBlock(content []sdk.ContentBlockParamUnion, b sdk.ContentBlockParamUnion) []sdk.ContentBlockParamUnion {
	if b.OfToolResult == nil {
		return append(content, b)
	}
	i := 0
	for i < len(content) && content[i].OfToolResult != nil {
		i++
	}
	return slices.Insert(content, i, b)
}

// toolInput is a past call's input as the API needs it: a JSON object. The
// model may have written invalid JSON (the tool result told it so); echoing
// that would make the API reject the whole request, so it becomes {}.
func toolInput(a json.RawMessage) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal(a, &obj) != nil || obj == nil {
		return json.RawMessage("{}")
	}
	return a
}

// schemaOf passes a tool's JSON Schema through byte for byte, so the tool
// list, which precedes the cached system prompt, stays byte-stable.
func schemaOf(t provider.Tool) (sdk.ToolInputSchemaParam, error) {
	raw := bytes.TrimSpace(t.Parameters)
	if len(raw) == 0 {
		return sdk.ToolInputSchemaParam{Properties: map[string]any{}}, nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil || obj == nil {
		return sdk.ToolInputSchemaParam{}, fmt.Errorf("tool %q: parameters are not a JSON Schema object", t.Name)
	}
	return param.Override[sdk.ToolInputSchemaParam](json.RawMessage(raw)), nil
}

// thinkingBlocks are the signed and redacted blocks of th as the API
// takes them back; unsigned reasoning (from another provider) cannot go.
func thinkingBlocks(th []provider.ThinkingBlock) []sdk.ContentBlockParamUnion {
	var out []sdk.ContentBlockParamUnion
	for _, t := range th {
		switch {
		case t.Redacted != "":
			out = append(out, sdk.NewRedactedThinkingBlock(t.Redacted))
		case t.Signature != "":
			out = append(out, sdk.NewThinkingBlock(t.Signature, t.Text))
		}
	}
	return out
}
