//go:build smoke && screenshots

package smoke

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestScreenshotsSettingsPages takes the pictures of issue 27's settings
// work in the real window: the Instructions page with an edited identity
// and the system prompt beside it, the MCP page with a server whose Test
// failed and with the mcp capability off, and a confirm dialog (Remove a
// server). Coordinates come from the environment (SETTINGS_TABS_Y and the
// tabs' X, the MCP list's first row, the Test button) as the layout at
// 1100×720 puts them; each picture goes to SHOTS.
func TestScreenshotsSettingsPages(t *testing.T) {
	out := shotsDir(t)
	// Where things are drawn in the window at 1100×720 (no window
	// manager: the window sits at 0,0); the environment may move them.
	where := map[string]string{"SETTINGS_TABS_Y": "105", "INSTRUCTIONS_X": "455", "MCP_X": "958",
		"MCP_ROW_X": "400", "MCP_ROW_Y": "212", "MCP_ROW2_Y": "251", "MCP_TEST_X": "562", "MCP_TEST_Y": "519",
		"MCP_REMOVE_X": "750", "MCP_REMOVE_Y": "557", "MCP_NO_X": "516", "MCP_NO_Y": "407"}
	at := func(name string) string {
		if v := os.Getenv(name); v != "" {
			return v
		}
		return where[name]
	}
	ctx, bin := begin(t, 4*time.Minute)

	ws := t.TempDir()
	writeConfig(t, ws, openAIConfig("http://127.0.0.1:9/v1", t.TempDir()))
	os.MkdirAll(filepath.Join(ws, "brain"), 0o700)
	os.WriteFile(filepath.Join(ws, "brain", "identity.md"), []byte("You are Wrasse, a helpful desktop assistant running on the user's computer.\n"+
		"Be direct and accurate. Use your tools to act rather than guessing; say what you did and what you found.\n"+
		"Ask before anything destructive or hard to undo. Never reveal secrets or API keys.\n\n"+
		"Standing instructions:\n- Answer in British English.\n- Keep replies under 150 words unless asked for more.\n- Cite the file and line when you quote code.\n"), 0o600)
	env := privateEnv(t, "OPENAI_API_KEY=sk-shots")
	script := filepath.Join(t.TempDir(), "notes-server.sh")
	os.WriteFile(script, []byte("#!/bin/sh\necho 'fatal: NOTES_TOKEN is not set' >&2\nexit 3\n"), 0o755)
	if o, err := wrasseCLI(ctx, bin, env, ws, "mcp", "add", "notes", "--", script); err != nil {
		t.Fatalf("mcp add: %v %s", err, o)
	}
	if o, err := wrasseCLI(ctx, bin, env, ws, "mcp", "add", "tickets", "--", "npx", "-y", "@example/tickets-mcp"); err != nil {
		t.Fatalf("mcp add: %v %s", err, o)
	}
	launch(t, ctx, bin, env, ws)
	clickAndWait := func(x, y string) {
		click(t, ctx, x, y)
		time.Sleep(time.Second) // let it paint; a picture, not an assertion
	}

	clickAndWait("60", "693") // the sidebar's Settings button
	tabsY := at("SETTINGS_TABS_Y")
	clickAndWait(at("INSTRUCTIONS_X"), tabsY)
	shot(t, ctx, filepath.Join(out, "settings-instructions.png"))

	clickAndWait(at("MCP_X"), tabsY)
	clickAndWait(at("MCP_ROW_X"), at("MCP_ROW_Y")) // notes, the first server
	clickAndWait(at("MCP_TEST_X"), at("MCP_TEST_Y"))
	time.Sleep(2 * time.Second)
	shot(t, ctx, filepath.Join(out, "mcp-test-failed.png"))

	clickAndWait(at("MCP_REMOVE_X"), at("MCP_REMOVE_Y"))
	shot(t, ctx, filepath.Join(out, "confirm-dialog.png"))
	clickAndWait(at("MCP_NO_X"), at("MCP_NO_Y"))

	// tickets, never tested, with the mcp capability switched off (from
	// the CLI, which the window hears of).
	clickAndWait(at("MCP_ROW_X"), at("MCP_ROW2_Y"))
	if o, err := wrasseCLI(ctx, bin, env, ws, "caps", "disable", "mcp"); err != nil {
		t.Fatalf("disable mcp: %v %s", err, o)
	}
	time.Sleep(2 * time.Second)
	shot(t, ctx, filepath.Join(out, "mcp-off.png"))
}
