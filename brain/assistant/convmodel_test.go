package assistant

import (
	"context"
	"errors"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
)

// A conversation's own model is what its turns send (the fake server
// records it), a first turn can choose it, the default stays the
// configured one for the others, and a choice made on another server
// no longer applies.
func TestConversationModel(t *testing.T) {
	ctx := context.Background()
	a := openTest(t)
	m := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, m, "default-model")
	lastModel := func() string {
		t.Helper()
		r := m.Requests()
		if len(r) == 0 {
			t.Fatal("no request")
		}
		return r[len(r)-1].Model
	}

	m.Reply(providertest.Text("one"))
	first, err := a.Turn(ctx, 0, "hi", TurnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := lastModel(); got != "default-model" {
		t.Fatalf("a conversation without a choice sent %q", got)
	}
	if err := a.SetConversationModel(first, "picked"); err != nil {
		t.Fatal(err)
	}
	if got, chosen := a.ConversationModel(first); got != "picked" || !chosen {
		t.Fatalf("ConversationModel = %q, %v", got, chosen)
	}
	m.Reply(providertest.Text("two"))
	if _, err := a.Turn(ctx, first, "again", TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := lastModel(); got != "picked" {
		t.Fatalf("the conversation's model: sent %q", got)
	}
	m.Reply(providertest.Text("regenerated"))
	if _, err := a.Regenerate(ctx, first, TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := lastModel(); got != "picked" {
		t.Fatalf("Regenerate sent %q", got)
	}

	// A new conversation chosen before its first message.
	m.Reply(providertest.Text("three"))
	second, err := a.Turn(ctx, 0, "new", TurnOptions{Model: "early-pick"})
	if err != nil {
		t.Fatal(err)
	}
	if got := lastModel(); got != "early-pick" {
		t.Fatalf("a first turn's choice: sent %q", got)
	}
	if got, chosen := a.ConversationModel(second); got != "early-pick" || !chosen {
		t.Fatalf("the first turn's choice was not kept: %q, %v", got, chosen)
	}
	// Others keep the default; the default stays the configured model.
	m.Reply(providertest.Text("four"))
	if _, err := a.Turn(ctx, 0, "plain", TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := lastModel(); got != "default-model" || a.Model().Model != "default-model" {
		t.Fatalf("another conversation sent %q; configured %q", got, a.Model().Model)
	}
	// Back to the default.
	if err := a.SetConversationModel(first, ""); err != nil {
		t.Fatal(err)
	}
	if got, chosen := a.ConversationModel(first); got != "default-model" || chosen {
		t.Fatalf("after clearing: %q, %v", got, chosen)
	}

	// Another server: the choice made on this one no longer applies.
	if err := a.SetConversationModel(second, "early-pick"); err != nil {
		t.Fatal(err)
	}
	other := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, other, "other-default")
	if got, chosen := a.ConversationModel(second); got != "other-default" || chosen {
		t.Fatalf("a choice from another server: %q, %v", got, chosen)
	}
	other.Reply(providertest.Text("five"))
	if _, err := a.Turn(ctx, second, "on the other", TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	if r := other.Requests(); len(r) != 1 || r[0].Model != "other-default" {
		t.Fatalf("the other server got %+v", r)
	}
	if err := a.SetConversationModel(store.ID(999), "x"); !errors.Is(err, ErrNoConversation) {
		t.Fatalf("a missing conversation: %v", err)
	}
}

// Continue asks for the rest of a reply cut at the length limit, as a
// turn of its own; it refuses when the last reply was complete.
func TestContinueAfterLengthStop(t *testing.T) {
	ctx := context.Background()
	a := openTest(t)
	m := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, m, "m")
	m.Reply(providertest.Text("The first half"), providertest.MaxTokens())
	id, err := a.Turn(ctx, 0, "write a lot", TurnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m.Reply(providertest.Text(" and the rest."))
	if _, err := a.Continue(ctx, id, TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs := m.Requests()
	last := reqs[len(reqs)-1].Messages
	if n := len(last); n < 3 || last[n-1].Content != ContinueText || last[n-2].Content != "The first half" {
		t.Fatalf("Continue sent %+v", last)
	}
	if _, err := a.Continue(ctx, id, TurnOptions{}); !errors.Is(err, ErrNothingToContinue) {
		t.Fatalf("Continue after a complete reply: %v", err)
	}
	if _, err := a.Continue(ctx, store.ID(999), TurnOptions{}); !errors.Is(err, ErrNoConversation) {
		t.Fatalf("Continue of a missing conversation: %v", err)
	}
}
