//go:build smoke && screenshots

package smoke

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// TestScreenshotsMCPCards takes the pictures of what an MCP server asks
// for and tells, in the real window against the published reference
// server (server-everything, from MCP_EVERYTHING: its dist/index.js): a
// long call's progress on its tool card, a server's question as a card in
// the chat, and a request for a completion waiting for Allow or Deny.
// Each call is stopped with Esc after its picture.
func TestScreenshotsMCPCards(t *testing.T) {
	// APPROVE_X and APPROVE_Y are where the approval card's Approve
	// button is drawn (350, 585 in a 1280x800 screen).
	out, server := shotsDir(t), os.Getenv("MCP_EVERYTHING")
	if server == "" {
		t.Skip("needs MCP_EVERYTHING (server-everything's dist/index.js)")
	}
	ctx, bin := begin(t, 4*time.Minute)
	model := providertest.NewModel(t, providertest.OpenAI)
	model.Reply(providertest.Text("Starting it."), providertest.ToolCall("everything__trigger-long-running-operation", `{"duration":60,"steps":10}`))
	model.Reply(providertest.ToolCall("everything__trigger-elicitation-request", `{}`))
	model.Reply(providertest.ToolCall("everything__trigger-sampling-request", `{"prompt":"In one sentence: what is the capital of France?","maxTokens":60}`))

	ws := newWorkspace(t, openAIConfig(model.BaseURL(), t.TempDir()))
	env := privateEnv(t, "OPENAI_API_KEY=sk-shots")
	if o, err := wrasseCLI(ctx, bin, env, ws, "mcp", "add", "everything", "--", "node", server); err != nil {
		t.Fatalf("mcp add: %v %s", err, o)
	}
	if o, err := wrasseCLI(ctx, bin, env, ws, "mcp", "test", "everything"); err != nil {
		t.Fatalf("mcp test: %v %s", err, o)
	}
	launch(t, ctx, bin, env, ws)
	for i, step := range []struct {
		message, picture string
		approve          bool // the call waits for approval (not marked read-only)
	}{
		{"Run the long operation.", "mcp-progress.png", false},
		{"Now ask me for my details.", "mcp-elicitation-card.png", true},
		{"Ask the model through the server.", "mcp-sampling.png", true},
	} {
		xdo(t, ctx, "type", "--delay", "15", step.message)
		xdo(t, ctx, "key", "Return")
		waitFor(t, ctx, "the model's call", func() bool { return len(model.Requests()) >= i+1 })
		if step.approve {
			time.Sleep(3 * time.Second)
			// Approve on the approval card, which sits above the composer.
			click(t, ctx, os.Getenv("APPROVE_X"), os.Getenv("APPROVE_Y"))
		}
		time.Sleep(6 * time.Second) // let the server report and the card paint; a picture, not an assertion
		shot(t, ctx, filepath.Join(out, step.picture))
		xdo(t, ctx, "key", "Escape")
		time.Sleep(2 * time.Second)
	}
}
