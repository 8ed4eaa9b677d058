package assistant

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
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
			checkKeptWork(t, a, id)
		})
	}
}

// checkKeptWork checks that conversation id kept the first turn's work
// (its text, the tool call and its result) and ends with an error saying
// what was kept.
func checkKeptWork(t *testing.T, a *App, id store.ID) {
	t.Helper()
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
}

// anthropicEvent is one event of Anthropic's streaming Messages API, as a
// server sends it.
func anthropicEvent(data string) string {
	var head struct{ Type string }
	if err := json.Unmarshal([]byte(data), &head); err != nil {
		head.Type = "content_block_delta" // a malformed one, on purpose
	}
	return "event: " + head.Type + "\ndata: " + data + "\n\n"
}

const anthropicStart = `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"usage":{"input_tokens":25,"output_tokens":1}}}`

// The same over Anthropic's wire format: text, a tool call that ran, and
// then a reset, a 500 or a malformed event on the next request.
func TestFailedFirstTurnKeepsItsWorkAnthropic(t *testing.T) {
	first := providertest.Raw{Body: []byte(anthropicEvent(anthropicStart) +
		anthropicEvent(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`) +
		anthropicEvent(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Let me work it out. "}}`) +
		anthropicEvent(`{"type":"content_block_stop","index":0}`) +
		anthropicEvent(`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"calc_eval","input":{}}}`) +
		anthropicEvent(`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"expression\":\"6*7\"}"}}`) +
		anthropicEvent(`{"type":"content_block_stop","index":1}`) +
		anthropicEvent(`{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":30}}`) +
		anthropicEvent(`{"type":"message_stop"}`))}
	tests := []struct {
		name   string
		second providertest.Raw
	}{
		{"a reset mid-stream", providertest.Raw{Body: []byte(anthropicEvent(anthropicStart) +
			anthropicEvent(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`) +
			anthropicEvent(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"It is"}}`))}},
		{"a 500", providertest.Raw{Status: 500, Body: []byte(`{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`)}},
		{"a malformed event", providertest.Raw{Body: []byte(anthropicEvent(anthropicStart) +
			anthropicEvent(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" bro`))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := openTest(t)
			srv := providertest.NewServer(t, first, tt.second)
			if _, err := a.UpdateConfig(func(c *workspace.Config) error {
				c.Provider, c.BaseURL, c.Model, c.ContextWindow = "anthropic", srv.URL(), "claude-sonnet-4-5", 200000
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if err := a.SetAPIKey("anthropic", "sk-ant-0123456789"); err != nil {
				t.Fatal(err)
			}
			id, err := a.Turn(context.Background(), 0, "what is 6*7?", TurnOptions{})
			if !errors.Is(err, agent.ErrModel) {
				t.Fatalf("Turn = %v, want ErrModel", err)
			}
			if id == 0 {
				t.Fatal("the conversation was deleted with its work")
			}
			checkKeptWork(t, a, id)
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

// TestTurnEntryChecks: every turn comes in through App (Turn, Resend),
// which alone refuses a blank message, a conversation that is not there,
// and a second turn in a conversation whose turn is running; the agent
// checks none of this again (it kept a busy map of its own that never saw
// a second turn: the core makes an agent per turn).
func TestTurnEntryChecks(t *testing.T) {
	a := openTest(t)
	m := providertest.NewModel(t, providertest.OpenAI)
	m.Reply(providertest.Text("First answer."))
	m.Reply(providertest.Text("Half an answer"), providertest.Hold())
	if _, err := a.UpdateConfig(func(c *workspace.Config) error {
		c.Provider, c.BaseURL, c.Model, c.ContextWindow = "openai", m.BaseURL(), "m", 32000
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	id, err := a.Turn(t.Context(), 0, "one", TurnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := a.Turn(ctx, id, "two", TurnOptions{})
		done <- err
	}()
	<-m.Waiting()
	cases := []struct {
		name string
		run  func() (store.ID, error)
		want error
	}{
		{"blank first message", func() (store.ID, error) { return a.Turn(t.Context(), 0, "  \n", TurnOptions{}) }, agent.ErrEmptyMessage},
		{"blank message", func() (store.ID, error) { return a.Turn(t.Context(), id, "", TurnOptions{}) }, agent.ErrEmptyMessage},
		{"blank resend", func() (store.ID, error) { return a.Resend(t.Context(), id, 1, "\t", TurnOptions{}) }, agent.ErrEmptyMessage},
		{"no such conversation", func() (store.ID, error) { return a.Turn(t.Context(), id+1000, "hi", TurnOptions{}) }, ErrNoConversation},
		{"a turn runs", func() (store.ID, error) { return a.Turn(t.Context(), id, "three", TurnOptions{}) }, agent.ErrBusy},
		{"resend while a turn runs", func() (store.ID, error) { return a.Resend(t.Context(), id, 1, "one again", TurnOptions{}) }, agent.ErrBusy},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tc.run(); !errors.Is(err, tc.want) {
				t.Fatalf("err = %v; want %v", err, tc.want)
			}
		})
	}
	cancel()
	if err := <-done; !errors.Is(err, agent.ErrInterrupted) {
		t.Errorf("the stopped turn returned %v; want ErrInterrupted", err)
	}
	if convs, _ := a.db.ListConversations(); len(convs) != 1 {
		t.Errorf("%d conversations; want the one (a refused turn creates none)", len(convs))
	}
}

// Every turn leaves one line in the log saying how it ended, the failed
// one included (wrasse-bench waits for it to know a window's turn is over).
func TestTurnEndLogged(t *testing.T) {
	a := openTest(t)
	srv := providertest.NewServer(t,
		providertest.Raw{Body: []byte(openAIChunk(`{"role":"assistant","content":"Hello."}`, "stop") + "data: [DONE]\n\n")},
		providertest.Raw{Status: 500, Body: []byte(`{"error":{"message":"internal error","type":"server_error"}}`)})
	if _, err := a.UpdateConfig(func(c *workspace.Config) error {
		c.Provider, c.BaseURL, c.Model, c.ContextWindow = "openai", srv.URL()+"/v1", "m", 32000
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	id, err := a.Turn(context.Background(), 0, "hi", TurnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Turn(context.Background(), id, "again", TurnOptions{}); err == nil {
		t.Fatal("the second turn did not fail")
	}
	log, err := os.ReadFile(a.Workspace().Log())
	if err != nil {
		t.Fatal(err)
	}
	var ended []string
	for _, line := range strings.Split(string(log), "\n") {
		if strings.Contains(line, `msg="turn ended"`) {
			ended = append(ended, line)
		}
	}
	if len(ended) != 2 {
		t.Fatalf("%d turn-ended lines, want 2:\n%s", len(ended), log)
	}
	for i, want := range []string{"ok=true", "ok=false"} {
		if !strings.Contains(ended[i], "conversation="+id.String()) || !strings.Contains(ended[i], want) || !strings.Contains(ended[i], "took=") {
			t.Errorf("turn %d's line %q, want its conversation, took= and %s", i+1, ended[i], want)
		}
	}
}

// streamIdleTimeout set in the config is the limit a turn's stream gets,
// on each wire format: a server that sends the start of an answer and
// then nothing ends the turn after the 5 s set, not the default 60 s, and
// says so. (This waits 5 s of real time: the point is the setting
// reaching the provider the app builds, which takes the real clock.)
func TestStreamIdleTimeoutFromConfig(t *testing.T) {
	tests := []struct {
		name, provider, model string
		window                int
		start                 string
	}{
		{"openai", "openai", "m", 32000, openAIChunk(`{"role":"assistant","content":"It is"}`, "")},
		{"anthropic", "anthropic", "claude-sonnet-4-5", 200000, anthropicEvent(anthropicStart) +
			anthropicEvent(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`) +
			anthropicEvent(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"It is"}}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := openTest(t)
			srv := providertest.NewServer(t, providertest.Raw{Body: []byte(tt.start), Block: true})
			if _, err := a.UpdateConfig(func(c *workspace.Config) error {
				c.Provider, c.BaseURL, c.Model, c.ContextWindow = tt.provider, srv.URL(), tt.model, tt.window
				if tt.provider == "openai" {
					c.BaseURL += "/v1"
				}
				c.StreamIdleTimeout = "5s"
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if tt.provider == "anthropic" {
				if err := a.SetAPIKey("anthropic", "sk-ant-0123456789"); err != nil {
					t.Fatal(err)
				}
			}
			_, err := a.Turn(context.Background(), 0, "what is 6*7?", TurnOptions{})
			if provider.KindOf(err) != provider.ErrTimeout {
				t.Fatalf("Turn = %v, want a timeout", err)
			}
			if !strings.Contains(err.Error(), "stopped sending for 5.0 s") {
				t.Errorf("Turn = %q, want it to say the model stopped sending for 5.0 s", err)
			}
		})
	}
}
