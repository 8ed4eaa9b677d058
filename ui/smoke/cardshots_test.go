//go:build smoke && screenshots

package smoke

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// TestScreenshotsCardsLight takes the light theme's tool cards
// (`make screenshots`, cards-light.png): a command that failed, approved
// with Ctrl+Enter, red with its exit code, and the approval card of the
// next call, whose "Approve for this chat" has a visible background.
func TestScreenshotsCardsLight(t *testing.T) {
	out := shotsDir(t)
	ctx, bin := begin(t, 3*time.Minute)
	model := providertest.NewModel(t, providertest.OpenAI)
	model.Reply(providertest.ToolCall("shell_exec", `{"command":"rm /etc/hostname"}`))
	model.Reply(providertest.Text("The file is protected: rm was refused. I will run make clean instead."),
		providertest.ToolCall("shell_exec", `{"command":"make clean"}`))
	model.Reply(providertest.Text("Done."))

	ws := newWorkspace(t, openAIConfig(model.BaseURL(), t.TempDir()))
	env := privateEnv(t, "OPENAI_API_KEY=sk-shots", "FYNE_THEME=light")
	launch(t, ctx, bin, env, ws)
	send(t, ctx, "Remove /etc/hostname, then make clean.")
	waitFor(t, ctx, "the first call", func() bool { return len(model.Requests()) >= 1 })
	// Ctrl+Enter approves the call once its card shows; pressed again
	// until the model hears back (a press before the card finds nothing).
	waitFor(t, ctx, "the second call", func() bool {
		xdo(t, ctx, "key", "ctrl+Return")
		time.Sleep(300 * time.Millisecond)
		return len(model.Requests()) >= 2
	})
	time.Sleep(1500 * time.Millisecond) // let the card paint; a picture, not an assertion
	shot(t, ctx, filepath.Join(out, "cards-light.png"))
}

// TestScreenshotsEnableFromCard takes a refused call's card after its fix
// was made from the card (`make screenshots`, enable-from-card.png):
// "Enable calc" enabled calc, and the card says so and offers Retry.
func TestScreenshotsEnableFromCard(t *testing.T) {
	out := shotsDir(t)
	ctx, bin := begin(t, 3*time.Minute)
	model := providertest.NewModel(t, providertest.OpenAI)
	model.Reply(providertest.ToolCall("calc_eval", `{"expression":"17*23"}`))
	model.Reply(providertest.Text("The calculator is switched off, so I could not work it out."))

	ws := newWorkspace(t, openAIConfig(model.BaseURL(), t.TempDir()))
	env := privateEnv(t, "OPENAI_API_KEY=sk-shots")
	if o, err := wrasseCLI(ctx, bin, env, ws, "caps", "disable", "calc"); err != nil {
		t.Fatalf("disable calc: %v %s", err, o)
	}
	launch(t, ctx, bin, env, ws)
	send(t, ctx, "What is 17*23?")
	waitFor(t, ctx, "the reply", func() bool { return len(model.Requests()) >= 2 })
	time.Sleep(1500 * time.Millisecond)
	// The card's "Enable calc" button, where the 1100×720 window draws it
	// (FIX_X and FIX_Y move it).
	x, y := os.Getenv("FIX_X"), os.Getenv("FIX_Y")
	if x == "" || y == "" {
		x, y = "360", "240"
	}
	click(t, ctx, x, y)
	time.Sleep(1500 * time.Millisecond)
	shot(t, ctx, filepath.Join(out, "enable-from-card.png"))
}
