package ollama

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/types/model"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// num_ctx sizing.
const (
	// minNumCtx is the smallest num_ctx sent (a model's maximum aside):
	// a short conversation grows into it without reloading the model.
	minNumCtx = 8192
	// answerRoom is the most room left for the answer when the request
	// sets no MaxTokens: a quarter of the context up to this, as the
	// agent's fitting reserves it.
	answerRoom = 8192
	// perMessageTokens is the template's framing per message.
	perMessageTokens = 8
)

// chatRequest maps a provider.Request onto /api/chat for model with facts;
// toolsDropped reports tools left out because the model cannot call them.
func (p *Provider) chatRequest(req provider.Request, name string, f *modelFacts) (*api.ChatRequest, bool, error) {
	stream, truncate, shift := true, false, false
	out := &api.ChatRequest{
		Model:  name,
		Stream: &stream,
		// A prompt longer than num_ctx is refused, never cut from the
		// start; a long answer stops for length instead of dropping the
		// prompt's start to make room.
		Truncate: &truncate,
		Shift:    &shift,
		Options:  map[string]any{},
	}
	if p.keepAlive > 0 {
		out.KeepAlive = &api.Duration{Duration: p.keepAlive}
	}
	if req.System != "" {
		out.Messages = append(out.Messages, api.Message{Role: "system", Content: req.System})
	}
	history := req.Messages
	if !p.images.Accepts(f.can(model.CapabilityVision)) {
		history = provider.DescribeImages(history)
	}
	turn := 0
	for i := len(history) - 1; i >= 0; i-- {
		if history[i].Role == provider.RoleUser {
			turn = i
			break
		}
	}
	for i, m := range history {
		msg, ok, err := message(m, i > turn)
		if err != nil {
			return nil, false, fmt.Errorf("message %d: %w", i, err)
		}
		if ok {
			out.Messages = append(out.Messages, msg)
		}
	}
	dropped := false
	if len(req.Tools) > 0 {
		if f.can(model.CapabilityTools) {
			for _, t := range req.Tools {
				tool, err := toolOf(t)
				if err != nil {
					// Offered without its parameters rather than failing
					// the turn: the model still learns the tool exists.
					p.log.Warn("tool schema not sent", "tool", t.Name, "error", err)
				}
				out.Tools = append(out.Tools, tool)
			}
		} else {
			dropped = true
		}
	}
	if think := p.think(name, f); think != nil {
		out.Think = think
	}
	if req.MaxTokens > 0 {
		out.Options["num_predict"] = req.MaxTokens
	}
	tokens := req.EstimatedTokens
	if tokens <= 0 || len(out.Tools) == 0 && len(req.Tools) > 0 {
		tokens = p.estimate(out)
	} else {
		// The agent does not count reasoning sent back, nor images as
		// Ollama does.
		tokens += p.extra(out)
	}
	out.Options["num_ctx"] = p.numCtx(name, f, tokens, req.MaxTokens)
	return out, dropped, nil
}

// think is the think value for model, nil to leave it out: only a model
// that thinks gets one (Ollama refuses think for others). Auto asks for
// thinking so that it arrives apart from the answer; gpt-oss takes levels
// and cannot stop thinking, so off is its lowest level.
func (p *Provider) think(name string, f *modelFacts) *api.ThinkValue {
	if !f.can(model.CapabilityThinking) {
		return nil
	}
	mode := p.thinkingFor(name)
	levels := strings.HasPrefix(f.family, "gptoss") || strings.HasPrefix(strings.ToLower(name), "gpt-oss")
	switch {
	case levels && mode == provider.ThinkOff:
		return &api.ThinkValue{Value: "low"}
	case levels && mode.Effort() != "":
		return &api.ThinkValue{Value: mode.Effort()}
	case levels:
		return nil
	case mode == provider.ThinkOff:
		return &api.ThinkValue{Value: false}
	}
	return &api.ThinkValue{Value: true}
}

// estimate counts the tokens of what the request sends: messages (with
// images as Ollama counts them) and tool schemas.
func (p *Provider) estimate(r *api.ChatRequest) int {
	n := 0
	for _, m := range r.Messages {
		n += perMessageTokens + p.count(m.Content) + p.count(m.Thinking) + len(m.Images)*imageTokens
		for _, tc := range m.ToolCalls {
			n += p.count(tc.Function.Name) + p.count(tc.Function.Arguments.String())
		}
	}
	if len(r.Tools) > 0 {
		if b, err := json.Marshal(r.Tools); err == nil {
			n += p.count(string(b))
		}
	}
	return n
}

