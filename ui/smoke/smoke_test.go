//go:build smoke

package smoke

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
)

var (
	binFlag  = flag.String("wrasse", "", "a built wrasse binary (default: build ./cmd/wrasse)")
	shotFlag = flag.String("screenshot", "", "where to save the screenshot (default: the test's temp folder)")
)

// The reply the fake model streams, in pieces.
var replyPieces = []string{"Hello ", "from the ", "fake model: ", "smoke test passed."}

const message = "hello from xdotool"

func TestWindowChatsWithTheModel(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no $DISPLAY under CI: run this through `make smoke` (xvfb-run)")
		}
		t.Skip("no $DISPLAY: run `make smoke`, which starts Xvfb")
	}
	for _, tool := range []string{"xdotool", "import"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is missing: `make smoke-deps` installs it (%v)", tool, err)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	bin := wrasseBinary(t, ctx)

	model := providertest.NewModel(t, providertest.OpenAI)
	// Text arrives piece by piece, as a real model's does.
	model.SetChunkDelay(30 * time.Millisecond)
	model.Reply(providertest.Text(replyPieces...), providertest.Usage(120, 12))

	ws := t.TempDir()
	cfg, _ := json.Marshal(map[string]any{"provider": "openai", "baseURL": model.BaseURL(), "model": "test-model"})
	if err := os.WriteFile(filepath.Join(ws, "config.json"), cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local/share"), "OPENAI_API_KEY=sk-smoke", "LANG=en_US.UTF-8")

	var appOut bytes.Buffer
	app := exec.Command(bin, "--workspace", ws)
	app.Env = env
	app.Stdout, app.Stderr = &appOut, &appOut
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- app.Wait() }()
	defer func() {
		if app.ProcessState == nil {
			_ = app.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("wrasse output:\n%s", appOut.String())
			if log, err := os.ReadFile(filepath.Join(ws, "logs", "wrasse.log")); err == nil {
				t.Logf("workspace log:\n%s", log)
			}
		}
	}()

	// xdotool --sync waits for the window to be mapped.
	win := strings.Fields(xdo(t, ctx, "search", "--sync", "--onlyvisible", "--name", "^Wrasse$"))
	if len(win) == 0 {
		t.Fatal("no Wrasse window appeared")
	}
	wid := win[0]
	// The composer has the focus when the window opens; give the window
	// the keyboard (there is no window manager under Xvfb to do it).
	xdo(t, ctx, "windowfocus", "--sync", wid)
	waitFor(t, ctx, "the window to paint", func() bool { return nonBlank(t, ctx) })
	xdo(t, ctx, "type", "--delay", "15", message)
	xdo(t, ctx, "key", "Return")

	// The window's Wrasse serves the workspace: ask it through the CLI,
	// as a person would, until the reply is stored in full.
	waitFor(t, ctx, "the reply to be stored", func() bool {
		out, err := wrasseCLI(ctx, bin, env, ws, "conversations", "show", "1")
		return err == nil && strings.Contains(out, strings.Join(replyPieces, "")) && strings.Contains(out, message)
	})
	shot := *shotFlag
	if shot == "" {
		shot = filepath.Join(t.TempDir(), "smoke.png")
	}
	if out, err := exec.CommandContext(ctx, "import", "-window", "root", shot).CombinedOutput(); err != nil {
		t.Errorf("screenshot: %v: %s", err, out)
	} else {
		t.Logf("screenshot saved to %s", shot)
	}

	if got := model.Requests(); len(got) != 1 || got[0].LastMessage().Content != message {
		t.Errorf("the model got %d requests, last message %q; want 1 with %q", len(got), lastText(got), message)
	}

	// SIGTERM quits the app as closing the window does.
	if err := app.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("wrasse exited with %v", err)
		}
	case <-ctx.Done():
		t.Fatal("wrasse did not quit on SIGTERM")
	}
	checkStored(t, ws)
}

// checkStored opens the workspace the app left and finds the exchange.
func checkStored(t *testing.T, ws string) {
	t.Helper()
	core, err := assistant.Open(assistant.Options{Workspace: ws, Retries: -1})
	if err != nil {
		t.Fatalf("the app left the workspace locked or broken: %v", err)
	}
	defer core.Close()
	convs, err := core.History().ListConversations()
	if err != nil || len(convs) != 1 {
		t.Fatalf("conversations: %d, %v; want 1", len(convs), err)
	}
	events, err := core.History().Events(convs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	var user, reply string
	for _, e := range events {
		switch e.Type {
		case store.EventUserMessage:
			user = e.Text
		case store.EventAssistantText:
			reply += e.Text
		}
	}
	if user != message || reply != strings.Join(replyPieces, "") {
		t.Errorf("stored user %q, reply %q; want %q, %q", user, reply, message, strings.Join(replyPieces, ""))
	}
}

func wrasseBinary(t *testing.T, ctx context.Context) string {
	t.Helper()
	if *binFlag != "" {
		p, err := filepath.Abs(*binFlag)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	bin := filepath.Join(t.TempDir(), "wrasse")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/wrasse-app/wrasse/cmd/wrasse")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build wrasse: %v\n%s", err, out)
	}
	return bin
}

func xdo(t *testing.T, ctx context.Context, args ...string) string {
	t.Helper()
	out, err := exec.CommandContext(ctx, "xdotool", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("xdotool %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func wrasseCLI(ctx context.Context, bin string, env []string, ws string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, bin, append([]string{"--workspace", ws}, args...)...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// nonBlank reports whether the screen shows more than one colour: the
// window has painted.
func nonBlank(t *testing.T, ctx context.Context) bool {
	out, err := exec.CommandContext(ctx, "import", "-window", "root", "-colors", "8", "-format", "%k", "info:").Output()
	if err != nil {
		return false
	}
	return strings.TrimSpace(string(out)) != "1"
}

// waitFor polls cond until it holds or ctx ends. Polling is how a test
// learns what another process did; no assertion depends on how long it
// took.
func waitFor(t *testing.T, ctx context.Context, what string, cond func() bool) {
	t.Helper()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("gave up waiting for %s: %v", what, ctx.Err())
		case <-tick.C:
		}
	}
}

func lastText(reqs []providertest.Request) string {
	if len(reqs) == 0 {
		return ""
	}
	return reqs[len(reqs)-1].LastMessage().Content
}
