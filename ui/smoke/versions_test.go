//go:build smoke

package smoke

import (
	"maps"
	"strings"
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

// TestWindowSwitchesVersionsAfterRegenerate: in the real window,
// Regenerate keeps the first reply as version 1 of the message, and the
// message's ‹ brings it back; a second Regenerate makes version 3, and ‹
// shows version 2 again. The database holds what the window shows.
func TestWindowSwitchesVersionsAfterRegenerate(t *testing.T) {
	requireDisplay(t)
	ctx, bin := begin(t, 3*time.Minute)
	model := providertest.NewModel(t, providertest.OpenAI)
	model.Reply(providertest.Text("Ferns are old."))
	model.Reply(providertest.Text("Ferns are very old: 360 million years."))
	model.Reply(providertest.Text("Older than the dinosaurs."))

	ws := newWorkspace(t, openAIConfig(model.BaseURL(), t.TempDir()))
	w := launch(t, ctx, bin, privateEnv(t, "OPENAI_API_KEY=sk-smoke"), ws)
	send(t, ctx, "How old are ferns?")
	show := func() string { return w.conversation(ctx) }
	waitFor(t, ctx, "the first reply", func() bool { return strings.Contains(show(), "Ferns are old.") })
	time.Sleep(500 * time.Millisecond) // the reply's buttons paint after it is stored
	shotIn(t, ctx, "VERSION_SHOTS", "versions-1-first.png", true)

	click(t, ctx, regenerateAt[0], regenerateAt[1])
	waitFor(t, ctx, "the regenerated reply", func() bool { return strings.Contains(show(), "360 million years") })
	time.Sleep(500 * time.Millisecond)
	shotIn(t, ctx, "VERSION_SHOTS", "versions-2-regenerated.png", true)
	if out := show(); strings.Contains(out, "Ferns are old.") {
		t.Fatalf("after Regenerate the conversation still shows the first reply:\n%s", out)
	}

	click(t, ctx, previousAt[0], previousAt[1])
	waitFor(t, ctx, "version 1 again", func() bool {
		out := show()
		return strings.Contains(out, "Ferns are old.") && !strings.Contains(out, "360 million years")
	})
	time.Sleep(500 * time.Millisecond)
	shotIn(t, ctx, "VERSION_SHOTS", "versions-3-switched.png", true)

	// A third version from there, then back to the second: ‹ 2 / 3 ›.
	click(t, ctx, regenerateAt[0], regenerateAt[1])
	waitFor(t, ctx, "the third reply", func() bool { return strings.Contains(show(), "dinosaurs") })
	time.Sleep(500 * time.Millisecond)
	click(t, ctx, previousAt[0], previousAt[1])
	waitFor(t, ctx, "version 2 again", func() bool {
		out := show()
		return strings.Contains(out, "360 million years") && !strings.Contains(out, "dinosaurs")
	})
	time.Sleep(500 * time.Millisecond)
	shotIn(t, ctx, "VERSION_SHOTS", "versions.png", true)

	w.quit(t, ctx)
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
