//go:build smoke

package smoke

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
)

// The reply the fake model streams, in pieces.
var replyPieces = []string{"Hello ", "from the ", "fake model: ", "smoke test passed."}

const message = "hello from xdotool"

func TestWindowChatsWithTheModel(t *testing.T) {
	requireDisplay(t)
	ctx, bin := begin(t, 3*time.Minute)

	model := providertest.NewModel(t, providertest.OpenAI)
	// Text arrives piece by piece, as a real model's does.
	model.SetChunkDelay(30 * time.Millisecond)
	model.Reply(providertest.Text(replyPieces...), providertest.Usage(120, 12))

	ws := newWorkspace(t, openAIConfig(model.BaseURL()))
	w := launch(t, ctx, bin, privateEnv(t, "OPENAI_API_KEY=sk-smoke"), ws)
	send(t, ctx, message)

	// The window's Wrasse serves the workspace: ask it through the CLI,
	// as a person would, until the reply is stored in full.
	waitFor(t, ctx, "the reply to be stored", func() bool {
		out := w.conversation(ctx)
		return strings.Contains(out, strings.Join(replyPieces, "")) && strings.Contains(out, message)
	})
	shotPath := *shotFlag
	if shotPath == "" {
		shotPath = filepath.Join(t.TempDir(), "smoke.png")
	}
	if err := screenshot(ctx, shotPath, false); err != nil {
		t.Error(err)
	} else {
		t.Logf("screenshot saved to %s", shotPath)
	}

	if got := model.Requests(); len(got) != 1 || got[0].LastMessage().Content != message {
		t.Errorf("the model got %d requests, last message %q; want 1 with %q", len(got), lastText(got), message)
	}

	// SIGTERM quits the app as closing the window does.
	w.quit(t, ctx)
	checkStored(t, ws)
}

// checkStored opens the workspace the app left and finds the exchange.
func checkStored(t *testing.T, ws string) {
	t.Helper()
	core, err := assistant.Open(assistant.Options{Workspace: ws, Retries: -1})
	if err != nil {
		t.Fatalf("the app left the workspace locked or broken: %v", err)
	}
	defer core.Close()
	convs, err := core.History().ListConversations()
	if err != nil || len(convs) != 1 {
		t.Fatalf("conversations: %d, %v; want 1", len(convs), err)
	}
	events, err := core.History().Events(convs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	var user, reply string
	for _, e := range events {
		switch e.Type {
		case store.EventUserMessage:
			user = e.Text
		case store.EventAssistantText:
			reply += e.Text
		}
	}
	if user != message || reply != strings.Join(replyPieces, "") {
		t.Errorf("stored user %q, reply %q; want %q, %q", user, reply, message, strings.Join(replyPieces, ""))
	}
}
