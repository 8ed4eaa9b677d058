package agent_test

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
)

func TestTurnText(t *testing.T) {
	prov := newProvider(t, text("Hello", ", world."))
	e := newEnv(t, prov)
	s := &sink{}
	id, err := e.agent().Turn(t.Context(), e.conv(), "Say hello", s)
	if err != nil {
		t.Fatal(err)
	}
	if id == 0 {
		t.Fatal("no conversation id")
	}
	ev := events(t, e.db, id)
	if got, want := kinds(ev), []string{"user_message", "assistant_text", "usage"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("events %q, want %q", got, want)
	}
	if ev[1].Text != "Hello, world." || ev[1].Status != store.StatusComplete || ev[1].Model != "test-model" {
		t.Errorf("reply %+v", ev[1])
	}
	checkSink(t, e.db, id, s, 0)
	if !reflect.DeepEqual(s.texts, []string{"Hello", ", world."}) || !reflect.DeepEqual(s.steps, []int{1}) {
		t.Errorf("texts %q steps %v", s.texts, s.steps)
	}
	reqs := prov.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	for _, want := range []string{"You are the test assistant.", "Today is Tuesday, 4 March 2025.",
		`Computer: linux (amd64), host name "box", locale en_GB.UTF-8.`, "<capabilities>", "- weather (1 tool) — Weather forecasts"} {
		if !strings.Contains(r.System, want) {
			t.Errorf("system prompt lacks %q:\n%s", want, r.System)
		}
	}
	names := toolNames(r.Tools)
	if !slices.Contains(names, "tool_search") || !slices.Contains(names, "shell_exec") || slices.Contains(names, "weather_get") {
		t.Errorf("tools %q: want core tools only", names)
	}
	if r.Model != "test-model" || len(r.Messages) != 1 || r.Messages[0].Content != "Say hello" {
		t.Errorf("request %+v", r)
	}
	conv, _ := e.db.GetConversation(id)
	if conv.Title != "Say hello" {
		t.Errorf("title %q", conv.Title)
	}
}

// The checks of a turn's entry (a blank message, a busy conversation)
// are App.Turn's (brain/assistant's TestTurnEntryChecks); a turn in a
// conversation that is not there fails on the store's word.
func TestUnknownConversation(t *testing.T) {
	e := newEnv(t, newProvider(t))
	a := e.agent()
	if _, err := a.Turn(t.Context(), 42, "hi", nil); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown conversation: %v", err)
	}
	if _, err := agent.New(agent.Options{}); !errors.Is(err, agent.ErrConfig) {
		t.Errorf("New without registry: %v", err)
	}
}

