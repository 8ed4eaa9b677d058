package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

// holdWorkspace opens ws as the window would and, when h is not nil,
// serves h on its socket until the test ends.
func holdWorkspace(t *testing.T, ws string, serve func(app *assistant.App) assistant.Handler) *assistant.App {
	t.Helper()
	app, err := assistant.Open(assistant.Options{Workspace: ws, LockTimeout: lockTimeout})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() {
		cancel()
		app.Close()
	})
	if serve != nil {
		if err := app.Serve(ctx, serve(app)); err != nil {
			t.Fatal(err)
		}
	}
	return app
}

// A second process's commands run inside the one that holds the
// workspace, with piped standard input, and change its live state.
func TestForwardedCommands(t *testing.T) {
	ws := workspaceWith(t)
	app := holdWorkspace(t, ws, serveHandler)

	code, out, errOut := cli(t, ws, "caps", "list")
	if code != 0 || !strings.Contains(out, "recipes") || !strings.Contains(out, "tool-discovery") {
		t.Fatalf("caps list: %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := cli(t, ws, "config", "set", "model", "m9"); code != 0 || !strings.Contains(out, "Saved model = m9") {
		t.Fatalf("config set: %d %s %s", code, out, errOut)
	}
	if got := app.Model().Model; got != "m9" {
		t.Errorf("the running app's model is %q, want m9 (live)", got)
	}
	code, out, errOut = chatCLI(t, ws, "sk-piped-secret-value\n", nil, "secrets", "set", "openai_api_key")
	if code != 0 || !strings.Contains(out, "Saved secret openai_api_key") {
		t.Fatalf("secrets set: %d %s %s", code, out, errOut)
	}
	if !app.HasSecret("openai_api_key") {
		t.Error("the secret did not reach the running app")
	}
	// Errors come back with their hint and exit code.
	code, _, errOut = cli(t, ws, "caps", "show", "recipe")
	if code != 1 || !strings.Contains(errOut, "did you mean recipes") {
		t.Errorf("caps show recipe: %d %s", code, errOut)
	}
	code, _, errOut = cli(t, ws, "caps", "remove", "calc")
	if code != 1 || !strings.HasSuffix(errOut, "  → wrasse caps disable calc\n") {
		t.Errorf("caps remove calc: %d %s", code, errOut)
	}
	// Usage errors are found before anything is forwarded, and so is help.
	if code, _, errOut := cli(t, ws, "caps", "show"); code != exitUsage || !strings.Contains(errOut, "Run 'wrasse caps show --help'") {
		t.Errorf("usage: %d %s", code, errOut)
	}
}

// Relative paths in a forwarded command are relative to the client's
// folder, not the server's.
func TestForwardedRelativePath(t *testing.T) {
	ws := t.TempDir()
	holdWorkspace(t, ws, serveHandler)
	src := t.TempDir()
	write(t, filepath.Join(src, "haiku", "SKILL.md"), "---\nname: haiku\ndescription: Write haiku.\n---\nFive, seven, five.\n")
	var out, errb bytes.Buffer
	req := assistant.Request{Args: []string{"caps", "install", "haiku"}, Dir: src}
	code, err := assistant.Forward(t.Context(), workspace.Workspace{Root: ws}, req, &out, &errb)
	if err != nil || code != 0 || !strings.Contains(out.String(), "Installed haiku") {
		t.Fatalf("install: %d %v\n%s%s", code, err, out.String(), errb.String())
	}
}

// A forwarded command whose client goes away (Ctrl+C) is cancelled: the
// turn stops waiting for the model and the handler returns.
func TestForwardedCommandCancelledWhenClientLeaves(t *testing.T) {
	m := providertest.NewModel(t, providertest.OpenAI)
	m.Reply(providertest.Text("Thinking"), providertest.Hold())
	ws := t.TempDir()
	done := make(chan int, 1)
	app := holdWorkspace(t, ws, func(app *assistant.App) assistant.Handler {
		h := serveHandler(app)
		return func(ctx context.Context, req assistant.Request, stdout, stderr io.Writer) int {
			code := h(ctx, req, stdout, stderr)
			done <- code
			return code
		}
	})
	if _, err := app.SetConfig("baseURL", m.BaseURL()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	client := make(chan int, 1)
	go func() {
		var out, errb bytes.Buffer
		getenv := func(k string) string {
			if k == "WRASSE_HOME" {
				return ws
			}
			return ""
		}
		client <- run(ctx, []string{"chat", "hello"}, stdio{in: strings.NewReader(""), out: &out, err: &errb}, getenv)
	}()
	<-m.Waiting() // the turn is streaming inside the serving app
	cancel()
	if code := <-client; code != 130 {
		t.Errorf("client exit %d, want 130", code)
	}
	if code := <-done; code == 0 {
		t.Errorf("the cancelled command reported success")
	}
	events, err := app.History().Events(store.ID(1))
	if err != nil || len(events) == 0 {
		t.Fatalf("events: %v %v", events, err)
	}
}

// With the workspace held and no socket answering (another CLI command is
// running), a command says so within the lock timeout instead of hanging;
// a command that could not run through the holder says what to do.
func TestWorkspaceHeldWithoutSocket(t *testing.T) {
	ws := t.TempDir()
	holdWorkspace(t, ws, nil)
	code, _, errOut := cli(t, ws, "caps", "list")
	if code != 1 || !strings.Contains(errOut, "another wrasse command is using this workspace right now") {
		t.Errorf("caps list: %d %s", code, errOut)
	}
	code, _, errOut = cli(t, ws, "caps", "watch")
	if code != 1 || !strings.Contains(errOut, "Wrasse is already open with this workspace. It already watches") {
		t.Errorf("caps watch: %d %s", code, errOut)
	}
}

// Commands that cannot run inside the running Wrasse are refused there
// with what to do, even if a client sends them.
func TestServeHandlerRefusesWatch(t *testing.T) {
	ws := t.TempDir()
	app := holdWorkspace(t, ws, nil)
	var out, errb bytes.Buffer
	code := serveHandler(app)(t.Context(), assistant.Request{Args: []string{"caps", "watch"}}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "close it to watch from here") {
		t.Errorf("watch: %d %s", code, errb.String())
	}
	out.Reset()
	errb.Reset()
	code = serveHandler(app)(t.Context(), assistant.Request{Args: []string{"caps", "--help"}}, &out, &errb)
	if code != 0 || !strings.HasPrefix(out.String(), "Usage: wrasse caps COMMAND") {
		t.Errorf("help: %d %s", code, out.String())
	}
}

// A long CLI command (a chat waiting for its model) holds the workspace
// and serves other wrasse commands meanwhile.
func TestLongCommandServesOthers(t *testing.T) {
	m := providertest.NewModel(t, providertest.OpenAI)
	m.Reply(providertest.Text("Thinking"), providertest.Hold())
	ws := t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	chat := make(chan int, 1)
	go func() {
		getenv := func(k string) string {
			if k == "WRASSE_HOME" {
				return ws
			}
			return ""
		}
		chat <- run(ctx, []string{"chat", "--base-url", m.BaseURL(), "hello"}, stdio{in: strings.NewReader(""), out: io.Discard, err: io.Discard}, getenv)
	}()
	<-m.Waiting()
	code, out, errOut := cli(t, ws, "conversations", "list")
	if code != 0 || !strings.Contains(out, "c1") || !strings.Contains(out, "hello") {
		t.Errorf("conversations list through the chat: %d\n%s%s", code, out, errOut)
	}
	// `wrasse` alone cannot bring a window forward: it says why.
	var errb bytes.Buffer
	code, err := assistant.Forward(t.Context(), workspace.Workspace{Root: ws}, assistant.Request{}, io.Discard, &errb)
	if err != nil || code != exitFail || !strings.Contains(errb.String(), "no window can open now") {
		t.Errorf("show the window: %d %v %s", code, err, errb.String())
	}
	cancel()
	<-chat
	// The chat has released the workspace: this opens it here.
	if code, _, errOut := cli(t, ws, "caps", "list", "--no-check"); code != 0 {
		t.Errorf("after the chat: %d %s", code, errOut)
	}
}
