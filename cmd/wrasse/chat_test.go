package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
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

// newModel is a fake OpenAI-compatible model server playing replies in
// order, one per request.
func newModel(t *testing.T, replies ...[]providertest.Part) *providertest.Model {
	m := providertest.NewModel(t, providertest.OpenAI)
	for _, r := range replies {
		m.Reply(r...)
	}
	return m
}

func text(pieces ...string) []providertest.Part {
	return []providertest.Part{providertest.Text(pieces...)}
}

func toolCall(name, args string) []providertest.Part {
	return []providertest.Part{providertest.ToolCall(name, args)}
}

func auth(r providertest.Request) string { return r.Header.Get("Authorization") }

func TestChatStreamsAndContinues(t *testing.T) {
	m := newModel(t, text("Hello", " there."), text("Again."))
	ws := t.TempDir()
	env := map[string]string{"OPENAI_API_KEY": "sk-env-key-123"}
	code, out, errOut := chatCLI(t, ws, "", env, "chat", "--send-key", "--base-url", m.BaseURL(), "--model", "m1", "hello", "wrasse")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if out != "Hello there.\n" {
		t.Errorf("stdout %q", out)
	}
	if !strings.Contains(errOut, "(conversation c1; continue with: wrasse chat -c c1") {
		t.Errorf("stderr %q", errOut)
	}
	code, out, errOut = chatCLI(t, ws, "", env, "chat", "--send-key", "-c", "c1", "--base-url", m.BaseURL(), "--model", "m1", "once more")
	if code != 0 || out != "Again.\n" {
		t.Fatalf("exit %d, stdout %q\n%s", code, out, errOut)
	}
	reqs := m.Requests()
	if reqs[0].Model != "m1" || auth(reqs[0]) != "Bearer sk-env-key-123" {
		t.Errorf("first request: model %v, auth %q", reqs[0].Model, auth(reqs[0]))
	}
	msgs := reqs[1].Messages
	if len(msgs) != 3 || msgs[0].Content != "hello wrasse" || msgs[1].Content != "Hello there." || msgs[2].Content != "once more" {
		t.Errorf("second request messages %+v", msgs)
	}
	// Continuing an unknown conversation says so, and how to find one.
	code, _, errOut = chatCLI(t, ws, "", env, "chat", "--send-key", "-c", "c9", "--base-url", m.BaseURL(), "x")
	if code != 1 || !strings.Contains(errOut, "there is no conversation c9") || !strings.Contains(errOut, "→ wrasse conversations list") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

func TestChatMessageFromStdinAndJSON(t *testing.T) {
	m := newModel(t, text("Piped answer."))
	ws := t.TempDir()
	code, out, errOut := chatCLI(t, ws, "a message\nover two lines\n", nil, "chat", "--json", "--base-url", m.BaseURL())
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
	if doc.Conversation != "c1" || len(doc.Events) < 2 || doc.Events[0].Text != "a message\nover two lines\n" ||
		doc.Events[1].Type != "assistant_text" || doc.Events[1].Text != "Piped answer." || doc.Events[1].Status != "" {
		t.Errorf("json %+v", doc)
	}
	if got := m.Requests()[0].Model; got != "llama3.1" {
		t.Errorf("default model %v", got)
	}
}

// Headless (stdin is not a terminal), a call that needs approval is denied
// and the model is told; the terminal shows it compactly.
func TestChatHeadlessDeniesConfirmation(t *testing.T) {
	m := newModel(t, toolCall("shell_exec", `{"command":"sudo ls /root"}`), text("I cannot run that."))
	ws := t.TempDir()
	code, out, errOut := chatCLI(t, ws, "", nil, "chat", "--base-url", m.BaseURL(), "list root's files")
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
	if last := m.Requests()[1].LastMessage(); last.Role != "tool" || !strings.Contains(last.Content, "no one can approve it now") {
		t.Errorf("tool message %+v", last)
	}
}

// A first turn no model answered keeps no conversation, and the CLI points
// to none.
func TestChatUnreachableServer(t *testing.T) {
	url := providertest.ClosedURL(t) + "/v1"
	ws := t.TempDir()
	code, out, errOut := chatCLI(t, ws, "", nil, "chat", "--retries", "0", "--base-url", url, "hello")
	if code != 1 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if out != "" || !strings.Contains(errOut, "wrasse: The model could not answer") || !strings.Contains(errOut, "no model answered at "+url) ||
		strings.Count(errOut, "wrasse:") != 1 || !strings.Contains(errOut, "  → wrasse ") {
		t.Errorf("stderr %q stdout %q", errOut, out)
	}
	if strings.Contains(errOut, "continue with") || strings.Contains(errOut, "c0") {
		t.Errorf("points to a conversation that is not kept:\n%s", errOut)
	}
	code, out, _ = chatCLI(t, ws, "", nil, "conversations", "list")
	if code != 0 || !strings.Contains(out, "No conversations yet") {
		t.Errorf("an empty conversation was left behind: %d\n%s", code, out)
	}
	code, out, _ = chatCLI(t, ws, "", nil, "chat", "--json", "--retries", "0", "--base-url", url, "hello")
	if code != 1 || !strings.Contains(out, `"conversation": null`) {
		t.Errorf("json: %d\n%s", code, out)
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
	for _, args := range [][]string{{"chat"}, {"chat", "--provider", "gemini", "hi"}, {"conversations", "show"},
		{"secrets", "set"}, {"secrets", "set", "NAME", "value-on-the-command-line"}, {"secrets", "frob"}} {
		if code, _, errOut := chatCLI(t, ws, "", nil, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2\n%s", args, code, errOut)
		}
	}
	if code, _, errOut := chatCLI(t, ws, "", nil, "conversations", "show", "yesterday"); code != 2 || !strings.Contains(errOut, "invalid conversation id") {
		t.Errorf("bad id: %d %s", code, errOut)
	}
}

func TestConversationsCommands(t *testing.T) {
	m := newModel(t, text("First answer."), text("Second answer."))
	ws := t.TempDir()
	if code, out, _ := chatCLI(t, ws, "", nil, "conversations", "list"); code != 0 || !strings.Contains(out, "No conversations yet") {
		t.Errorf("empty list: %d %q", code, out)
	}
	for _, msg := range []string{"first question", "second question"} {
		if code, _, errOut := chatCLI(t, ws, "", nil, "chat", "--base-url", m.BaseURL(), "--model", "m2", msg); code != 0 {
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
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) != 2 || list[0].ID != "c2" || list[1].Events < 2 {
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
	if code != 0 || out != "openai_api_key  (sent only to http://localhost:11434)\n" {
		t.Errorf("list %q", out)
	}
	code, out, _ = chatCLI(t, ws, "", nil, "secrets", "list", "--json")
	if code != 0 || strings.TrimSpace(out) != "[\n  \"openai_api_key\"\n]" {
		t.Errorf("list json %q", out)
	}

	m := newModel(t, text("Your key is "+key+"."))
	var all strings.Builder
	code, out, errOut = chatCLI(t, ws, "", map[string]string{"OPENAI_API_KEY": "env-key-loses"}, "chat", "--send-key", "--base-url", m.BaseURL(), "what is my key "+key+"?")
	all.WriteString(out + errOut)
	if code != 0 {
		t.Fatalf("chat: %s", errOut)
	}
	req := m.Requests()[0]
	if auth(req) != "Bearer "+key {
		t.Errorf("auth %q: the stored key comes first", auth(req))
	}
	if strings.Contains(fmt.Sprint(req.Messages), key) {
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
			!strings.Contains(out.String(), "because it runs a command with administrator rights") ||
			!strings.Contains(out.String(), "[o]nce / [c] for this chat, covering every call of shell_exec / [d]eny") {
			t.Errorf("prompt %q", out.String())
		}
	}
	// A call that asks every time offers no approval for the conversation,
	// and an answer of "conversation" approves it once.
	var out bytes.Buffer
	once := req
	once.OnceOnly = true
	p := &promptApprover{in: bufio.NewReader(strings.NewReader("c\n")), out: &out}
	if got, err := p.Approve(t.Context(), once); got != gate.ApproveOnce || err != nil || strings.Contains(out.String(), "for this chat,") ||
		!strings.Contains(out.String(), "asks every time") {
		t.Errorf("once-only: %q %v, prompt %q", got, err, out.String())
	}
	// The prompt names exactly what approving for the chat covers: the
	// command, the host with its full URL.
	for _, tc := range []struct {
		req  gate.Request
		want []string
	}{
		{gate.Request{Tool: "shell_exec", Summary: "shell_exec command=git status", Scope: "this exact command"},
			[]string{"[c] for this chat, covering this exact command /"}},
		{gate.Request{Tool: "web_fetch", Summary: "web_fetch url=https://a.example/x?d=1", HostsOnly: true,
			Reasons: []string{"it reaches a.example, which this chat has not used: https://a.example/x?d=1"},
			Hosts:   []gate.Host{{Name: "a.example", URL: "https://a.example/x?d=1"}}},
			[]string{"wants to reach a host this chat has not used", "because it reaches a.example, which this chat has not used: https://a.example/x?d=1",
				"[c] for this chat, covering the host a.example for the rest of this chat /"}},
		{gate.Request{Tool: "shell_exec", Summary: "shell_exec command=curl https://b.example/", Scope: "this exact command",
			Hosts: []gate.Host{{Name: "b.example", URL: "https://b.example/"}}},
			[]string{"covering this exact command, and the host b.example for the rest of this chat"}},
	} {
		var out bytes.Buffer
		p := &promptApprover{in: bufio.NewReader(strings.NewReader("d\n")), out: &out}
		if _, err := p.Approve(t.Context(), tc.req); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("prompt %q lacks %q", out.String(), w)
			}
		}
	}
	// A cancelled turn does not wait for an answer.
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	p = &promptApprover{in: bufio.NewReader(pr), out: io.Discard}
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

	m := newModel(t, toolCall("shell_exec", `{"command":"sudo ls /root"}`), text("I cannot run that."))
	ws := t.TempDir()
	var out, errb bytes.Buffer
	getenv := func(k string) string {
		if k == "WRASSE_HOME" {
			return ws
		}
		return ""
	}
	code := run(t.Context(), []string{"chat", "--base-url", m.BaseURL(), "list root's files"}, stdio{in: devNull, out: &out, err: &errb}, getenv)
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
	m := newModel(t, text(), text("   "), text("Some text."))
	ws := t.TempDir()
	for i, wantNote := range []bool{true, true, false} {
		code, out, errOut := chatCLI(t, ws, "", nil, "chat", "--base-url", m.BaseURL(), fmt.Sprint("question ", i))
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, errOut)
		}
		if got := strings.Contains(errOut, "(the model returned no text)"); got != wantNote {
			t.Errorf("reply %d: note = %v, want %v\nstdout %q\nstderr %q", i, got, wantNote, out, errOut)
		}
	}
	// JSON output carries the events, not the note.
	m2 := newModel(t, text())
	if _, out, errOut := chatCLI(t, ws, "", nil, "chat", "--json", "--base-url", m2.BaseURL(), "q"); strings.Contains(out+errOut, "returned no text") {
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
	m := newModel(t, toolCall("fs_read", string(args)), text("Read it."))
	code, out, errOut := chatCLI(t, ws, "", map[string]string{"OPENAI_API_KEY": key}, "chat", "--send-key", "--base-url", m.BaseURL(), "read my notes")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	reqs := m.Requests()
	if auth(reqs[0]) != "Bearer "+key {
		t.Errorf("auth %q", auth(reqs[0]))
	}
	last := reqs[1].LastMessage()
	tool := last.Content
	if last.Role != "tool" || !strings.Contains(tool, "OPENAI_API_KEY=[redacted:OPENAI_API_KEY]") || strings.Contains(tool, key) {
		t.Errorf("tool result sent to the model: %q", tool)
	}
	_, shown, _ := chatCLI(t, ws, "", nil, "conversations", "show", "c1", "--json")
	if strings.Contains(shown+out+errOut, key) || !strings.Contains(shown, "[redacted:OPENAI_API_KEY]") {
		t.Errorf("the key was stored or printed:\n%s", shown)
	}
	// A placeholder key is not a secret: words that match it stay.
	m2 := newModel(t, text("ollama answered."))
	if _, out, errOut := chatCLI(t, ws, "", map[string]string{"OPENAI_API_KEY": "ollama"}, "chat", "--send-key", "--base-url", m2.BaseURL(), "hi"); out != "ollama answered.\n" {
		t.Errorf("placeholder redacted: %q %s", out, errOut)
	}
}

// A refused key at a server other than the local Ollama gets advice about
// the key (its hint, as a command), not about starting Ollama.
func TestChatSetupHintForOtherServer(t *testing.T) {
	m := newModel(t, []providertest.Part{providertest.Status(http.StatusUnauthorized, "")})
	ws := t.TempDir()
	code, _, errOut := chatCLI(t, ws, "", map[string]string{"OPENAI_API_KEY": "sk-wrong-key-123456"}, "chat", "--send-key", "--retries", "0", "--base-url", m.BaseURL(), "hi")
	if code != 1 || !strings.HasSuffix(errOut, "\n  → wrasse secrets set openai_api_key\n") || strings.Contains(strings.ToLower(errOut), "ollama") {
		t.Errorf("exit %d:\n%s", code, errOut)
	}
}
