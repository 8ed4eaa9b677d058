package agent_test

import (
	"bytes"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
)

// A picture the person attached is stored with their message and goes to
// the model with it, in that turn and in every later one, also after a
// restart that rebuilds the history from the store.
func TestUserMessageImages(t *testing.T) {
	pic := testPNG(t)
	images := []provider.Image{{MIMEType: "image/png", Data: pic}}
	e := newEnv(t, newProvider(t, text("A grey square."), text("Grey."), text("Three by three.")))
	id := e.conv()
	a := e.agent()
	c, err := e.db.GetConversation(id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.TurnIn(t.Context(), c, "What is this?", images, nil); err != nil {
		t.Fatalf("first turn: %v", err)
	}
	stored := events(t, e.db, id)[0]
	if stored.Type != store.EventUserMessage || len(stored.Images) != 1 || !bytes.Equal(stored.Images[0].Data, pic) {
		t.Fatalf("stored message %+v; want it with its image", stored)
	}
	if _, err := a.Turn(t.Context(), id, "Which colour?", nil); err != nil {
		t.Fatalf("second turn: %v", err)
	}
	// A new agent reads the history from the store alone.
	if _, err := e.agent().Turn(t.Context(), id, "How big?", nil); err != nil {
		t.Fatalf("third turn: %v", err)
	}
	reqs := e.prov.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests; want 3", len(reqs))
	}
	for n, req := range reqs {
		var users []provider.Message
		for _, m := range req.Messages {
			if m.Role == provider.RoleUser {
				users = append(users, m)
			}
		}
		if len(users) != n+1 {
			t.Fatalf("request %d: %d user messages; want %d", n, len(users), n+1)
		}
		first := users[0]
		if first.Content != "What is this?" || len(first.Images) != 1 || first.Images[0].MIMEType != "image/png" || !bytes.Equal(first.Images[0].Data, pic) {
			t.Errorf("request %d: first message %q with %d images; want it with its picture", n, first.Content, len(first.Images))
		}
		for _, later := range users[1:] {
			if len(later.Images) != 0 {
				t.Errorf("request %d: %q has images", n, later.Content)
			}
		}
	}
}
