package providertest_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/anthropic"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

func anthropicBody(tools []string, system string, msgs ...string) []byte {
	var ts []any
	for i, name := range tools {
		t := map[string]any{"name": name, "input_schema": map[string]any{"type": "object"}}
		if i == len(tools)-1 {
			t["cache_control"] = map[string]any{"type": "ephemeral"}
		}
		ts = append(ts, t)
	}
	var ms []any
	for i, m := range msgs {
		block := map[string]any{"type": "text", "text": m}
		if i == len(msgs)-1 {
			block["cache_control"] = map[string]any{"type": "ephemeral"}
		}
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		ms = append(ms, map[string]any{"role": role, "content": []any{block}})
	}
	b, _ := json.Marshal(map[string]any{"tools": ts, "messages": ms,
		"system": []any{map[string]any{"type": "text", "text": system, "cache_control": map[string]any{"type": "ephemeral"}}}})
	return b
}

func openAIBody(tools []string, system string, msgs ...string) []byte {
	var ts []any
	for _, name := range tools {
		ts = append(ts, map[string]any{"type": "function", "function": map[string]any{"name": name}})
	}
	ms := []any{map[string]any{"role": "system", "content": system}}
	for _, m := range msgs {
		ms = append(ms, map[string]any{"role": "user", "content": m})
	}
	b, _ := json.Marshal(map[string]any{"tools": ts, "messages": ms})
	return b
}

// The cache serves the longest prefix shared with an earlier request, in
// each provider's order: a changed system prompt costs the messages after
// it, an appended message costs only itself, a changed tool everything.
func TestPromptCache(t *testing.T) {
	long := strings.Repeat("history ", 700) // about 1,400 tokens: past OpenAI's minimum
	type step struct {
		tools  []string
		system string
		msgs   []string
		// cached says which share of the input should come from the cache.
		none, most bool
	}
	steps := []step{
		{tools: []string{"a", "b"}, system: "S1", msgs: []string{long}, none: true},
		{tools: []string{"a", "b"}, system: "S1", msgs: []string{long, "reply", "next"}, most: true},
		{tools: []string{"a", "b"}, system: "S2", msgs: []string{long, "reply", "next"}}, // system changed: messages miss
		{tools: []string{"a", "b", "c"}, system: "S2", msgs: []string{long, "reply", "next"}},
	}
	for _, f := range []providertest.Format{providertest.Anthropic, providertest.OpenAI} {
		t.Run(string(f), func(t *testing.T) {
			c := providertest.NewPromptCache(f)
			for i, s := range steps {
				body := anthropicBody(s.tools, s.system, s.msgs...)
				if f == providertest.OpenAI {
					body = openAIBody(s.tools, s.system, s.msgs...)
				}
				u, err := c.Serve(body)
				if err != nil {
					t.Fatal(err)
				}
				share := float64(u.Read) / float64(u.Input)
				switch {
				case s.none && u.Read != 0:
					t.Errorf("request %d: %d of %d tokens cached, want none", i+1, u.Read, u.Input)
				case s.most && share < 0.9:
					t.Errorf("request %d: %d of %d tokens cached, want most", i+1, u.Read, u.Input)
				case !s.none && !s.most && share > 0.1:
					t.Errorf("request %d: %d of %d tokens cached after a change before the history", i+1, u.Read, u.Input)
				}
				if f == providertest.Anthropic && u.Read+u.Write != u.Input {
					// Every token is before the last breakpoint here.
					t.Errorf("request %d: read %d + written %d != input %d", i+1, u.Read, u.Write, u.Input)
				}
				if f == providertest.OpenAI && (u.Write != 0 || u.Read%128 != 0) {
					t.Errorf("request %d: OpenAI usage %+v (no writes, 128-token steps)", i+1, u)
				}
			}
		})
	}
}

// A deferred tool costs nothing in the prefix until a tool_reference
// brings its definition in.
func TestPromptCacheDeferredTools(t *testing.T) {
	c := providertest.NewPromptCache(providertest.Anthropic)
	big := strings.Repeat("x", 4000)
	body := func(ref bool) []byte {
		content := []any{map[string]any{"type": "text", "text": "ok"}}
		if ref {
			content = append(content, map[string]any{"type": "tool_reference", "tool_name": "big"})
		}
		b, _ := json.Marshal(map[string]any{
			"tools": []any{
				map[string]any{"name": "core", "input_schema": map[string]any{}, "cache_control": map[string]any{"type": "ephemeral"}},
				map[string]any{"name": "big", "description": big, "input_schema": map[string]any{}, "defer_loading": true},
			},
			"messages": []any{map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "t1", "content": content}}}},
		})
		return b
	}
	without, _ := c.Serve(body(false))
	with, _ := c.Serve(body(true))
	if without.Input > 100 {
		t.Errorf("an unreferenced deferred tool counted: %+v", without)
	}
	if with.Input < 1000 {
		t.Errorf("a referenced deferred tool did not count: %+v", with)
	}
	if with.Read == 0 {
		t.Errorf("the tools before the reference were not served: %+v", with)
	}
}

// With WithPromptCache a Model's usage comes from the cache, over the
// wire, as a real server reports it; StartModel runs one outside a test.
func TestModelWithPromptCache(t *testing.T) {
	m, err := providertest.StartModel(providertest.Anthropic, providertest.WithPromptCache())
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	p, err := anthropic.New(anthropic.Config{BaseURL: m.BaseURL(), Model: "claude-3-5-sonnet-20241022"})
	if err != nil {
		t.Fatal(err)
	}
	req := provider.Request{System: "You are Wrasse.", Messages: []provider.Message{{Role: provider.RoleUser, Content: strings.Repeat("history ", 500)}},
		Tools: []provider.Tool{{Name: "a", Description: "A tool."}}}
	var usage []provider.Usage
	for _, answer := range []string{"one", "two"} {
		m.Reply(providertest.Text(answer), providertest.Usage(0, 7))
		resp, err := p.Stream(context.Background(), req, nil)
		if err != nil {
			t.Fatal(err)
		}
		usage = append(usage, resp.Usage)
		req.Messages = append(req.Messages, provider.Message{Role: provider.RoleAssistant, Content: answer},
			provider.Message{Role: provider.RoleUser, Content: "and?"})
	}
	if u := usage[0]; u.CachedTokens != 0 || u.CacheWriteTokens == 0 || u.OutputTokens != 7 {
		t.Errorf("first request: %+v, want a write and no read", u)
	}
	if u := usage[1]; u.CachedTokens < usage[0].CacheWriteTokens || u.InputTokens <= usage[0].InputTokens {
		t.Errorf("second request: %+v, want the first's %d written tokens read", u, usage[0].CacheWriteTokens)
	}
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
}
