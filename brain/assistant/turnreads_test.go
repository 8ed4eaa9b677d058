package assistant

import (
	"context"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

// A turn reads its conversation's record and history once each: the
// record read when the turn is entered is the one the agent runs on
// (issue 25), and a first turn has the record it created. On main a turn
// read the record three times (the entry, the model choice, the agent).
func TestTurnReadsTheConversationOnce(t *testing.T) {
	answer := providertest.Raw{Body: []byte(openAIChunk(`{"role":"assistant","content":"Hello."}`, "stop") + "data: [DONE]\n\n")}
	tests := []struct {
		name  string
		first bool
		opt   TurnOptions
		want  store.Reads
	}{
		{"a turn in a conversation", false, TurnOptions{}, store.Reads{Conversations: 1, Histories: 1}},
		{"a turn choosing the conversation's model", false, TurnOptions{Model: "m2"}, store.Reads{Conversations: 1, Histories: 1}},
		{"a first turn", true, TurnOptions{}, store.Reads{Histories: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := openTest(t)
			srv := providertest.NewServer(t, answer, answer)
			if _, err := a.UpdateConfig(func(c *workspace.Config) error {
				// A window of its own: no discovery requests take the scripted replies.
				c.Provider, c.BaseURL, c.Model, c.ContextWindow = "openai", srv.URL()+"/v1", "m", 32000
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			var id store.ID
			if !tt.first {
				var err error
				if id, err = a.Turn(context.Background(), 0, "hello", TurnOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			before := a.db.Reads()
			if _, err := a.Turn(context.Background(), id, "and again", tt.opt); err != nil {
				t.Fatal(err)
			}
			after := a.db.Reads()
			got := store.Reads{Conversations: after.Conversations - before.Conversations, Histories: after.Histories - before.Histories}
			if got != tt.want {
				t.Errorf("the turn read %+v, want %+v", got, tt.want)
			}
		})
	}
}
