package providertest

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// listExtras is what a server of kind adds to a model's entry in
// /v1/models.
func listExtras(kind ServerKind, mi provider.ModelInfo) map[string]any {
	out := map[string]any{}
	switch kind {
	case VLLM:
		if mi.ContextWindow > 0 {
			out["max_model_len"] = mi.ContextWindow
		}
	case OpenRouter:
		if mi.ContextWindow > 0 {
			out["context_length"] = mi.ContextWindow
		}
		params := []string{"max_tokens", "temperature"}
		if mi.Can(provider.AbilityTools) {
			params = append(params, "tools", "tool_choice")
		}
		if mi.Can(provider.AbilityThinking) {
			params = append(params, "reasoning", "include_reasoning")
		}
		in := []string{"text"}
		if mi.Can(provider.AbilityVision) {
			in = append(in, "image")
		}
		out["supported_parameters"] = params
		out["architecture"] = map[string]any{"input_modalities": in, "output_modalities": []string{"text"}}
		out["name"] = mi.DisplayName
	}
	return out
}

// serveServer answers a server kind's own endpoints; false when r is not
// one of them.
func (m *Model) serveServer(w http.ResponseWriter, r *http.Request) bool {
	m.mu.Lock()
	kind, models := m.cfg.kind, slices.Clone(m.cfg.models)
	m.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch {
	case kind == LlamaCpp && r.URL.Path == "/props":
		n := 4096
		if len(models) > 0 && models[0].ContextWindow > 0 {
			n = models[0].ContextWindow
		}
		_, _ = io.WriteString(w, js(map[string]any{"default_generation_settings": map[string]any{"n_ctx": n, "n_predict": -1},
			"total_slots": 1, "model_path": "/models/" + models[0].ID + ".gguf"}))
		return true
	case kind == LMStudio && r.URL.Path == "/api/v0/models":
		data := make([]any, 0, len(models))
		for _, mi := range models {
			data = append(data, lmStudioModel(mi))
		}
		_, _ = io.WriteString(w, js(map[string]any{"object": "list", "data": data}))
		return true
	case kind == LMStudio && strings.HasPrefix(r.URL.Path, "/api/v0/models/"):
		id := strings.TrimPrefix(r.URL.Path, "/api/v0/models/")
		for _, mi := range models {
			if mi.ID == id {
				_, _ = io.WriteString(w, js(lmStudioModel(mi)))
				return true
			}
		}
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, js(map[string]any{"error": fmt.Sprintf("Model %q not found", id)}))
		return true
	}
	return false
}

// lmStudioModel is LM Studio's description of a model. A model with
// Details "loaded" reports a loaded_context_length of its ContextWindow
// halved (LM Studio loads models with less than their maximum).
func lmStudioModel(mi provider.ModelInfo) map[string]any {
	typ := "llm"
	switch {
	case mi.Can(provider.AbilityEmbedding):
		typ = "embeddings"
	case mi.Can(provider.AbilityVision):
		typ = "vlm"
	}
	caps := []string{}
	if mi.Can(provider.AbilityTools) {
		caps = append(caps, "tool_use")
	}
	out := map[string]any{"id": mi.ID, "object": "model", "type": typ, "publisher": "providertest", "arch": "llama",
		"compatibility_type": "gguf", "quantization": "Q4_K_M", "state": "not-loaded",
		"max_context_length": mi.ContextWindow, "capabilities": caps}
	if mi.Details == "loaded" {
		out["state"] = "loaded"
		out["loaded_context_length"] = mi.ContextWindow / 2
	}
	return out
}

// checkThinking is the Anthropic API's check of thinking blocks sent
// back: each must carry the signature it was given, and with thinking on,
// the assistant message whose tool calls the last message answers must
// begin with one. It returns the API's complaint, "" when all is well.
func checkThinking(r Request) string {
	for i, msg := range r.Messages {
		for _, th := range msg.Thinking {
			if th.Redacted == "" && th.Signature != Signature(th.Text) {
				return fmt.Sprintf("messages.%d.content: Invalid `signature` in `thinking` block", i)
			}
		}
	}
	if r.ThinkingBudget == 0 || len(r.Messages) == 0 || r.LastMessage().Role != "tool" {
		return ""
	}
	for i := len(r.Messages) - 1; i >= 0; i-- {
		msg := r.Messages[i]
		if msg.Role != "assistant" {
			continue
		}
		if len(msg.ToolCalls) > 0 && len(msg.Thinking) == 0 {
			return "messages: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, " +
				"a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks)."
		}
		return ""
	}
	return ""
}

// serveAnthropicModel answers GET /v1/models/{id} as the Messages API
// does, with max_input_tokens from the model's ContextWindow.
func (m *Model) serveAnthropicModel(w http.ResponseWriter, r *http.Request, id string) {
	m.mu.Lock()
	models, key := slices.Clone(m.cfg.models), m.cfg.apiKey
	m.mu.Unlock()
	if !m.authorised(r, key) {
		m.writeError(w, http.StatusUnauthorized, "", nil, "")
		return
	}
	for _, mi := range models {
		if mi.ID != id {
			continue
		}
		name := mi.DisplayName
		if name == "" {
			name = mi.ID
		}
		out := map[string]any{"type": "model", "id": mi.ID, "display_name": name, "created_at": "2025-01-01T00:00:00Z"}
		if mi.ContextWindow > 0 {
			out["max_input_tokens"] = mi.ContextWindow
			out["max_tokens"] = 64000
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, js(out))
		return
	}
	m.writeError(w, http.StatusNotFound, "", nil, fmt.Sprintf("model: %s", id))
}
