package assistant

import (
	"context"
	"errors"
	"testing"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
)

// A front end that keeps showing an unanswered first message with its
// error (the window) asks to keep its conversation: it stays, with the
// message and the error, and is announced like any other.
func TestKeepUnansweredKeepsTheFirstTurnsConversation(t *testing.T) {
	a := openTest(t)
	m := providertest.NewModel(t, providertest.OpenAI, providertest.WithAPIKey("right-key"))
	useModel(t, a, m, "m")
	m.Reply(providertest.Status(401, ""))
	id, err := a.Turn(context.Background(), 0, "hello?", TurnOptions{KeepUnanswered: true})
	if !errors.Is(err, agent.ErrModel) || id == 0 {
		t.Fatalf("Turn = %s, %v; want the conversation kept and ErrModel", id, err)
	}
	events, err := a.db.Events(id)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []store.EventType
	for _, e := range events {
		kinds = append(kinds, e.Type)
	}
	if len(events) < 2 || events[0].Type != store.EventUserMessage || events[len(events)-1].Type != store.EventError {
		t.Fatalf("kept events %v; want the message and its error", kinds)
	}
	if convs, _ := a.db.ListConversations(); len(convs) != 1 || convs[0].ID != id {
		t.Fatalf("conversations %+v; want %s listed", convs, id)
	}
}
