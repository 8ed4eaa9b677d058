//go:build screenshots

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

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
)

// seedOrganised fills workspace ws with conversations of the last months
// (one pinned, one archived, one with instructions of its own) and their
// token use, as a person has after a while. Pictures, not assertions:
// the dates follow the wall clock so the sidebar's sections are real.
func seedOrganised(t *testing.T, ws string) {
	t.Helper()
	now := time.Now()
	var at time.Time
	app, err := assistant.Open(assistant.Options{Workspace: ws, Retries: -1, Clock: func() time.Time { return at }})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	db := app.Engine().DB
	convs := []struct {
		title, model, reply string
		ago                 time.Duration
		in, out, cached     int
		pin, archive        bool
		instructions        string
	}{
		{"Trip to Lisbon in spring", "gpt-4o-mini", "Late March is mild and less crowded.", 60 * 24 * time.Hour, 8200, 900, 0, false, false, ""},
		{"Tax documents checklist", "claude-sonnet-4-5", "Here is the list for your return.", 12 * 24 * time.Hour, 15400, 1200, 9000, false, false, ""},
		{"Old blog draft", "qwen3:8b", "A tighter opening paragraph.", 9 * 24 * time.Hour, 4000, 600, 0, false, true, ""},
		{"Summarise the Q3 report", "claude-sonnet-4-5", "Revenue grew 12%; costs held flat.", 3 * 24 * time.Hour, 52300, 1800, 47100, false, false, ""},
		{"Birthday gift ideas", "qwen3:8b", "A few ideas under €50.", 26 * time.Hour, 3100, 700, 0, false, false, ""},
		{"Plan the garden beds", "claude-sonnet-4-5", "Tomatoes want the south bed.", 5 * time.Hour, 12800, 1500, 8000, true, false, ""},
		{"Fix the flaky CI job", "claude-sonnet-4-5", "The test races on the temp folder: give each run its own.", 40 * time.Minute, 18200, 2100, 14000, false, false,
			"Answer in British English. Keep replies short and show every command in a code block."},
	}
	for _, c := range convs {
		at = now.Add(-c.ago)
		conv, err := db.CreateConversation(c.model)
		if err != nil {
			t.Fatal(err)
		}
		u := provider.Usage{InputTokens: c.in, OutputTokens: c.out, CachedTokens: c.cached}
		for _, e := range []store.Event{
			{Type: store.EventUserMessage, Text: c.title + "?"},
			{Type: store.EventAssistantText, Text: c.reply, Model: c.model},
			{Type: store.EventUsage, Usage: &u, Model: c.model},
		} {
			if _, err := db.AppendEvent(conv.ID, e); err != nil {
				t.Fatal(err)
			}
		}
		if err := app.RenameConversation(conv.ID, c.title); err != nil {
			t.Fatal(err)
		}
		if c.pin {
			app.PinConversation(conv.ID, true)
		}
		if c.archive {
			app.ArchiveConversation(conv.ID, true)
		}
		if c.instructions != "" {
			app.SetConversationInstructions(conv.ID, c.instructions)
		}
	}
}

// TestOrganiseScreenshots takes the pictures of issue 27's organisation:
// the sidebar by date with a pinned conversation, a conversation's
// instructions banner with its usage in the header, and the Usage page.
// Run: SHOTS=dir xvfb-run go test -tags "smoke screenshots" -run
// TestOrganiseScreenshots ./ui/smoke/ -args -wrasse=bin/wrasse
func TestOrganiseScreenshots(t *testing.T) {
	out := os.Getenv("SHOTS")
	if out == "" || os.Getenv("DISPLAY") == "" {
		t.Skip("run through make screenshots")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	bin := wrasseBinary(t, ctx)
	model := providertest.NewModel(t, providertest.OpenAI)
	ws := t.TempDir()
	cfg, _ := json.Marshal(map[string]any{"provider": "openai", "baseURL": model.BaseURL(), "model": "claude-sonnet-4-5",
		"folders": []string{t.TempDir()}})
	os.WriteFile(filepath.Join(ws, "config.json"), cfg, 0o600)
	seedOrganised(t, ws)
	home := t.TempDir()
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "OPENAI_API_KEY=sk-shots", "LANG=en_US.UTF-8")
	app := exec.Command(bin, "--workspace", ws)
	app.Env = env
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	defer app.Process.Kill()
	wid := xdo(t, ctx, "search", "--sync", "--onlyvisible", "--name", "^Wrasse$")
	xdo(t, ctx, "windowfocus", "--sync", strings.TrimSpace(wid))
	waitFor(t, ctx, "the window to paint", func() bool { return nonBlank(t, ctx) })
	time.Sleep(time.Second)
	shot(t, ctx, filepath.Join(out, "sidebar-sections.png"))
	// The conversation with instructions: the first row under Today.
	xdo(t, ctx, "mousemove", "--sync", os.Getenv("CONV_X"), os.Getenv("CONV_Y"), "click", "1")
	time.Sleep(time.Second)
	shot(t, ctx, filepath.Join(out, "conversation-instructions.png"))
	xdo(t, ctx, "key", "ctrl+comma")
	time.Sleep(2 * time.Second) // the settings are built when first shown
	if x := os.Getenv("USAGE_X"); x == "" {
		shot(t, ctx, filepath.Join(out, "settings.png")) // to find the tab
	} else {
		xdo(t, ctx, "mousemove", "--sync", x, os.Getenv("TABS_Y"), "click", "1")
		time.Sleep(2 * time.Second)
		shot(t, ctx, filepath.Join(out, "usage.png"))
	}
}