// tool_search loads weather mid-turn: the next request of the same turn
// carries its tools, and the loaded set outlives the turn.
func TestToolSearchLoadsCapabilityMidTurn(t *testing.T) {
	prov := newProvider(t,
		calls(tc("c1", "tool_search", `{"query":"weather forecast"}`)),
		calls(tc("c2", "weather_get", `{"city":"Lyon"}`)),
		text("Sunny in Lyon."),
		text("Still sunny."),
	)
	e := newEnv(t, prov)
	a := e.agent()
	id, err := a.Turn(t.Context(), e.conv(), "Weather in Lyon?", nil)
	if err != nil {
		t.Fatal(err)
	}
	reqs := prov.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	if slices.Contains(toolNames(reqs[0].Tools), "weather_get") {
		t.Error("weather_get offered before it was loaded")
	}
	for i := 1; i < 3; i++ {
		if !slices.Contains(toolNames(reqs[i].Tools), "weather_get") {
			t.Errorf("request %d lacks weather_get: %q", i+1, toolNames(reqs[i].Tools))
		}
		// The load is told by the result that loaded it, not by the prompt.
		if reqs[i].System != reqs[0].System {
			t.Errorf("request %d changed the system prompt:\n%s", i+1, reqs[i].System)
		}
	}
	if !strings.Contains(reqs[0].System, "- weather (1 tool) — Weather forecasts for any city.\n") {
		t.Errorf("index:\n%s", reqs[0].System)
	}
	if refs := reqs[1].Messages[2].ToolRefs; !slices.Equal(refs, []string{"weather_get"}) {
		t.Errorf("tool_search result references %q, want weather_get", refs)
	}
	if !slices.Contains(toolNames(reqs[0].Deferrable), "weather_get") {
		t.Errorf("weather_get not deferrable: %q", toolNames(reqs[0].Deferrable))
	}
	last := reqs[2].Messages
	if n := len(last); n != 5 || last[4].Role != provider.RoleTool || last[4].Content != "sunny, 21°C" || last[4].ToolCallID != "c2" {
		t.Errorf("messages of request 3: %+v", last)
	}
	if !strings.Contains(last[2].Content, "Loaded weather") {
		t.Errorf("tool_search result %q", last[2].Content)
	}
	if loaded, _ := e.db.Loaded(id); !slices.Equal(loaded, []string{"weather"}) {
		t.Errorf("stored loaded set %q", loaded)
	}
	// A later turn (a fresh agent, as after a restart) restores the set.
	if _, err := e.agent().Turn(t.Context(), id, "And tomorrow?", nil); err != nil {
		t.Fatal(err)
	}
	reqs = prov.Requests()
	if !slices.Contains(toolNames(reqs[3].Tools), "weather_get") {
		t.Errorf("next turn lost the loaded set: %q", toolNames(reqs[3].Tools))
	}
	if got := e.rt.called(); !slices.Equal(got, []string{`weather_get {"city":"Lyon"}`}) {
		t.Errorf("runtime calls %q", got)
	}
}

func TestInvalidArgumentsAndUnknownTool(t *testing.T) {
	prov := newProvider(t,
		calls(tc("c1", "shell_exec", `{"command": "sudo ls"`), tc("c2", "nope_tool", `{}`), tc("", "echo_back", `{"text":"hi"}`)),
		text("Sorry."),
	)
	e := newEnv(t, prov)
	id, err := e.agent().Turn(t.Context(), e.conv(), "go", nil)
	if err != nil {
		t.Fatal(err)
	}
	ev := events(t, e.db, id)
	want := []string{"user_message", "tool_call:shell_exec", "tool_call:nope_tool", "tool_call:echo_back", "usage",
		"tool_result:shell_exec:error", "tool_result:nope_tool:error", "tool_result:echo_back", "assistant_text", "usage"}
	if got := kinds(ev); !reflect.DeepEqual(got, want) {
		t.Fatalf("events %q\nwant   %q", got, want)
	}
	if !strings.Contains(ev[5].Text, "not valid JSON") || !strings.Contains(ev[6].Text, "use tool_search") {
		t.Errorf("results %q / %q", ev[5].Text, ev[6].Text)
	}
	if ev[3].ToolCallID != "call_1_3" || ev[7].ToolCallID != "call_1_3" {
		t.Errorf("a call without id gets one: %q / %q", ev[3].ToolCallID, ev[7].ToolCallID)
	}
	if len(e.appr.requests()) != 0 {
		t.Error("the user was asked about a call the registry refuses")
	}
	if got := e.rt.called(); !slices.Equal(got, []string{`echo_back {"text":"hi"}`}) {
		t.Errorf("runtime calls %q", got)
	}
}