// extra counts what the agent's estimate leaves out: reasoning sent back
// and images at Ollama's rate.
func (p *Provider) extra(r *api.ChatRequest) int {
	n := 0
	for _, m := range r.Messages {
		n += len(m.Images) * imageTokens
		if m.Thinking != "" {
			n += p.count(m.Thinking)
		}
	}
	return n
}

// imageTokens is what Ollama counts per image in a prompt.
const imageTokens = 768

// numCtx sizes the context of one request: its tokens plus room for the
// answer, rounded up to a doubling step so that a growing conversation
// reloads the model rarely, capped by the model's maximum and the
// configured window, and never below what this provider last loaded the
// model with (a smaller num_ctx would reload it too).
func (p *Provider) numCtx(name string, f *modelFacts, tokens, maxTokens int) int {
	// The answer's room in a context of n, as the agent reserves it.
	room := func(n int) int { return min(n/4, answerRoom) }
	if maxTokens > 0 {
		room = func(int) int { return maxTokens }
	}
	ceiling := f.maxCtx
	if p.window > 0 && (ceiling == 0 || p.window < ceiling) {
		ceiling = p.window
	}
	n := minNumCtx
	for n < tokens+room(n) {
		n *= 2
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	n = max(n, p.loaded[name])
	if ceiling > 0 {
		n = min(n, ceiling)
	}
	p.loaded[name] = n
	return n
}

// message maps one history entry; current says it belongs to the turn in
// progress (its reasoning goes back with it, as thinking models expect
// within a tool-use turn). ok is false for an entry that carries nothing.
func message(m provider.Message, current bool) (api.Message, bool, error) {
	switch m.Role {
	case provider.RoleUser:
		out := api.Message{Role: "user", Content: m.Content}
		for _, img := range m.Images {
			if len(img.Data) > 0 {
				out.Images = append(out.Images, api.ImageData(img.Data))
			}
		}
		return out, true, nil
	case provider.RoleAssistant:
		if m.Content == "" && len(m.ToolCalls) == 0 {
			return api.Message{}, false, nil
		}
		out := api.Message{Role: "assistant", Content: m.Content}
		if current {
			var th []string
			for _, t := range m.Thinking {
				if t.Text != "" {
					th = append(th, t.Text)
				}
			}
			out.Thinking = strings.Join(th, "\n\n")
		}
		for i, tc := range m.ToolCalls {
			out.ToolCalls = append(out.ToolCalls, api.ToolCall{ID: tc.ID,
				Function: api.ToolCallFunction{Index: i, Name: tc.Name, Arguments: arguments(tc.Arguments)}})
		}
		return out, true, nil
	case provider.RoleTool:
		content := m.Content
		if m.IsError && !strings.HasPrefix(strings.ToLower(content), "error") {
			content = "Error: " + content
		}
		out := api.Message{Role: "tool", Content: content, ToolName: m.ToolName, ToolCallID: m.ToolCallID}
		for _, img := range m.Images {
			if len(img.Data) > 0 {
				out.Images = append(out.Images, api.ImageData(img.Data))
			}
		}
		return out, true, nil
	}
	return api.Message{}, false, fmt.Errorf("unknown role %q", m.Role)
}

// arguments is a past call's arguments as the API takes them: a JSON
// object. The model may have written invalid JSON (the tool result told
// it so); that becomes {}.
func arguments(raw json.RawMessage) api.ToolCallFunctionArguments {
	raw = bytes.TrimSpace(raw)
	var args api.ToolCallFunctionArguments
	if len(raw) == 0 || raw[0] != '{' || args.UnmarshalJSON(raw) != nil {
		return api.NewToolCallFunctionArguments()
	}
	return args
}

// toolOf maps a tool schema. Ollama reads it into the same types, so what
// they cannot hold the server would not see either.
func toolOf(t provider.Tool) (api.Tool, error) {
	tool := api.Tool{Type: "function", Function: api.ToolFunction{Name: t.Name, Description: t.Description}}
	raw := bytes.TrimSpace(t.Parameters)
	if len(raw) == 0 {
		tool.Function.Parameters = api.ToolFunctionParameters{Type: "object", Properties: api.NewToolPropertiesMap()}
		return tool, nil
	}
	if err := json.Unmarshal(raw, &tool.Function.Parameters); err != nil {
		tool.Function.Parameters = api.ToolFunctionParameters{Type: "object", Properties: api.NewToolPropertiesMap()}
		return tool, fmt.Errorf("tool %q: parameters are not a JSON Schema object Ollama reads: %w", t.Name, err)
	}
	if tool.Function.Parameters.Type == "" {
		tool.Function.Parameters.Type = "object"
	}
	if tool.Function.Parameters.Properties == nil {
		tool.Function.Parameters.Properties = api.NewToolPropertiesMap()
	}
	return tool, nil
}
