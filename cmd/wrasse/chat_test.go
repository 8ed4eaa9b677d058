package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/wrasse-app/wrasse/brain/gate"
)

// chatCLI runs the command line with stdin and environment variables.
func chatCLI(t *testing.T, ws, stdin string, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	getenv := func(k string) string {
		if k == "WRASSE_HOME" {
			return ws
		}
		return env[k]
	}
	code := run(t.Context(), args, stdio{in: strings.NewReader(stdin), out: &out, err: &errb}, getenv)
	return code, out.String(), errb.String()
}

// openAIServer answers Chat Completions with scripted SSE bodies and keeps
// what it received.
type openAIServer struct {
	mu      sync.Mutex
	replies []string
	bodies  []map[string]any
	auth    []string
	url     string
}

func newOpenAIServer(t *testing.T, replies ...string) *openAIServer {
	s := &openAIServer{replies: replies}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		s.mu.Lock()
		n := len(s.bodies)
		s.bodies = append(s.bodies, body)
		s.auth = append(s.auth, r.Header.Get("Authorization"))
		s.mu.Unlock()
		if r.URL.Path != "/v1/chat/completions" || n >= len(s.replies) {
			t.Errorf("unexpected request %d to %s", n+1, r.URL.Path)
			http.Error(w, `{"error":{"message":"unexpected","type":"invalid_request_error"}}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, s.replies[n])
	}))
	t.Cleanup(srv.Close)
	s.url = srv.URL + "/v1"
	return s
}

func (s *openAIServer) received() ([]map[string]any, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]map[string]any(nil), s.bodies...), append([]string(nil), s.auth...)
}

func sseChunk(delta, finish string) string {
	fin := "null"
	if finish != "" {
		fin = `"` + finish + `"`
	}
	return fmt.Sprintf(`data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":%s,"finish_reason":%s}]}`+"\n\n", delta, fin)
}

func sseText(parts ...string) string {
	var b strings.Builder
	b.WriteString(sseChunk(`{"role":"assistant","content":""}`, ""))
	for _, p := range parts {
		q, _ := json.Marshal(p)
		b.WriteString(sseChunk(`{"content":`+string(q)+`}`, ""))
	}
	b.WriteString(sseChunk(`{}`, "stop") + "data: [DONE]\n\n")
	return b.String()
}

func sseCall(id, name, args string) string {
	q, _ := json.Marshal(args)
	return sseChunk(fmt.Sprintf(`{"role":"assistant","tool_calls":[{"index":0,"id":%q,"type":"function","function":{"name":%q,"arguments":%s}}]}`, id, name, q), "") +
		sseChunk(`{}`, "tool_calls") + "data: [DONE]\n\n"
}

func messagesOf(body map[string]any) []map[string]any {
	var out []map[string]any
	for _, m := range body["messages"].([]any) {
		out = append(out, m.(map[string]any))
	}
	return out
}

func TestChatStreamsAndContinues(t *testing.T) {
	srv := newOpenAIServer(t, sseText("Hello", " there."), sseText("Again."))
	ws := t.TempDir()
	env := map[string]string{"OPENAI_API_KEY": "sk-env-key-123"}
	code, out, errOut := chatCLI(t, ws, "", env, "chat", "--base-url", srv.url, "--model", "m1", "hello", "wrasse")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if out != "Hello there.\n" {
		t.Errorf("stdout %q", out)
	}
	if !strings.Contains(errOut, "(conversation c1; continue with: wrasse chat -c c1") {
		t.Errorf("stderr %q", errOut)
	}
	code, out, errOut = chatCLI(t, ws, "", env, "chat", "-c", "c1", "--base-url", srv.url, "--model", "m1", "once more")
	if code != 0 || out != "Again.\n" {
		t.Fatalf("exit %d, stdout %q\n%s", code, out, errOut)
	}
	bodies, auth := srv.received()
	if bodies[0]["model"] != "m1" || auth[0] != "Bearer sk-env-key-123" {
		t.Errorf("first request: model %v, auth %q", bodies[0]["model"], auth[0])
	}
	msgs := messagesOf(bodies[1])
	if len(msgs) != 4 || msgs[1]["content"] != "hello wrasse" || msgs[2]["content"] != "Hello there." || msgs[3]["content"] != "once more" {
		t.Errorf("second request messages %v", msgs)
	}
	// Continuing an unknown conversation says so.
	code, _, errOut = chatCLI(t, ws, "", env, "chat", "-c", "c9", "--base-url", srv.url, "x")
	if code != 1 || !strings.Contains(errOut, "there is no conversation c9") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

func TestChatMessageFromStdinAndJSON(t *testing.T) {
	srv := newOpenAIServer(t, sseText("Piped answer."))
	ws := t.TempDir()
	code, out, errOut := chatCLI(t, ws, "a message\nover two lines\n", nil, "chat", "--json", "--base-url", srv.url)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var doc struct {
		Conversation string
		Events       []struct{ Type, Text, Status string }
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if doc.Conversation != "c1" || len(doc.Events) != 2 || doc.Events[0].Text != "a message\nover two lines\n" ||
		doc.Events[1].Type != "assistant_text" || doc.Events[1].Text != "Piped answer." || doc.Events[1].Status != "" {
		t.Errorf("json %+v", doc)
	}
	bodies, _ := srv.received()
	if bodies[0]["model"] != "llama3.1" {
		t.Errorf("default model %v", bodies[0]["model"])
	}
}

// Headless (stdin is not a terminal), a call that needs approval is denied
// and the model is told; the terminal shows it compactly.
func TestChatHeadlessDeniesConfirmation(t *testing.T) {
	srv := newOpenAIServer(t, sseCall("call_1", "shell_exec", `{"command":"sudo ls /root"}`), sseText("I cannot run that."))
	ws := t.TempDir()
	code, out, errOut := chatCLI(t, ws, "", nil, "chat", "--base-url", srv.url, "list root's files")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	for _, want := range []string{"→ shell_exec command=sudo ls /root", "denied: no one to ask", "← shell_exec failed: Not run: this call needs the user's approval"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if out != "I cannot run that.\n" {
		t.Errorf("stdout %q", out)
	}
	bodies, _ := srv.received()
	msgs := messagesOf(bodies[1])
	if last := msgs[len(msgs)-1]; last["role"] != "tool" || !strings.Contains(fmt.Sprint(last["content"]), "no one can approve it now") {
		t.Errorf("tool message %v", last)
	}
}

func TestChatUnreachableServer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	ws := t.TempDir()
	code, out, errOut := chatCLI(t, ws, "", nil, "chat", "--retries", "0", "--base-url", "http://"+addr+"/v1", "hello")
	if code != 1 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if out != "" || !strings.Contains(errOut, "wrasse: The model could not answer") || !strings.Contains(errOut, "no model answered at http://"+addr) ||
		strings.Count(errOut, "wrasse:") != 1 {
		t.Errorf("stderr %q stdout %q", errOut, out)
	}
	// The conversation keeps the message and says what happened.
	code, out, _ = chatCLI(t, ws, "", nil, "conversations", "show", "c1")
	if code != 0 || !strings.Contains(out, "[1] user: hello") || !strings.Contains(out, "[2] error: The model could not answer") {
		t.Errorf("show: %d\n%s", code, out)
	}
}

func TestChatAnthropicWithoutKey(t *testing.T) {
	ws := t.TempDir()
	code, _, errOut := chatCLI(t, ws, "", nil, "chat", "--provider", "anthropic", "hi")
	if code != 1 || !strings.Contains(errOut, "No model is set up") || !strings.Contains(errOut, "wrasse secrets set anthropic_api_key") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

func TestChatUsage(t *testing.T) {
	ws := t.TempDir()
	for _, args := range [][]string{{"chat"}, {"chat", "--provider", "gemini", "hi"}, {"conversations"}, {"conversations", "show"},
		{"secrets", "set"}, {"secrets", "set", "NAME", "value-on-the-command-line"}, {"secrets", "frob"}} {
		if code, _, errOut := chatCLI(t, ws, "", nil, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2\n%s", args, code, errOut)
		}
	}
	if code, _, errOut := chatCLI(t, ws, "", nil, "conversations", "show", "yesterday"); code != 1 || !strings.Contains(errOut, "invalid conversation id") {
		t.Errorf("bad id: %d %s", code, errOut)
	}
}

func TestConversationsCommands(t *testing.T) {
	srv := newOpenAIServer(t, sseText("First answer."), sseText("Second answer."))
	ws := t.TempDir()
	if code, out, _ := chatCLI(t, ws, "", nil, "conversations", "list"); code != 0 || !strings.Contains(out, "No conversations yet") {
		t.Errorf("empty list: %d %q", code, out)
	}
	for _, msg := range []string{"first question", "second question"} {
		if code, _, errOut := chatCLI(t, ws, "", nil, "chat", "--base-url", srv.url, "--model", "m2", msg); code != 0 {
			t.Fatalf("chat: %s", errOut)
		}
	}
	code, out, _ := chatCLI(t, ws, "", nil, "conversations", "list")
	if code != 0 || !strings.Contains(out, "ID") || strings.Index(out, "c2") > strings.Index(out, "c1") ||
		!strings.Contains(out, "second question") || !strings.Contains(out, "m2") {
		t.Errorf("list:\n%s", out)
	}
	code, out, _ = chatCLI(t, ws, "", nil, "conversations", "list", "--json")
	var list []struct {
		ID     string `json:"id"`
		Title  string `json:"title"`
		Events int    `json:"events"`
	}
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) != 2 || list[0].ID != "c2" || list[1].Events != 2 {
		t.Errorf("list json %v: %s", err, out)
	}
	code, out, _ = chatCLI(t, ws, "", nil, "conversations", "show", "1")
	if code != 0 || !strings.Contains(out, "c1 — first question") || !strings.Contains(out, "[2] assistant: First answer.") {
		t.Errorf("show:\n%s", out)
	}
	code, out, _ = chatCLI(t, ws, "", nil, "conversations", "show", "c1", "--json")
	if code != 0 || !strings.Contains(out, `"type": "assistant_text"`) {
		t.Errorf("show json:\n%s", out)
	}
	if code, out, _ = chatCLI(t, ws, "", nil, "conversations", "delete", "c1"); code != 0 || !strings.Contains(out, "Deleted conversation c1.") {
		t.Errorf("delete: %d %s", code, out)
	}
	if code, _, errOut := chatCLI(t, ws, "", nil, "conversations", "delete", "c1"); code != 1 || !strings.Contains(errOut, "there is no conversation c1") {
		t.Errorf("delete again: %d %s", code, errOut)
	}
	if _, out, _ = chatCLI(t, ws, "", nil, "conversations", "list"); strings.Contains(out, "first question") {
		t.Errorf("deleted conversation still listed:\n%s", out)
	}
}

// A stored key is used for requests, listed by name only, never printed,
// and redacted from what is stored.
func TestSecretsCommands(t *testing.T) {
	const key = "sk-stored-secret-value-42"
	ws := t.TempDir()
	code, out, errOut := chatCLI(t, ws, key+"\n", nil, "secrets", "set", "openai_api_key")
	if code != 0 || !strings.Contains(out, "Saved secret openai_api_key") {
		t.Fatalf("set: %d %s %s", code, out, errOut)
	}
	if code, _, errOut := chatCLI(t, ws, "", nil, "secrets", "set", "empty_one"); code != 1 || !strings.Contains(errOut, "no value for empty_one") {
		t.Errorf("empty value: %d %s", code, errOut)
	}
	code, out, _ = chatCLI(t, ws, "", nil, "secrets", "list")
	if code != 0 || out != "openai_api_key\n" {
		t.Errorf("list %q", out)
	}
	code, out, _ = chatCLI(t, ws, "", nil, "secrets", "list", "--json")
	if code != 0 || strings.TrimSpace(out) != "[\n  \"openai_api_key\"\n]" {
		t.Errorf("list json %q", out)
	}

	srv := newOpenAIServer(t, sseText("Your key is "+key+"."))
	var all strings.Builder
	code, out, errOut = chatCLI(t, ws, "", map[string]string{"OPENAI_API_KEY": "env-key-loses"}, "chat", "--base-url", srv.url, "what is my key "+key+"?")
	all.WriteString(out + errOut)
	if code != 0 {
		t.Fatalf("chat: %s", errOut)
	}
	if _, auth := srv.received(); auth[0] != "Bearer "+key {
		t.Errorf("auth %q: the stored key comes first", auth[0])
	}
	bodies, _ := srv.received()
	if strings.Contains(fmt.Sprint(bodies[0]["messages"]), key) {
		t.Error("the key reached the prompt")
	}
	_, out, _ = chatCLI(t, ws, "", nil, "conversations", "show", "c1")
	all.WriteString(out)
	if !strings.Contains(out, "[redacted:openai_api_key]") {
		t.Errorf("show:\n%s", out)
	}
	if code, out, _ = chatCLI(t, ws, "", nil, "secrets", "delete", "openai_api_key"); code != 0 || !strings.Contains(out, "Deleted secret openai_api_key") {
		t.Errorf("delete: %d %s", code, out)
	}
	if code, _, errOut := chatCLI(t, ws, "", nil, "secrets", "delete", "openai_api_key"); code != 1 || !strings.Contains(errOut, "there is no secret") {
		t.Errorf("delete again: %d %s", code, errOut)
	}
	// Streamed pieces are redacted too (a value split across pieces can
	// show live on the user's own terminal; the stored reply never has it).
	if strings.Contains(all.String(), key) {
		t.Errorf("the key was printed:\n%s", all.String())
	}
}

func TestPromptApprover(t *testing.T) {
	req := gate.Request{Tool: "shell_exec", Summary: "shell_exec command=sudo ls", Reasons: []string{"runs a command with administrator rights"}}
	tests := []struct {
		in   string
		want gate.Approval
		err  bool
	}{
		{"o\n", gate.ApproveOnce, false},
		{"yes\n", gate.ApproveOnce, false},
		{" C \n", gate.ApproveConversation, false},
		{"d\n", gate.Deny, false},
		{"whatever\n", gate.Deny, false},
		{"o", gate.ApproveOnce, false}, // no newline before EOF
		{"", gate.Deny, true},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		p := &promptApprover{in: bufio.NewReader(strings.NewReader(tt.in)), out: &out}
		got, err := p.Approve(t.Context(), req)
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("answer %q: %q, %v", tt.in, got, err)
		}
		if !strings.Contains(out.String(), "Wrasse wants to run: shell_exec command=sudo ls") ||
			!strings.Contains(out.String(), "because it runs a command with administrator rights") || !strings.Contains(out.String(), "[o]nce / [c]onversation / [d]eny") {
			t.Errorf("prompt %q", out.String())
		}
	}
	// A cancelled turn does not wait for an answer.
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	p := &promptApprover{in: bufio.NewReader(pr), out: io.Discard}
	if got, err := p.Approve(ctx, req); got != gate.Deny || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %q %v", got, err)
	}
}

// Stdin from /dev/null is no terminal (though a character device): the
// chat is headless, and a call that needs approval is denied for that
// reason rather than by a prompt that reads end-of-file.
func TestChatStdinDevNullIsHeadless(t *testing.T) {
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	for _, tt := range []struct {
		name string
		in   any
	}{{"/dev/null", devNull}, {"pipe", pr}, {"reader", strings.NewReader("x")}, {"nil", nil}} {
		if interactive(tt.in) {
			t.Errorf("%s counted as a terminal", tt.name)
		}
	}

	srv := newOpenAIServer(t, sseCall("call_1", "shell_exec", `{"command":"sudo ls /root"}`), sseText("I cannot run that."))
	ws := t.TempDir()
	var out, errb bytes.Buffer
	getenv := func(k string) string {
		if k == "WRASSE_HOME" {
			return ws
		}
		return ""
	}
	code := run(t.Context(), []string{"chat", "--base-url", srv.url, "list root's files"}, stdio{in: devNull, out: &out, err: &errb}, getenv)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "denied: no one to ask for approval") || strings.Contains(errb.String(), "Allow?") {
		t.Errorf("stderr:\n%s", errb.String())
	}
	if out.String() != "I cannot run that.\n" {
		t.Errorf("stdout %q", out.String())
	}
}

// A final answer without text says so instead of printing nothing.
func TestChatEmptyReplyNote(t *testing.T) {
	srv := newOpenAIServer(t, sseText(), sseText("   "), sseText("Some text."))
	ws := t.TempDir()
	for i, wantNote := range []bool{true, true, false} {
		code, out, errOut := chatCLI(t, ws, "", nil, "chat", "--base-url", srv.url, fmt.Sprint("question ", i))
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, errOut)
		}
		if got := strings.Contains(errOut, "(the model returned no text)"); got != wantNote {
			t.Errorf("reply %d: note = %v, want %v\nstdout %q\nstderr %q", i, got, wantNote, out, errOut)
		}
	}
	// JSON output carries the events, not the note.
	srv2 := newOpenAIServer(t, sseText())
	if _, out, errOut := chatCLI(t, ws, "", nil, "chat", "--json", "--base-url", srv2.url, "q"); strings.Contains(out+errOut, "returned no text") {
		t.Errorf("note in --json mode: %s %s", out, errOut)
	}
}

