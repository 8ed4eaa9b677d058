package assistant

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
)

// TestPinArchiveThroughApp: pin and archive are App methods that store the
// choice with the conversation and tell every front end.
func TestPinArchiveThroughApp(t *testing.T) {
	a := openTest(t)
	c, err := a.db.CreateConversation("m")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string
	cancel := a.Subscribe(func(e Event) {
		if e.Kind == EventConversations {
			mu.Lock()
			seen = append(seen, e.Names...)
			mu.Unlock()
		}
	})
	defer cancel()
	steps := []struct {
		name             string
		do               func() error
		pinned, archived bool
	}{
		{"pin", func() error { return a.PinConversation(c.ID, true) }, true, false},
		{"unpin", func() error { return a.PinConversation(c.ID, false) }, false, false},
		{"pin again", func() error { return a.PinConversation(c.ID, true) }, true, false},
		{"archive unpins", func() error { return a.ArchiveConversation(c.ID, true) }, false, true},
		{"unarchive", func() error { return a.ArchiveConversation(c.ID, false) }, false, false},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		got, _ := a.History().GetConversation(c.ID)
		if got.Pinned != s.pinned || got.Archived != s.archived {
			t.Errorf("%s: pinned %v archived %v, want %v %v", s.name, got.Pinned, got.Archived, s.pinned, s.archived)
		}
	}
	mu.Lock()
	if len(seen) != len(steps) || seen[0] != c.ID.String() {
		t.Errorf("published %v, want %d events naming %s", seen, len(steps), c.ID)
	}
	mu.Unlock()
	if err := a.PinConversation(store.ID(404), true); !errors.Is(err, ErrNoConversation) {
		t.Errorf("pin of a missing conversation: %v", err)
	}
}

// TestConversationInstructionsReachSystemPrompt: a conversation's own
// instructions are in the system prompt of its next turn, and only of
// that conversation's.
func TestConversationInstructionsReachSystemPrompt(t *testing.T) {
	a := openTest(t)
	m := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, m, "m")
	m.Reply(providertest.Text("Hello."))
	id, err := a.Turn(context.Background(), 0, "hi", TurnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sys := m.Requests()[0].System; strings.Contains(sys, "conversation-instructions") {
		t.Fatalf("instructions before any were set:\n%s", sys)
	}
	if err := a.SetConversationInstructions(id, "Always answer in French."); err != nil {
		t.Fatal(err)
	}
	m.Reply(providertest.Text("Bonjour."))
	if _, err := a.Turn(context.Background(), id, "hello again", TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	sys := m.Requests()[1].System
	if !strings.Contains(sys, "Always answer in French.") || !strings.Contains(sys, "You are Wrasse") {
		t.Errorf("the next turn's system prompt lacks the instructions or the identity:\n%s", sys)
	}
	// Another conversation does not get them.
	m.Reply(providertest.Text("Hi."))
	if _, err := a.Turn(context.Background(), 0, "other", TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	if sys := m.Requests()[2].System; strings.Contains(sys, "French") {
		t.Errorf("another conversation got them:\n%s", sys)
	}
	// Removed: gone from the next turn.
	if err := a.SetConversationInstructions(id, " "); err != nil {
		t.Fatal(err)
	}
	m.Reply(providertest.Text("Hi."))
	if _, err := a.Turn(context.Background(), id, "and now", TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	if sys := m.Requests()[3].System; strings.Contains(sys, "French") {
		t.Errorf("removed instructions still sent:\n%s", sys)
	}
}

// TestInstructionsSetBeforeTheFirstMessage: instructions given with a
// first turn (the header's editor before anything was sent) are kept
// with the conversation it makes, and an edit made once it exists (the
// window learns its id from Started) reaches the turn's first request.
func TestInstructionsSetBeforeTheFirstMessage(t *testing.T) {
	a := openTest(t)
	m := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, m, "m")
	m.Reply(providertest.Text("Guten Tag."))
	var edited bool
	id, err := a.Turn(context.Background(), 0, "hi", TurnOptions{
		Instructions: "Always answer in French.",
		Started: func(id store.ID) {
			// Edited in the window as the turn starts: its next request has the edit.
			edited = a.SetConversationInstructions(id, "Always answer in German.") == nil
		},
	})
	if err != nil || !edited {
		t.Fatalf("turn: %v, edited %v", err, edited)
	}
	reqs := m.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	if sys := reqs[0].System; !strings.Contains(sys, "Always answer in German.") {
		t.Errorf("the first request lacks the instructions edited before it:\n%s", sys)
	}
	conv, err := a.History().GetConversation(id)
	if err != nil || conv.Instructions != "Always answer in German." {
		t.Fatalf("kept instructions %q, %v", conv.Instructions, err)
	}
	// Only a first turn takes them.
	m.Reply(providertest.Text("Hallo."))
	if _, err := a.Turn(context.Background(), id, "again", TurnOptions{Instructions: "Answer in Dutch."}); err != nil {
		t.Fatal(err)
	}
	if conv, _ := a.History().GetConversation(id); conv.Instructions != "Always answer in German." {
		t.Errorf("a later turn's Instructions replaced the conversation's: %q", conv.Instructions)
	}
	// Unedited, they are in the first request as given.
	m.Reply(providertest.Text("Bonjour."))
	if _, err := a.Turn(context.Background(), 0, "salut", TurnOptions{Instructions: "Always answer in French."}); err != nil {
		t.Fatal(err)
	}
	if sys := m.Requests()[2].System; !strings.Contains(sys, "Always answer in French.") || strings.Contains(sys, "German") {
		t.Errorf("a new conversation's first request:\n%s", sys)
	}
}
