package assistant

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

// openAIChunk is one chunk of OpenAI's streaming Chat Completions, as a
// server sends it.
func openAIChunk(delta, finish string) string {
	fin := "null"
	if finish != "" {
		fin = `"` + finish + `"`
	}
	return fmt.Sprintf(`data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":%s,"finish_reason":%s}]}`, delta, fin) + "\n\n"
}

// TestFailedFirstTurnKeepsItsWork: a first turn whose model streamed text
// and made a tool call that really ran, and then failed on its next
// request, keeps its conversation with everything stored and an error
// saying exactly what was kept. On main the conversation was deleted,
// work included, while the message said it was kept.
func TestFailedFirstTurnKeepsItsWork(t *testing.T) {
	first := providertest.Raw{Body: []byte(openAIChunk(`{"role":"assistant","content":"Let me work it out. "}`, "") +
		openAIChunk(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"calc_eval","arguments":"{\"expression\":\"6*7\"}"}}]}`, "") +
		openAIChunk(`{}`, "tool_calls") + "data: [DONE]\n\n")}
	tests := []struct {
		name   string
		second providertest.Raw
	}{
		{"a reset mid-stream", providertest.Raw{Body: []byte(openAIChunk(`{"content":"It is"}`, ""))}},
		{"a 500", providertest.Raw{Status: 500, Body: []byte(`{"error":{"message":"internal error","type":"server_error"}}`)}},
		{"a malformed chunk", providertest.Raw{Body: []byte("data: {\"id\":\"c1\",\"choices\":[{\"delta\":{\"content\":\n\n")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := openTest(t)
			srv := providertest.NewServer(t, first, tt.second)
			if _, err := a.UpdateConfig(func(c *workspace.Config) error {
				// A window of its own: no discovery requests take the scripted replies.
				c.Provider, c.BaseURL, c.Model, c.ContextWindow = "openai", srv.URL()+"/v1", "m", 32000
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			id, err := a.Turn(context.Background(), 0, "what is 6*7?", TurnOptions{})
			if !errors.Is(err, agent.ErrModel) {
				t.Fatalf("Turn = %v, want ErrModel", err)
			}
			if id == 0 {
				t.Fatal("the conversation was deleted with its work")
			}
			convs, _ := a.db.ListConversations()
			if len(convs) != 1 || convs[0].ID != id {
				t.Fatalf("conversations %+v, want %s", convs, id)
			}
			got := strings.Join(texts(t, a, id), "\n")
			for _, want := range []string{"user_message:what is 6*7?", "assistant_text:Let me work it out.", "tool_call:calc_eval", "tool_result:6*7 = 42"} {
				if !strings.Contains(got, want) {
					t.Fatalf("events:\n%s\nwant %q kept", got, want)
				}
			}
			evs, _ := a.db.Events(id)
			last := evs[len(evs)-1]
			if last.Type != "error" || !strings.Contains(last.Text, "the result of the tool call that ran (calc_eval)") {
				t.Fatalf("the error does not say what was kept: %q", last.Text)
			}
		})
	}
}

// TestFailedFirstTurnWithNothingStoredIsRemoved: a first turn that
// stored nothing but the message (the model failed before any text)
// leaves no empty conversation, even when the server sent a few empty
// chunks first.
func TestFailedFirstTurnWithNothingStoredIsRemoved(t *testing.T) {
	a := openTest(t)
	srv := providertest.NewServer(t, providertest.Raw{Body: []byte(openAIChunk(`{"role":"assistant","content":""}`, ""))})
	if _, err := a.UpdateConfig(func(c *workspace.Config) error {
		// A window of its own: no discovery requests take the scripted replies.
		c.Provider, c.BaseURL, c.Model, c.ContextWindow = "openai", srv.URL()+"/v1", "m", 32000
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	id, err := a.Turn(context.Background(), 0, "hello?", TurnOptions{})
	if !errors.Is(err, agent.ErrModel) || id != 0 {
		t.Fatalf("Turn = %s, %v; want no conversation and ErrModel", id, err)
	}
	if convs, _ := a.db.ListConversations(); len(convs) != 0 {
		t.Fatalf("conversations left behind: %+v", convs)
	}
}
