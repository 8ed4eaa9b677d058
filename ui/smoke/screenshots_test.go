//go:build screenshots

package smoke

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// TestScreenshots takes the README's screenshots of the real window
// (`make screenshots`): the chat with a tool card and a pending approval,
// the Capabilities page with a failed capability, and the Web page with
// its capability switched off. Each is written to -shots (docs/screenshots).
func TestScreenshots(t *testing.T) {
	out := os.Getenv("SHOTS")
	if out == "" || os.Getenv("DISPLAY") == "" {
		t.Skip("run through make screenshots")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	bin := wrasseBinary(t, ctx)
	model := providertest.NewModel(t, providertest.OpenAI)
	model.Reply(providertest.ToolCall("system_info", `{}`))
	model.Reply(providertest.Text("You are on Linux with 2 cores. I will clear the old build folder first."),
		providertest.ToolCall("shell_exec", `{"command":"rm -r build"}`))
	model.Reply(providertest.Text("Done."))

	ws := t.TempDir()
	// A granted folder, as a person has once past the first run (whose
	// folder offer would otherwise sit above every picture).
	cfg, _ := json.Marshal(map[string]any{"provider": "openai", "baseURL": model.BaseURL(), "model": "test-model",
		"folders": []string{t.TempDir()}})
	os.WriteFile(filepath.Join(ws, "config.json"), cfg, 0o600)
	broken := filepath.Join(ws, "brain", "cerebellum", "weather")
	os.MkdirAll(broken, 0o755)
	os.WriteFile(filepath.Join(broken, "SKILL.md"), []byte("---\nname: weather\ndescription: Forecasts for a city.\npermissions:\n  network: [api.weather.example\n---\nUse the forecast tool.\n"), 0o644)
	home := t.TempDir()
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "OPENAI_API_KEY=sk-shots", "LANG=en_US.UTF-8")
	if o, err := wrasseCLI(ctx, bin, env, ws, "caps", "disable", "web"); err != nil {
		t.Fatalf("disable web: %v %s", err, o)
	}
	app := exec.Command(bin, "--workspace", ws)
	app.Env = env
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	defer app.Process.Kill()
	wid := xdo(t, ctx, "search", "--sync", "--onlyvisible", "--name", "^Wrasse$")
	xdo(t, ctx, "windowfocus", "--sync", wid[:len(wid)-1])
	waitFor(t, ctx, "the window to paint", func() bool { return nonBlank(t, ctx) })
	xdo(t, ctx, "type", "--delay", "15", "What system am I on? Then clean the build folder.")
	xdo(t, ctx, "key", "Return")
	waitFor(t, ctx, "the approval", func() bool { return len(model.Requests()) >= 2 })
	time.Sleep(1500 * time.Millisecond) // let the card paint; a picture, not an assertion
	shot(t, ctx, filepath.Join(out, "chat.png"))
	xdo(t, ctx, "key", "ctrl+comma")
	time.Sleep(time.Second)
	shot(t, ctx, filepath.Join(out, "settings-model.png"))
	for _, tab := range []struct {
		name string
		x    string
	}{{"capabilities", os.Getenv("CAPS_X")}, {"web", os.Getenv("WEB_X")}} {
		if tab.x == "" {
			continue
		}
		xdo(t, ctx, "mousemove", "--sync", tab.x, os.Getenv("TABS_Y"), "click", "1")
		time.Sleep(time.Second)
		if tab.name == "capabilities" {
			// Filter to the failed one and open its details.
			xdo(t, ctx, "mousemove", "--sync", "500", "141", "click", "1")
			xdo(t, ctx, "type", "--delay", "15", "failed")
			time.Sleep(500 * time.Millisecond)
			xdo(t, ctx, "mousemove", "--sync", "420", "294", "click", "1")
			time.Sleep(time.Second)
		}
		shot(t, ctx, filepath.Join(out, tab.name+".png"))
	}
}

func shot(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	if o, err := exec.CommandContext(ctx, "import", "-window", "root", "-crop", "1100x720+0+0", "+repage", path).CombinedOutput(); err != nil {
		t.Fatalf("screenshot: %v %s", err, o)
	}
}
