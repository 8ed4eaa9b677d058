//go:build smoke

package smoke

import (
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
	requireDisplay(t)
	ctx, bin := begin(t, 3*time.Minute)

	model := providertest.NewModel(t, providertest.OpenAI)
	model.Reply(providertest.ToolCall("shell_exec", `{"command":"cat no-such-file.txt"}`))
	model.Reply(providertest.Text("The file is not there."))

	ws := newWorkspace(t, openAIConfig(model.BaseURL(), t.TempDir()))
	launch(t, ctx, bin, privateEnv(t, "OPENAI_API_KEY=sk-smoke"), ws)
	send(t, ctx, "show me the file")
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
