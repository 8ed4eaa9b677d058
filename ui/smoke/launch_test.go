//go:build smoke

package smoke

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// The helpers every real-window test shares: the smoke tests (tag smoke)
// and the screenshot generators (tags smoke and screenshots) start the
// window the same way, so a change to how it is started is made once.

var (
	binFlag  = flag.String("wrasse", "", "a built wrasse binary (default: build ./cmd/wrasse)")
	shotFlag = flag.String("screenshot", "", "where to save the screenshot (default: the test's temp folder)")
)

// requireDisplay skips the test without $DISPLAY, or fails it under CI,
// where a missing display means the test was not run through xvfb-run;
// it fails when xdotool, import or one of tools is not installed.
func requireDisplay(t *testing.T, tools ...string) {
	t.Helper()
	if os.Getenv("DISPLAY") == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no $DISPLAY under CI: run this through `make smoke` (xvfb-run)")
		}
		t.Skip("no $DISPLAY: run `make smoke`, which starts Xvfb")
	}
	for _, tool := range append([]string{"xdotool", "import"}, tools...) {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is missing: `make smoke-deps` installs it (%v)", tool, err)
		}
	}
}

// openAIConfig is a workspace configuration for the fake OpenAI model at
// baseURL, with folders granted when given (a granted folder keeps the
// first run's folder offer out of the window).
func openAIConfig(baseURL string, folders ...string) map[string]any {
	cfg := map[string]any{"provider": "openai", "baseURL": baseURL, "model": "test-model"}
	if len(folders) > 0 {
		cfg["folders"] = folders
	}
	return cfg
}

// newWorkspace is a new workspace folder holding cfg as its config.json.
func newWorkspace(t *testing.T, cfg map[string]any) string {
	t.Helper()
	ws := t.TempDir()
	writeConfig(t, ws, cfg)
	return ws
}

func writeConfig(t *testing.T, ws string, cfg map[string]any) {
	t.Helper()
	data, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "config.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// privateEnv is the environment of a window and its CLI with a home of
// their own, so no preference or setting of the person running the test
// is read or changed; extra (an API key, FYNE_THEME, …) is added.
func privateEnv(t *testing.T, extra ...string) []string {
	home := t.TempDir()
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local/share"), "LANG=en_US.UTF-8")
	return append(env, extra...)
}

// window is a running wrasse window.
type window struct {
	bin, ws string
	env     []string
	wid     string // the X window's id
	app     *exec.Cmd
	out     bytes.Buffer
	exited  chan error
	done    bool
}

// launch starts bin's window on workspace ws, gives it the keyboard and
// waits for its first paint. The window is killed when the test ends
// (or by stop); if the test failed, its output and the workspace's log
// are logged.
func launch(t *testing.T, ctx context.Context, bin string, env []string, ws string) *window {
	t.Helper()
	w := &window{bin: bin, ws: ws, env: env, exited: make(chan error, 1)}
	w.app = exec.Command(bin, "--workspace", ws)
	w.app.Env = env
	w.app.Stdout, w.app.Stderr = &w.out, &w.out
	if err := w.app.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { w.exited <- w.app.Wait() }()
	t.Cleanup(func() {
		w.stop()
		if t.Failed() {
			t.Logf("wrasse output:\n%s", w.out.String())
			if log, err := os.ReadFile(filepath.Join(ws, "logs", "wrasse.log")); err == nil {
				t.Logf("workspace log:\n%s", log)
			}
		}
	})
	// xdotool --sync waits for the window to be mapped.
	win := strings.Fields(xdo(t, ctx, "search", "--sync", "--onlyvisible", "--name", "^Wrasse$"))
	if len(win) == 0 {
		t.Fatal("no Wrasse window appeared")
	}
	w.wid = win[0]
	// The composer has the focus when the window opens; give the window
	// the keyboard (there is no window manager under Xvfb to do it).
	xdo(t, ctx, "windowfocus", "--sync", w.wid)
	waitFor(t, ctx, "the window to paint", func() bool { return nonBlank(t, ctx) })
	return w
}

// stop kills the window, if it still runs, and waits for it to go.
func (w *window) stop() {
	if w.done {
		return
	}
	w.done = true
	_ = w.app.Process.Kill()
	<-w.exited
}

// quit sends SIGTERM, as closing the window does, and fails the test
// unless the app exits cleanly.
func (w *window) quit(t *testing.T, ctx context.Context) {
	t.Helper()
	if err := w.app.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-w.exited:
		w.done = true
		if err != nil {
			t.Fatalf("wrasse exited with %v", err)
		}
	case <-ctx.Done():
		t.Fatal("wrasse did not quit on SIGTERM")
	}
}

// conversation is what the CLI shows of conversation 1 of the window's
// workspace (empty while it cannot say).
func (w *window) conversation(ctx context.Context) string {
	out, err := wrasseCLI(ctx, w.bin, w.env, w.ws, "conversations", "show", "1")
	if err != nil {
		return ""
	}
	return out
}

// send types text into the focused composer and presses Return.
func send(t *testing.T, ctx context.Context, text string) {
	t.Helper()
	xdo(t, ctx, "type", "--delay", "15", text)
	xdo(t, ctx, "key", "Return")
}

// click moves the pointer to x, y and clicks the left button.
func click(t *testing.T, ctx context.Context, x, y string) {
	t.Helper()
	xdo(t, ctx, "mousemove", "--sync", x, y, "click", "1")
}

// begin is the context a real-window test runs in, ended after timeout
// or with the test, and the wrasse binary it starts.
func begin(t *testing.T, timeout time.Duration) (context.Context, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), timeout)
	t.Cleanup(cancel)
	return ctx, wrasseBinary(t, ctx)
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

// screenshot saves the screen to path; crop keeps the top left 1100×720,
// where the window sits at its first size (no window manager moves it).
func screenshot(ctx context.Context, path string, crop bool) error {
	args := []string{"-window", "root"}
	if crop {
		args = append(args, "-crop", "1100x720+0+0", "+repage")
	}
	if out, err := exec.CommandContext(ctx, "import", append(args, path)...).CombinedOutput(); err != nil {
		return fmt.Errorf("screenshot %s: %w: %s", path, err, out)
	}
	return nil
}

// shot saves the window, cropped, to path; the test stops if it cannot.
func shot(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	if err := screenshot(ctx, path, true); err != nil {
		t.Fatal(err)
	}
}

// shotIn saves the screen as name in the folder $dirVar names, when it is
// set (a picture for the docs, not an assertion; a failure to save it is
// an error).
func shotIn(t *testing.T, ctx context.Context, dirVar, name string, crop bool) {
	t.Helper()
	dir := os.Getenv(dirVar)
	if dir == "" {
		return
	}
	if err := screenshot(ctx, filepath.Join(dir, name), crop); err != nil {
		t.Errorf("%s: %v", name, err)
	}
}

// env2 is the x, y pair in $name, or x, y when it is not set.
func env2(name, x, y string) [2]string {
	if v := strings.Fields(os.Getenv(name)); len(v) == 2 {
		return [2]string{v[0], v[1]}
	}
	return [2]string{x, y}
}
