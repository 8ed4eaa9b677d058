package agent_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/cerebellum"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/history"
	"github.com/wrasse-app/wrasse/brain/provider/openai"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins"
)

// sseServer speaks OpenAI's streaming Chat Completions: each request gets
// the next scripted body; request bodies are kept.
type sseServer struct {
	mu      sync.Mutex
	bodies  []map[string]any
	replies []string
	url     string
}

func newSSEServer(t *testing.T, replies ...string) *sseServer {
	s := &sseServer{replies: replies}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Errorf("request body: %v", err)
		}
		s.mu.Lock()
		n := len(s.bodies)
		s.bodies = append(s.bodies, body)
		s.mu.Unlock()
		if n >= len(s.replies) {
			t.Errorf("unexpected request %d", n+1)
			http.Error(w, `{"error":{"message":"no reply","type":"invalid_request_error"}}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, s.replies[n])
	}))
	t.Cleanup(srv.Close)
	s.url = srv.URL + "/v1"
	return s
}

func (s *sseServer) requests() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]map[string]any(nil), s.bodies...)
}

func chunk(delta string, finish string) string {
	fin := "null"
	if finish != "" {
		fin = `"` + finish + `"`
	}
	return fmt.Sprintf(`data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1741569952,"model":"m","choices":[{"index":0,"delta":%s,"finish_reason":%s}]}`+"\n\n", delta, fin)
}

const usageChunk = `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1741569952,"model":"m","choices":[],"usage":{"prompt_tokens":50,"completion_tokens":7,"total_tokens":57}}` + "\n\ndata: [DONE]\n\n"

// SSEText is a streamed text answer.
func SSEText(parts ...string) string {
	var b strings.Builder
	b.WriteString(chunk(`{"role":"assistant","content":""}`, ""))
	for _, p := range parts {
		q, _ := json.Marshal(p)
		b.WriteString(chunk(`{"content":`+string(q)+`}`, ""))
	}
	b.WriteString(chunk(`{}`, "stop"))
	b.WriteString(usageChunk)
	return b.String()
}

// SSEToolCall is one tool call, its arguments split across two chunks.
func SSEToolCall(id, name, args string) string {
	half := len(args) / 2
	a1, _ := json.Marshal(args[:half])
	a2, _ := json.Marshal(args[half:])
	var b strings.Builder
	b.WriteString(chunk(`{"role":"assistant","content":null}`, ""))
	b.WriteString(chunk(fmt.Sprintf(`{"tool_calls":[{"index":0,"id":%q,"type":"function","function":{"name":%q,"arguments":""}}]}`, id, name), ""))
	b.WriteString(chunk(`{"tool_calls":[{"index":0,"function":{"arguments":`+string(a1)+`}}]}`, ""))
	b.WriteString(chunk(`{"tool_calls":[{"index":0,"function":{"arguments":`+string(a2)+`}}]}`, ""))
	b.WriteString(chunk(`{}`, "tool_calls"))
	b.WriteString(usageChunk)
	return b.String()
}

// A whole turn over the real OpenAI wire format and provider, calling the
// real built-in system plugin through the real plugin host, then a native
// history tool (not core: loaded by the call itself).
func TestTurnOverOpenAIWire(t *testing.T) {
	srv := newSSEServer(t,
		SSEToolCall("call_sys", "system_info", `{}`),
		SSEToolCall("call_hist", "history_search", `{"query":"computer"}`),
		SSEText("You run ", runtime.GOOS, "."),
	)
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
	prov, err := openai.New(openai.Config{BaseURL: srv.url, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	a, err := agent.New(agent.Options{Registry: reg, Store: db, Provider: prov, Approver: gate.DenyAll{}, Model: "m",
		Facts: agent.Facts{OS: runtime.GOOS}})
	if err != nil {
		t.Fatal(err)
	}
	s := &sink{}
	id, err := a.Turn(t.Context(), 0, "Which computer is this?", s)
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

	reqs := srv.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	toolsOf := func(body map[string]any) []string {
		var names []string
		tools, _ := body["tools"].([]any)
		for _, tl := range tools {
			fn := tl.(map[string]any)["function"].(map[string]any)
			names = append(names, fn["name"].(string))
		}
		return names
	}
	if names := toolsOf(reqs[0]); !slices.Contains(names, "system_info") || slices.Contains(names, "history_read") {
		t.Errorf("first request tools %q", names)
	}
	if names := toolsOf(reqs[2]); !slices.Contains(names, "history_read") {
		t.Errorf("history was called but not loaded: %q", names)
	}
	msgs := reqs[1]["messages"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)
	if last["role"] != "tool" || last["tool_call_id"] != "call_sys" || !strings.Contains(fmt.Sprint(last["content"]), "arch: "+runtime.GOARCH) {
		t.Errorf("tool message sent back: %v", last)
	}
	if first := msgs[0].(map[string]any); first["role"] != "system" || !strings.Contains(fmt.Sprint(first["content"]), "<capabilities>") {
		t.Errorf("system message %v", first)
	}
}