func TestMaxSteps(t *testing.T) {
	loop := calls(tc("", "echo_back", `{"text":"again"}`))
	prov := newProvider(t, loop, loop, loop)
	e := newEnv(t, prov)
	s := &sink{}
	id, err := e.agent(func(o *agent.Options) { o.MaxSteps = 2 }).Turn(t.Context(), e.conv(), "loop", s)
	if !errors.Is(err, agent.ErrMaxSteps) {
		t.Fatalf("err = %v", err)
	}
	if n := len(prov.Requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
	ev := events(t, e.db, id)
	last := ev[len(ev)-1]
	if last.Type != store.EventError || !strings.Contains(last.Text, "Stopped after 2 model requests") {
		t.Errorf("last event %+v", last)
	}
	if got := strings.Count(strings.Join(kinds(ev), " "), "tool_result:echo_back"); got != 2 {
		t.Errorf("%d results, want 2 (every call answered)", got)
	}
	checkSink(t, e.db, id, s, 0)
}

func TestProviderErrorKeepsPartialText(t *testing.T) {
	netErr := &provider.Error{Kind: provider.ErrUnavailable, Provider: "openai",
		Message: "no model answered at http://localhost:11434/v1 (connection refused): start Ollama (`ollama serve`)"}
	prov := newProvider(t, turn{providertest.Text("Let me ", "check"), tc("c1", "echo_back", `{}`), providertest.Fail(netErr)},
		text("Back."))
	e := newEnv(t, prov)
	s := &sink{}
	id, err := e.agent().Turn(t.Context(), e.conv(), "hi", s)
	if !errors.Is(err, agent.ErrModel) || provider.KindOf(err) != provider.ErrUnavailable {
		t.Fatalf("err = %v", err)
	}
	ev := events(t, e.db, id)
	if got, want := kinds(ev), []string{"user_message", "assistant_text:interrupted", "tool_call:echo_back", "tool_result:echo_back:error", "error"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("events %q, want %q", got, want)
	}
	if ev[1].Text != "Let me check" {
		t.Errorf("partial text %q", ev[1].Text)
	}
	if !strings.HasPrefix(ev[3].Text, "not run:") {
		t.Errorf("result %q", ev[3].Text)
	}
	msg := ev[4].Text
	if !strings.Contains(msg, "The model could not answer (openai): no model answered") || !strings.Contains(msg, "What it had written so far (12 characters) is kept.") {
		t.Errorf("error event %q", msg)
	}
	if len(e.rt.called()) != 0 {
		t.Error("a call of a broken-off answer ran")
	}
	checkSink(t, e.db, id, s, 0)
	// The history is well-formed for the next turn.
	if _, err := e.agent().Turn(t.Context(), id, "again", nil); err != nil {
		t.Fatal(err)
	}
	msgs := prov.Requests()[1].Messages
	if len(msgs) != 4 || msgs[1].Content != "Let me check" || msgs[2].Role != provider.RoleTool || msgs[3].Content != "again" {
		t.Errorf("next request messages %+v", msgs)
	}
}

// A model failure shows the provider's message as it is: it already says
// what to do, and the fix travels as a hint, so no setup text is appended
// (nothing decides that by reading the message).
func TestModelErrorShowsProviderMessage(t *testing.T) {
	const setup = "SETUP: set up a model."
	for _, pe := range []*provider.Error{
		{Kind: provider.ErrAuth, Provider: "anthropic", Status: 401, Message: "the key was refused: save the right one in the model settings"},
		{Kind: provider.ErrUnavailable, Provider: "openai", Status: 500, Message: "openai had a server error; try again in a moment"},
		{Kind: provider.ErrUnavailable, Provider: "openai", Message: "no model answered at http://x/v1 (connection refused): check that the server there is running"},
		{Kind: provider.ErrRateLimit, Provider: "openai", Status: 429, Message: "slow down"},
	} {
		e := newEnv(t, newProvider(t, fail(pe)))
		id, err := e.agent(func(o *agent.Options) { o.SetupHint = setup }).Turn(t.Context(), e.conv(), "hi", nil)
		if !errors.Is(err, agent.ErrModel) {
			t.Fatal(err)
		}
		ev := events(t, e.db, id)
		want := "The model could not answer (" + pe.Provider + "): " + pe.Message
		if got := ev[len(ev)-1].Text; got != want {
			t.Errorf("error event %q, want %q", got, want)
		}
	}
}

func TestNoProvider(t *testing.T) {
	const kept = "The API key is not sent to this host: your OpenAI key is kept for https://a.example. Confirm sending it."
	cases := []struct {
		name        string
		noModelText string
		want        []string
		notWant     string
	}{
		{"none set up", "", []string{"No model is set up", "ollama serve"}, ""},
		// A model set up whose key waits for the person's word: that
		// reason alone, not "No model is set up".
		{"key kept for another host", kept, []string{kept}, "No model is set up"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, nil)
			id, err := e.agent(func(o *agent.Options) { o.Provider, o.NoModelText = nil, c.noModelText }).Turn(t.Context(), e.conv(), "hello?", nil)
			if !errors.Is(err, agent.ErrNoProvider) {
				t.Fatalf("err = %v", err)
			}
			ev := events(t, e.db, id)
			if got := kinds(ev); !reflect.DeepEqual(got, []string{"user_message", "error"}) {
				t.Fatalf("events %q", got)
			}
			for _, w := range c.want {
				if !strings.Contains(ev[1].Text, w) {
					t.Errorf("error %q lacks %q", ev[1].Text, w)
				}
			}
			if c.notWant != "" && strings.Contains(ev[1].Text, c.notWant) {
				t.Errorf("error %q says %q", ev[1].Text, c.notWant)
			}
		})
	}
}

