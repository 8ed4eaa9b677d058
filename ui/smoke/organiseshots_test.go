//go:build smoke && screenshots

package smoke

import (
	"os"
	"path/filepath"
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
	out := shotsDir(t)
	ctx, bin := begin(t, 3*time.Minute)
	model := providertest.NewModel(t, providertest.OpenAI)
	ws := t.TempDir()
	cfg := openAIConfig(model.BaseURL(), t.TempDir())
	cfg["model"] = "claude-sonnet-4-5"
	writeConfig(t, ws, cfg)
	seedOrganised(t, ws)
	env := privateEnv(t, "OPENAI_API_KEY=sk-shots")
	launch(t, ctx, bin, env, ws)
	time.Sleep(time.Second)
	shot(t, ctx, filepath.Join(out, "sidebar-sections.png"))
	// The conversation with instructions: the first row under Today.
	click(t, ctx, os.Getenv("CONV_X"), os.Getenv("CONV_Y"))
	time.Sleep(time.Second)
	shot(t, ctx, filepath.Join(out, "conversation-instructions.png"))
	xdo(t, ctx, "key", "ctrl+comma")
	time.Sleep(2 * time.Second) // the settings are built when first shown
	if x := os.Getenv("USAGE_X"); x == "" {
		shot(t, ctx, filepath.Join(out, "settings.png")) // to find the tab
	} else {
		click(t, ctx, x, os.Getenv("TABS_Y"))
		time.Sleep(2 * time.Second)
		shot(t, ctx, filepath.Join(out, "usage.png"))
	}
}
