//go:build smoke && screenshots

package smoke

import (
	"os"
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
	out := shotsDir(t)
	ctx, bin := begin(t, 3*time.Minute)
	model := providertest.NewModel(t, providertest.OpenAI)
	model.Reply(providertest.ToolCall("system_info", `{}`))
	model.Reply(providertest.Text("You are on Linux with 2 cores. I will clear the old build folder first."),
		providertest.ToolCall("shell_exec", `{"command":"rm -r build"}`))
	model.Reply(providertest.Text("Done."))

	ws := t.TempDir()
	// A granted folder, as a person has once past the first run (whose
	// folder offer would otherwise sit above every picture).
	writeConfig(t, ws, openAIConfig(model.BaseURL(), t.TempDir()))
	broken := filepath.Join(ws, "brain", "cerebellum", "weather")
	os.MkdirAll(broken, 0o755)
	os.WriteFile(filepath.Join(broken, "SKILL.md"), []byte("---\nname: weather\ndescription: Forecasts for a city.\npermissions:\n  network: [api.weather.example\n---\nUse the forecast tool.\n"), 0o644)
	env := privateEnv(t, "OPENAI_API_KEY=sk-shots")
	if o, err := wrasseCLI(ctx, bin, env, ws, "caps", "disable", "web"); err != nil {
		t.Fatalf("disable web: %v %s", err, o)
	}
	launch(t, ctx, bin, env, ws)
	send(t, ctx, "What system am I on? Then clean the build folder.")
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
		click(t, ctx, tab.x, os.Getenv("TABS_Y"))
		time.Sleep(time.Second)
		if tab.name == "capabilities" {
			// Filter to the failed one and open its details.
			click(t, ctx, "500", "141")
			xdo(t, ctx, "type", "--delay", "15", "failed")
			time.Sleep(500 * time.Millisecond)
			click(t, ctx, "420", "294")
			time.Sleep(time.Second)
		}
		shot(t, ctx, filepath.Join(out, tab.name+".png"))
	}
}

// shotsDir is where a screenshot generator saves its pictures ($SHOTS);
// without it or without a display the generator is skipped.
func shotsDir(t *testing.T) string {
	t.Helper()
	out := os.Getenv("SHOTS")
	if out == "" || os.Getenv("DISPLAY") == "" {
		t.Skip("needs SHOTS and DISPLAY: run through make screenshots")
	}
	return out
}
