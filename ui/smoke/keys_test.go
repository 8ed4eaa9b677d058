//go:build smoke

package smoke

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// The real window starts with its tray icon put up (under Xvfb no tray
// host answers, which must not stop it), and Ctrl+Enter on the keyboard
// approves the waiting call once: the command runs and its result, a
// failure with its exit code, goes back to the model.
func TestWindowApprovesWithTheKeyboard(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no $DISPLAY under CI: run this through `make smoke` (xvfb-run)")
		}
		t.Skip("no $DISPLAY: run `make smoke`, which starts Xvfb")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	bin := wrasseBinary(t, ctx)

	model := providertest.NewModel(t, providertest.OpenAI)
	model.Reply(providertest.ToolCall("shell_exec", `{"command":"cat no-such-file.txt"}`))
	model.Reply(providertest.Text("The file is not there."))

	ws := t.TempDir()
	cfg, _ := json.Marshal(map[string]any{"provider": "openai", "baseURL": model.BaseURL(), "model": "test-model",
		"folders": []string{t.TempDir()}})
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
	defer func() {
		_ = app.Process.Kill()
		_ = app.Wait()
		if t.Failed() {
			t.Logf("wrasse output:\n%s", appOut.String())
		}
	}()
	win := strings.Fields(xdo(t, ctx, "search", "--sync", "--onlyvisible", "--name", "^Wrasse$"))
	if len(win) == 0 {
		t.Fatal("no Wrasse window appeared")
	}
	xdo(t, ctx, "windowfocus", "--sync", win[0])
	waitFor(t, ctx, "the window to paint", func() bool { return nonBlank(t, ctx) })
	xdo(t, ctx, "type", "--delay", "15", "show me the file")
	xdo(t, ctx, "key", "Return")
	waitFor(t, ctx, "the call", func() bool { return len(model.Requests()) >= 1 })
	// The approval card comes once the call is streamed and checked; the
	// key is pressed until the model hears back (a press before the card
	// finds nothing to approve).
	waitFor(t, ctx, "the approved call's result", func() bool {
		if len(model.Requests()) >= 2 {
			return true
		}
		xdo(t, ctx, "key", "ctrl+Return")
		time.Sleep(300 * time.Millisecond)
		return len(model.Requests()) >= 2
	})
	result := model.Requests()[1].LastMessage()
	if result.Role != "tool" || !strings.Contains(result.Content, "exit code: 1") {
		t.Fatalf("the model got %q (%s) back; want the approved command's failure with its exit code", result.Content, result.Role)
	}
}
