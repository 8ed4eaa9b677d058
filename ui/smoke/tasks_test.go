//go:build smoke

package smoke

import (
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

// TestWindowRunsScheduledTask is issue 28's real-window check: a task
// added from the CLI runs at its time while the window is open, its run
// is a conversation under the task in the sidebar, a call that needs
// approval waits there (the history says waiting, forwarded through the
// window), and the person's Approve finishes it. The schedule is every
// minute, so the test waits up to a minute for the first due time.
func TestWindowRunsScheduledTask(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		t.Skip("needs a display: run under xvfb-run")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	bin := wrasseBinary(t, ctx)
	model := providertest.NewModel(t, providertest.OpenAI)
	model.Reply(providertest.Text("Checking the build folder first."), providertest.ToolCall("shell_exec", `{"command":"rm -r build"}`))
	model.Reply(providertest.Text("Cleaned the build folder."))
	files := t.TempDir()
	if err := os.MkdirAll(filepath.Join(files, "build"), 0o755); err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	cfg, _ := json.Marshal(map[string]any{"provider": "openai", "baseURL": model.BaseURL(), "model": "test-model", "folders": []string{files}})
	if err := os.WriteFile(filepath.Join(ws, "config.json"), cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "OPENAI_API_KEY=sk-smoke", "LANG=en_US.UTF-8")
	if o, err := wrasseCLI(ctx, bin, env, ws, "tasks", "add", "Tidy build", "--schedule", "every 1m",
		"--prompt", "Clean the build folder in "+files+"."); err != nil {
		t.Fatalf("tasks add: %v %s", err, o)
	}
	app := exec.Command(bin, "--workspace", ws)
	app.Env = env
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	defer app.Process.Kill()
	wid := xdo(t, ctx, "search", "--sync", "--onlyvisible", "--name", "^Wrasse$")
	xdo(t, ctx, "windowfocus", "--sync", strings.TrimSpace(wid))
	waitFor(t, ctx, "the window to paint", func() bool { return nonBlank(t, ctx) })
	history := func() string {
		o, _ := wrasseCLI(ctx, bin, env, ws, "tasks", "history", "Tidy build")
		return o
	}
	waitFor(t, ctx, "the run to wait for approval", func() bool { return strings.Contains(history(), "waiting") })
	if len(model.Requests()) != 1 {
		t.Fatalf("%d model requests while the run waits, want 1", len(model.Requests()))
	}
	// The run is the first row under the task's heading; the approval
	// card's Approve is the first button of the card (as laid out at the
	// window's default size).
	xdo(t, ctx, "mousemove", "--sync", "100", "200", "click", "1")
	time.Sleep(time.Second) // let the conversation paint; a click, not an assertion
	if p := *shotFlag; p != "" {
		if o, err := exec.CommandContext(ctx, "import", "-window", "root", "-crop", "1100x720+0+0", "+repage", p).CombinedOutput(); err != nil {
			t.Fatalf("screenshot: %v %s", err, o)
		}
	}
	xdo(t, ctx, "mousemove", "--sync", "350", "519", "click", "1")
	waitFor(t, ctx, "the run to finish", func() bool { return strings.Contains(history(), "done") })
	if _, err := os.Stat(filepath.Join(files, "build")); !os.IsNotExist(err) {
		t.Fatalf("the approved command did not run: %v", err)
	}
}
