//go:build smoke

package smoke

import (
	"os"
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
	requireDisplay(t)
	ctx, bin := begin(t, 4*time.Minute)
	model := providertest.NewModel(t, providertest.OpenAI)
	model.Reply(providertest.Text("Checking the build folder first."), providertest.ToolCall("shell_exec", `{"command":"rm -r build"}`))
	model.Reply(providertest.Text("Cleaned the build folder."))
	files := t.TempDir()
	if err := os.MkdirAll(filepath.Join(files, "build"), 0o755); err != nil {
		t.Fatal(err)
	}
	ws := newWorkspace(t, openAIConfig(model.BaseURL(), files))
	env := privateEnv(t, "OPENAI_API_KEY=sk-smoke")
	if o, err := wrasseCLI(ctx, bin, env, ws, "tasks", "add", "Tidy build", "--schedule", "every 1m",
		"--prompt", "Clean the build folder in "+files+"."); err != nil {
		t.Fatalf("tasks add: %v %s", err, o)
	}
	launch(t, ctx, bin, env, ws)
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
	click(t, ctx, "100", "200")
	time.Sleep(time.Second) // let the conversation paint; a click, not an assertion
	if p := *shotFlag; p != "" {
		shot(t, ctx, p)
	}
	click(t, ctx, "350", "519")
	waitFor(t, ctx, "the run to finish", func() bool { return strings.Contains(history(), "done") })
	if _, err := os.Stat(filepath.Join(files, "build")); !os.IsNotExist(err) {
		t.Fatalf("the approved command did not run: %v", err)
	}
}