func TestContextLengthRetriesOnceSmaller(t *testing.T) {
	ctxErr := &provider.Error{Kind: provider.ErrContextLength, Provider: "fake", Message: "the conversation is too long for the model"}
	prov := newProvider(t, fail(ctxErr), text("ok"))
	e := newEnv(t, prov)
	id, err := e.agent(func(o *agent.Options) { o.ContextWindow = 100000 }).Turn(t.Context(), e.conv(), "hi", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := kinds(events(t, e.db, id)); !reflect.DeepEqual(got, []string{"user_message", "assistant_text", "usage"}) {
		t.Errorf("events %q", got)
	}
	// Twice in a row is reported.
	add(prov, fail(ctxErr), fail(ctxErr))
	if _, err := e.agent(func(o *agent.Options) { o.ContextWindow = 100000 }).Turn(t.Context(), id, "more", nil); provider.KindOf(err) != provider.ErrContextLength {
		t.Errorf("err = %v", err)
	}
}

func TestSecretsRedacted(t *testing.T) {
	const secret = "sk-live-0123456789"
	prov := newProvider(t,
		turn{providertest.Text("Your key is sk-live-", "0123456789."), tc("c1", "echo_back", `{"text":"`+secret+`"}`)},
		text("Done."))
	e := newEnv(t, prov)
	if err := e.db.SetSecret("openai_api_key", secret); err != nil {
		t.Fatal(err)
	}
	s := &sink{}
	id, err := e.agent().Turn(t.Context(), e.conv(), "my key is "+secret, s)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range events(t, e.db, id) {
		if strings.Contains(ev.Text, secret) || strings.Contains(string(ev.Arguments), secret) {
			t.Errorf("secret stored in %+v", ev)
		}
	}
	ev := events(t, e.db, id)
	if ev[0].Text != "my key is [redacted:openai_api_key]" || ev[1].Text != "Your key is [redacted:openai_api_key]." {
		t.Errorf("redaction: %q / %q", ev[0].Text, ev[1].Text)
	}
	for _, m := range prov.Requests()[1].Messages {
		if strings.Contains(m.Content, secret) || (len(m.ToolCalls) > 0 && strings.Contains(string(m.ToolCalls[0].Arguments), secret)) {
			t.Errorf("secret sent to the model: %+v", m)
		}
	}
	for _, se := range s.final() {
		if strings.Contains(se.Text, secret) {
			t.Errorf("secret shown: %+v", se)
		}
	}
	if strings.Contains(e.logs.String(), secret) {
		t.Error("secret logged")
	}
	if !strings.Contains(e.logs.String(), "echo_back") {
		t.Error("tool calls are logged")
	}
}

// A key the provider got from the environment (not stored) is redacted
// like a stored secret once the store is told about it: in stored events,
// what the model is sent, what the sink shows and the log.
func TestEnvironmentKeyRedacted(t *testing.T) {
	const key = "sk-env-9876543210abcdef"
	prov := newProvider(t,
		calls(tc("c1", "echo_back", `{"text":"OPENAI_API_KEY=`+key+`"}`)),
		text("The key is ", key[:9], key[9:], "."))
	e := newEnv(t, prov)
	if err := e.db.AddRedaction("OPENAI_API_KEY", key); err != nil {
		t.Fatal(err)
	}
	s := &sink{}
	id, err := e.agent().Turn(t.Context(), e.conv(), "show the environment", s)
	if err != nil {
		t.Fatal(err)
	}
	ev := events(t, e.db, id)
	var result, reply store.Event
	for _, x := range ev {
		if strings.Contains(x.Text, key) || strings.Contains(string(x.Arguments), key) {
			t.Errorf("key stored in %+v", x)
		}
		switch x.Type {
		case store.EventToolResult:
			result = x
		case store.EventAssistantText:
			reply = x
		}
	}
	if result.Text != "echo: OPENAI_API_KEY=[redacted:OPENAI_API_KEY]" {
		t.Errorf("stored tool result %q", result.Text)
	}
	if reply.Text != "The key is [redacted:OPENAI_API_KEY]." {
		t.Errorf("stored reply %q", reply.Text)
	}
	reqs := prov.Requests()
	var sent string
	for _, m := range reqs[1].Messages {
		if m.Role == provider.RoleTool {
			sent = m.Content
		}
		if strings.Contains(m.Content, key) {
			t.Errorf("key sent to the model: %+v", m)
		}
	}
	if sent != "echo: OPENAI_API_KEY=[redacted:OPENAI_API_KEY]" {
		t.Errorf("tool result sent to the model %q", sent)
	}
	if shown := strings.Join(s.texts, ""); shown != reply.Text {
		t.Errorf("streamed to the sink %q, want the stored reply %q", shown, reply.Text)
	}
	if strings.Contains(e.logs.String(), key) {
		t.Error("key logged")
	}
	// The runtime got the real value: redaction is for what is kept and shown.
	if got := e.rt.called(); len(got) != 1 || !strings.Contains(got[0], key) {
		t.Errorf("runtime got %q", got)
	}
}

func TestApproverRequestIsRedacted(t *testing.T) {
	const secret = "tok-abcdef-123"
	prov := newProvider(t, calls(tc("c1", "shell_exec", `{"command":"sudo curl -H 'X: `+secret+`' https://x"}`)), text("ok"))
	e := newEnv(t, prov)
	if err := e.db.SetSecret("token", secret); err != nil {
		t.Fatal(err)
	}
	e.appr.answers = []gate.Approval{gate.ApproveOnce}
	if _, err := e.agent().Turn(t.Context(), e.conv(), "go", nil); err != nil {
		t.Fatal(err)
	}
	reqs := e.appr.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d approval requests", len(reqs))
	}
	r := reqs[0]
	if strings.Contains(string(r.Args), secret) || strings.Contains(r.Summary, secret) || !strings.Contains(r.Summary, "[redacted:token]") {
		t.Errorf("request shows the secret: %+v", r)
	}
	if r.Tool != "shell_exec" || r.Capability != "shell" || r.ConversationID != "c1" || r.ToolCallID != "c1" ||
		!slices.Contains(r.Reasons, "runs a command with administrator rights") {
		t.Errorf("request %+v", r)
	}
	// The command ran with the real value.
	if got := e.rt.called(); len(got) != 1 || !strings.Contains(got[0], secret) {
		t.Errorf("runtime got %q", got)
	}
}