// A key from OPENAI_API_KEY (no stored secret) is used for requests but
// redacted from what is stored and from tool results sent to the model; a
// placeholder too short to be a key is left alone.
func TestChatEnvironmentKeyRedacted(t *testing.T) {
	const key = "sk-env-only-0123456789abcdef"
	ws := t.TempDir()
	notes := filepath.Join(ws, "notes.txt")
	if err := os.WriteFile(notes, []byte("OPENAI_API_KEY="+key+"\nollama is the local server\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal(map[string]string{"path": notes})
	srv := newOpenAIServer(t, sseCall("call_1", "fs_read", string(args)), sseText("Read it."))
	code, out, errOut := chatCLI(t, ws, "", map[string]string{"OPENAI_API_KEY": key}, "chat", "--base-url", srv.url, "read my notes")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	bodies, auth := srv.received()
	if auth[0] != "Bearer "+key {
		t.Errorf("auth %q", auth[0])
	}
	msgs := messagesOf(bodies[1])
	tool := fmt.Sprint(msgs[len(msgs)-1]["content"])
	if msgs[len(msgs)-1]["role"] != "tool" || !strings.Contains(tool, "OPENAI_API_KEY=[redacted:OPENAI_API_KEY]") || strings.Contains(tool, key) {
		t.Errorf("tool result sent to the model: %q", tool)
	}
	_, shown, _ := chatCLI(t, ws, "", nil, "conversations", "show", "c1", "--json")
	if strings.Contains(shown+out+errOut, key) || !strings.Contains(shown, "[redacted:OPENAI_API_KEY]") {
		t.Errorf("the key was stored or printed:\n%s", shown)
	}
	// A placeholder key is not a secret: words that match it stay.
	srv2 := newOpenAIServer(t, sseText("ollama answered."))
	if _, out, errOut := chatCLI(t, ws, "", map[string]string{"OPENAI_API_KEY": "ollama"}, "chat", "--base-url", srv2.url, "hi"); out != "ollama answered.\n" {
		t.Errorf("placeholder redacted: %q %s", out, errOut)
	}
}

// A refused key at a server other than the local Ollama gets advice about
// the configured server, not about starting Ollama.
func TestChatSetupHintForOtherServer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`)
	}))
	defer srv.Close()
	ws := t.TempDir()
	code, _, errOut := chatCLI(t, ws, "", map[string]string{"OPENAI_API_KEY": "sk-wrong-key-123456"}, "chat", "--retries", "0", "--base-url", srv.URL+"/v1", "hi")
	if code != 1 || !strings.Contains(errOut, "Check the provider, base URL, model and API key") || strings.Contains(strings.ToLower(errOut), "ollama") {
		t.Errorf("exit %d:\n%s", code, errOut)
	}
}
