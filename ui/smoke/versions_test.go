//go:build smoke

package smoke

import (
	"context"
	"encoding/json"
	"maps"
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

// Where the buttons of the first message and its reply are in a 1280×800
// screen (`make smoke`'s Xvfb), the window at its first size. Measured on
// screenshots; the checks below read the database, so a layout change
// that moves them fails plainly.
var (
	regenerateAt = env2("REGEN_XY", "1029", "180") // the reply's Regenerate
	previousAt   = env2("PREV_XY", "816", "101")   // the message's ‹
)

func env2(name, x, y string) [2]string {
	if v := strings.Fields(os.Getenv(name)); len(v) == 2 {
		return [2]string{v[0], v[1]}
	}
	return [2]string{x, y}
}

// TestWindowSwitchesVersionsAfterRegenerate: in the real window,
// Regenerate keeps the first reply as version 1 of the message, and the
// message's ‹ brings it back; a second Regenerate makes version 3, and ‹
// shows version 2 again. The database holds what the window shows.
func TestWindowSwitchesVersionsAfterRegenerate(t *testing.T) {
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
	model.Reply(providertest.Text("Ferns are old."))
	model.Reply(providertest.Text("Ferns are very old: 360 million years."))
	model.Reply(providertest.Text("Older than the dinosaurs."))

	ws := t.TempDir()
	cfg, _ := json.Marshal(map[string]any{"provider": "openai", "baseURL": model.BaseURL(), "model": "test-model",
		"folders": []string{t.TempDir()}})
	if err := os.WriteFile(filepath.Join(ws, "config.json"), cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local/share"), "OPENAI_API_KEY=sk-smoke", "LANG=en_US.UTF-8")
	app := exec.Command(bin, "--workspace", ws)
	app.Env = env
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
	}()
	win := strings.Fields(xdo(t, ctx, "search", "--sync", "--onlyvisible", "--name", "^Wrasse$"))
	if len(win) == 0 {
		t.Fatal("no Wrasse window appeared")
	}
	xdo(t, ctx, "windowfocus", "--sync", win[0])
	waitFor(t, ctx, "the window to paint", func() bool { return nonBlank(t, ctx) })
	xdo(t, ctx, "type", "--delay", "15", "How old are ferns?")
	xdo(t, ctx, "key", "Return")
	show := func() string {
		out, _ := wrasseCLI(ctx, bin, env, ws, "conversations", "show", "1")
		return out
	}
	waitFor(t, ctx, "the first reply", func() bool { return strings.Contains(show(), "Ferns are old.") })
	time.Sleep(500 * time.Millisecond) // the reply's buttons paint after it is stored
	versionShot(t, ctx, "versions-1-first.png")

	xdo(t, ctx, "mousemove", "--sync", regenerateAt[0], regenerateAt[1], "click", "1")
	waitFor(t, ctx, "the regenerated reply", func() bool { return strings.Contains(show(), "360 million years") })
	time.Sleep(500 * time.Millisecond)
	versionShot(t, ctx, "versions-2-regenerated.png")
	if out := show(); strings.Contains(out, "Ferns are old.") {
		t.Fatalf("after Regenerate the conversation still shows the first reply:\n%s", out)
	}

	xdo(t, ctx, "mousemove", "--sync", previousAt[0], previousAt[1], "click", "1")
	waitFor(t, ctx, "version 1 again", func() bool {
		out := show()
		return strings.Contains(out, "Ferns are old.") && !strings.Contains(out, "360 million years")
	})
	time.Sleep(500 * time.Millisecond)
	versionShot(t, ctx, "versions-3-switched.png")

	// A third version from there, then back to the second: ‹ 2 / 3 ›.
	xdo(t, ctx, "mousemove", "--sync", regenerateAt[0], regenerateAt[1], "click", "1")
	waitFor(t, ctx, "the third reply", func() bool { return strings.Contains(show(), "dinosaurs") })
	time.Sleep(500 * time.Millisecond)
	xdo(t, ctx, "mousemove", "--sync", previousAt[0], previousAt[1], "click", "1")
	waitFor(t, ctx, "version 2 again", func() bool {
		out := show()
		return strings.Contains(out, "360 million years") && !strings.Contains(out, "dinosaurs")
	})
	time.Sleep(500 * time.Millisecond)
	versionShot(t, ctx, "versions.png")

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
	core, err := assistant.Open(assistant.Options{Workspace: ws, Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	events, err := core.History().Events(1)
	if err != nil || len(events) == 0 {
		t.Fatalf("events: %v, %v", events, err)
	}
	want := map[uint64]store.Version{events[0].Seq: {N: 2, Of: 3}}
	if got, err := core.History().Versions(1); err != nil || !maps.Equal(got, want) {
		t.Errorf("stored versions %v, %v; want %v", got, err, want)
	}
}

// versionShot saves the screen to $VERSION_SHOTS/name when it is set (a
// picture for the README, not an assertion).
func versionShot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("VERSION_SHOTS")
	if dir == "" {
		return
	}
	if o, err := exec.CommandContext(ctx, "import", "-window", "root", "-crop", "1100x720+0+0", "+repage", filepath.Join(dir, name)).CombinedOutput(); err != nil {
		t.Errorf("screenshot: %v %s", err, o)
	}
}
