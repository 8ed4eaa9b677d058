package assistant

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// openTest opens a fresh workspace with a fixed clock and no environment.
func openTest(t *testing.T) *App {
	t.Helper()
	a, err := Open(Options{Workspace: t.TempDir(), Retries: -1,
		Clock: func() time.Time { return time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// useModel points the app at a fake OpenAI-compatible server.
func useModel(t *testing.T, a *App, m *providertest.Model, model string) {
	t.Helper()
	if _, err := a.UpdateConfig(func(c *workspace.Config) error {
		c.Provider, c.BaseURL, c.Model = "openai", m.BaseURL(), model
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// texts returns the events' types and texts, for compact assertions.
func texts(t *testing.T, a *App, id store.ID) []string {
	t.Helper()
	evs, err := a.db.Events(id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range evs {
		if e.Type == store.EventUsage {
			continue
		}
		s := string(e.Type)
		if e.Text != "" {
			s += ":" + e.Text
		}
		if e.ToolName != "" && e.Type == store.EventToolCall {
			s += ":" + e.ToolName
		}
		out = append(out, s)
	}
	return out
}

// The "done when": a workspace opened, a turn run against a fake
// model, a capability toggled and the model changed, with no CLI.
func TestCoreTurnToggleAndSwitchModel(t *testing.T) {
	a := openTest(t)
	first := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, first, "first-model")

	var mu sync.Mutex
	var kinds []EventKind
	cancel := a.Subscribe(func(e Event) {
		mu.Lock()
		kinds = append(kinds, e.Kind)
		mu.Unlock()
	})

	first.Reply(providertest.ToolCall("calc_eval", `{"expression":"6*7"}`))
	first.Reply(providertest.Text("It is ", "42."))
	var streamed strings.Builder
	id, err := a.Turn(context.Background(), 0, "what is 6*7?", TurnOptions{Sink: agent.Funcs{
		Text: func(_ uint64, d string) { streamed.WriteString(d) }}})
	if err != nil {
		t.Fatal(err)
	}
	if streamed.String() != "It is 42." {
		t.Fatalf("streamed %q", streamed.String())
	}
	got := strings.Join(texts(t, a, id), " | ")
	if !strings.Contains(got, "tool_call:calc_eval") || !strings.Contains(got, "tool_result:6*7 = 42") || !strings.HasSuffix(got, "assistant_text:It is 42.") {
		t.Fatalf("events: %s", got)
	}

	// Toggle a capability: the next request no longer offers its tools.
	if err := a.Disable("calc"); err != nil {
		t.Fatal(err)
	}
	if c, _ := a.reg.Get("calc"); c.State != "disabled" {
		t.Fatalf("calc state %s after Disable", c.State)
	}

	// Change the model and the server while the app runs: the next turn
	// goes to the new one, with the new model name.
	second := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, second, "second-model")
	second.Reply(providertest.Text("hello from the second"))
	if _, err := a.Turn(context.Background(), id, "and now?", TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs := second.Requests()
	if len(reqs) != 1 || reqs[0].Model != "second-model" {
		t.Fatalf("second server got %+v", reqs)
	}
	for _, name := range reqs[0].ToolNames() {
		if strings.HasPrefix(name, "calc_") {
			t.Fatalf("a disabled capability's tool was offered: %s", name)
		}
	}
	if n := len(first.Requests()); n != 2 {
		t.Fatalf("the first server got %d requests after the switch, want 2 (before it)", n)
	}
	cancel()
	cancel() // harmless twice
	mu.Lock()
	defer mu.Unlock()
	var sawConfig, sawCaps bool
	for _, k := range kinds {
		sawConfig = sawConfig || k == EventConfig
		sawCaps = sawCaps || k == EventCapabilities
	}
	if !sawConfig || !sawCaps {
		t.Fatalf("subscriber saw %v; want config and capabilities events", kinds)
	}
}

func TestFailedFirstTurnLeavesNoConversation(t *testing.T) {
	a := openTest(t)
	m := providertest.NewModel(t, providertest.OpenAI, providertest.WithAPIKey("right-key"))
	useModel(t, a, m, "m")
	m.Reply(providertest.Status(401, ""))
	id, err := a.Turn(context.Background(), 0, "hello?", TurnOptions{})
	if !errors.Is(err, agent.ErrModel) {
		t.Fatalf("Turn error = %v, want ErrModel", err)
	}
	if id != 0 {
		t.Fatalf("a first turn no model answered returned conversation %s", id)
	}
	convs, _ := a.db.ListConversations()
	if len(convs) != 0 {
		t.Fatalf("conversations left behind: %+v", convs)
	}
	h, ok := hint.Of(err)
	if !ok || h.Page != hint.PageModel || !strings.Contains(h.CommandLine(), "secrets set openai_api_key") {
		t.Fatalf("hint = %+v, %v; want the Model page and the key command", h, ok)
	}
	if strings.Contains(err.Error(), "wrasse ") {
		t.Fatalf("the error text pastes a command: %v", err)
	}
}

func TestNoProviderHint(t *testing.T) {
	a := openTest(t)
	if _, err := a.SetConfig("provider", "anthropic"); err != nil {
		t.Fatal(err)
	}
	if a.ModelProblem() == nil {
		t.Fatal("anthropic without a key should be a model problem")
	}
	_, err := a.Turn(context.Background(), 0, "hi", TurnOptions{})
	h, ok := hint.Of(err)
	if !errors.Is(err, agent.ErrNoProvider) || !ok || h.Target != "apiKey" || h.Command[len(h.Command)-1] != SecretAnthropic {
		t.Fatalf("err %v, hint %+v", err, h)
	}
	// Saving the key is live: the problem goes without a restart.
	if err := a.SetAPIKey("anthropic", "sk-ant-0123456789"); err != nil {
		t.Fatal(err)
	}
	if p := a.ModelProblem(); p != nil {
		t.Fatalf("after saving a key: %v", p)
	}
}

func TestResendAndRegenerate(t *testing.T) {
	a := openTest(t)
	m := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, m, "m")
	m.Reply(providertest.Text("one"))
	id, err := a.Turn(context.Background(), 0, "first question", TurnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m.Reply(providertest.Text("two"))
	if _, err := a.Turn(context.Background(), id, "second question", TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	evs, _ := a.db.Events(id)
	var firstSeq uint64
	for _, e := range evs {
		if e.Type == store.EventUserMessage {
			firstSeq = e.Seq
			break
		}
	}
	m.Reply(providertest.Text("edited answer"))
	if _, err := a.Resend(context.Background(), id, firstSeq, "first question, edited", TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(texts(t, a, id), " | "); got != "user_message:first question, edited | assistant_text:edited answer" {
		t.Fatalf("after resend: %s", got)
	}
	m.Reply(providertest.Text("regenerated"))
	if _, err := a.Regenerate(context.Background(), id, TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(texts(t, a, id), " | "); got != "user_message:first question, edited | assistant_text:regenerated" {
		t.Fatalf("after regenerate: %s", got)
	}
	// The model saw only the edited history.
	last := m.Requests()[len(m.Requests())-1]
	for _, msg := range last.Messages {
		if strings.Contains(msg.Content, "second question") || strings.Contains(msg.Content, "edited answer") {
			t.Fatalf("regenerate sent replaced history: %+v", last.Messages)
		}
	}
	// An assistant reply cannot be "resent".
	evs, _ = a.db.Events(id)
	if _, err := a.Resend(context.Background(), id, evs[len(evs)-1].Seq, "x", TurnOptions{}); !errors.Is(err, ErrNotUserMessage) {
		t.Fatalf("resend of a reply: %v", err)
	}
	if _, err := a.Turn(context.Background(), 999, "x", TurnOptions{}); !errors.Is(err, ErrNoConversation) {
		t.Fatalf("turn in a missing conversation: %v", err)
	}
}

func TestOverrideIsForOneTurn(t *testing.T) {
	a := openTest(t)
	configured := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, configured, "configured")
	other := providertest.NewModel(t, providertest.OpenAI)
	other.Reply(providertest.Text("from the override"))
	if _, err := a.Turn(context.Background(), 0, "hi", TurnOptions{Override: Override{BaseURL: other.BaseURL(), Model: "over"}}); err != nil {
		t.Fatal(err)
	}
	if r := other.Requests(); len(r) != 1 || r[0].Model != "over" {
		t.Fatalf("override server got %+v", r)
	}
	if a.Model().Model != "configured" || a.Config().BaseURL != configured.BaseURL() {
		t.Fatalf("an override changed the configuration: %+v", a.Model())
	}
	if _, err := a.Turn(context.Background(), 0, "hi", TurnOptions{Override: Override{BaseURL: "not a url"}}); !errors.Is(err, workspace.ErrBadValue) {
		t.Fatalf("a bad override base URL: %v", err)
	}
}

func TestUpdateConfigValidatesAndKeepsFileOnError(t *testing.T) {
	a := openTest(t)
	if _, err := a.SetConfig("model", "kept"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ key, value string }{{"baseURL", "localhost:1234"}, {"provider", "gemini"}, {"modle", "x"}} {
		if _, err := a.SetConfig(tc.key, tc.value); err == nil {
			t.Errorf("SetConfig(%s, %s) accepted", tc.key, tc.value)
		}
	}
	cfg, err := a.Workspace().LoadConfig()
	if err != nil || cfg.Model != "kept" || cfg.BaseURL != "" || cfg.Provider != "" {
		t.Fatalf("config.json after refused changes: %+v, %v", cfg, err)
	}
	if a.Model().Model != "kept" {
		t.Fatalf("live model = %q", a.Model().Model)
	}
}

func TestConcurrentTogglesLoseNothing(t *testing.T) {
	a := openTest(t)
	names := []string{"calc", "web", "data", "archive", "git"}
	var wg sync.WaitGroup
	for round := 0; round < 5; round++ {
		for _, n := range names {
			wg.Add(2)
			go func() { defer wg.Done(); _ = a.Disable(n) }()
			go func() { defer wg.Done(); _, _ = a.SetConfig("maxSteps", "7") }()
		}
	}
	wg.Wait()
	for _, n := range names {
		c, err := a.reg.Get(n)
		if err != nil {
			t.Fatal(err)
		}
		if c.State != "disabled" {
			t.Errorf("%s is %s after concurrent disables", n, c.State)
		}
	}
}

func TestCallToolThroughTheGate(t *testing.T) {
	a := openTest(t)
	out, err := a.CallTool(context.Background(), "calc_eval", []byte(`{"expression":"2+3"}`), nil)
	if err != nil || !out.Ran || strings.TrimSpace(out.Result.Content) != "2+3 = 5" {
		t.Fatalf("calc_eval: %+v, %v", out, err)
	}
	// A destructive tool asks: headless it is denied, approved it runs.
	dir := t.TempDir()
	args := []byte(`{"path":"` + dir + `/x.txt","content":"hi"}`)
	if _, err := a.UpdateConfig(func(c *workspace.Config) error { c.Folders = []string{dir}; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := a.CallTool(context.Background(), "fs_write", args, nil); !errors.Is(err, agent.ErrDenied) {
		t.Fatalf("fs_write without approval: %v", err)
	}
	yes := gate.ApproverFunc(func(context.Context, gate.Request) (gate.Approval, error) { return gate.ApproveOnce, nil })
	if out, err := a.CallTool(context.Background(), "fs_write", args, yes); err != nil || !out.Ran {
		t.Fatalf("fs_write approved: %+v, %v", out, err)
	}
	if v := a.Check("shell_exec", []byte(`{"command":"rm -rf /"}`)); v.Decision != gate.Block {
		t.Fatalf("rm -rf / verdict %+v", v)
	}
}

func TestStartedAndUnload(t *testing.T) {
	a := openTest(t)
	m := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, m, "m")
	m.Reply(providertest.ToolCall("calc_eval", `{"expression":"1+1"}`))
	m.Reply(providertest.Text("2"))
	var started store.ID
	id, err := a.Turn(context.Background(), 0, "1+1?", TurnOptions{Started: func(id store.ID) { started = id }})
	if err != nil {
		t.Fatal(err)
	}
	if started == 0 || started != id {
		t.Fatalf("Started got %s, the turn returned %s", started, id)
	}
	loaded, _ := a.db.Loaded(id)
	if !slices.Contains(loaded, "calc") {
		t.Fatalf("calc not loaded after its call: %q", loaded)
	}
	if err := a.Unload(id, "calc"); err != nil {
		t.Fatal(err)
	}
	loaded, _ = a.db.Loaded(id)
	if slices.Contains(loaded, "calc") {
		t.Fatalf("calc still loaded: %q", loaded)
	}
	if err := a.Unload(id, "calc"); !errors.Is(err, ErrNotLoaded) {
		t.Fatalf("unloading twice: %v", err)
	}
}
