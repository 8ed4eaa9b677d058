package agent_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/cerebellum"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/history"
	"github.com/wrasse-app/wrasse/brain/provider/openai"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins"
)

// A whole turn over the real OpenAI wire format and provider, calling the
// real built-in system plugin through the real plugin host, then a native
// history tool (not core: loaded by the call itself).
func TestTurnOverOpenAIWire(t *testing.T) {
	srv := providertest.NewModel(t, providertest.OpenAI)
	srv.Reply(providertest.ToolCall("system_info", `{}`).WithID("call_sys"), providertest.Usage(50, 7))
	srv.Reply(providertest.ToolCall("history_search", `{"query":"computer"}`).WithID("call_hist"), providertest.Usage(50, 7))
	srv.Reply(providertest.Text("You run ", runtime.GOOS, "."), providertest.Usage(50, 7))
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "brain", "cerebellum"), 0o700); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(filepath.Join(ws, "wrasse.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	host := plugins.NewHost(plugins.Options{Secrets: db.Secret})
	reg, err := cerebellum.Open(cerebellum.Options{Builtin: builtin.FS(), Workspace: ws, States: db,
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: host},
		Native:  map[string]cerebellum.Runtime{history.Name: history.New(db)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	if c, _ := reg.Get("history"); c == nil || !c.Usable() || c.Core {
		t.Fatalf("history capability: %+v", c)
	}
	prov, err := openai.New(openai.Config{BaseURL: srv.BaseURL(), Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	a, err := agent.New(agent.Options{Registry: reg, Store: db, Provider: prov, Approver: gate.DenyAll{}, Model: "m",
		Facts: agent.Facts{OS: runtime.GOOS}})
	if err != nil {
		t.Fatal(err)
	}
	s := &sink{}
	id, err := a.Turn(t.Context(), newConv(t, db), "Which computer is this?", s)
	if err != nil {
		t.Fatal(err)
	}
	ev := events(t, db, id)
	want := []string{"user_message", "tool_call:system_info", "usage", "tool_result:system_info",
		"tool_call:history_search", "usage", "tool_result:history_search", "assistant_text", "usage"}
	if got := kinds(ev); !slices.Equal(got, want) {
		t.Fatalf("events %q\nwant   %q\n%+v", got, want, ev)
	}
	if !strings.Contains(ev[3].Text, "arch: "+runtime.GOARCH) {
		t.Errorf("system_info result %q", ev[3].Text)
	}
	if !strings.Contains(ev[6].Text, "(this conversation)") {
		t.Errorf("history_search result %q", ev[6].Text)
	}
	if ev[7].Text != "You run "+runtime.GOOS+"." || ev[2].Usage.InputTokens != 50 {
		t.Errorf("reply %q usage %+v", ev[7].Text, ev[2].Usage)
	}
	checkSink(t, db, id, s, 0)

	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	if names := reqs[0].ToolNames(); !slices.Contains(names, "system_info") || slices.Contains(names, "history_read") {
		t.Errorf("first request tools %q", names)
	}
	if names := reqs[2].ToolNames(); !slices.Contains(names, "history_read") {
		t.Errorf("history was called but not loaded: %q", names)
	}
	if last := reqs[1].LastMessage(); last.Role != "tool" || last.ToolCallID != "call_sys" || !strings.Contains(last.Content, "arch: "+runtime.GOARCH) {
		t.Errorf("tool message sent back: %+v", last)
	}
	// The system prompt travels as the first message on this wire.
	msgs, _ := reqs[1].JSON["messages"].([]any)
	if first, _ := msgs[0].(map[string]any); first["role"] != "system" || !strings.Contains(fmt.Sprint(first["content"]), "<capabilities>") {
		t.Errorf("system message %v", first)
	}
}
