package assistant

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

// A message's images (TurnOptions.Images) are stored with it and reach the
// model on the OpenAI wire as image_url parts, in its turn and when it is
// answered again (Regenerate keeps them); a model that cannot see them
// reads a description in the message's text.
func TestTurnWithImages(t *testing.T) {
	pic := pngOf(t, 2, 2)
	dataURI := "data:image/png;base64," + base64.StdEncoding.EncodeToString(pic)
	for _, tc := range []struct {
		model string
		// want is in the first user message's JSON content as sent
		want string
	}{
		{model: "gpt-4o", want: `"image_url":{"url":"` + dataURI + `"}`},
		{model: "llama3.1", want: `"Look.\n[image attachment (image/png, `},
	} {
		t.Run(tc.model, func(t *testing.T) {
			a := openTest(t)
			m := providertest.NewModel(t, providertest.OpenAI)
			m.Reply(providertest.Text("A square."))
			m.Reply(providertest.Text("A grey square."))
			if _, err := a.UpdateConfig(func(c *workspace.Config) error {
				c.Provider, c.BaseURL, c.Model, c.ContextWindow = "openai", m.BaseURL(), tc.model, 32000
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			id, err := a.Turn(t.Context(), 0, "Look.", TurnOptions{Images: []provider.Image{{MIMEType: "image/png", Data: pic}}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := a.Regenerate(t.Context(), id, TurnOptions{}); err != nil {
				t.Fatal(err)
			}
			events, err := a.db.Events(id)
			if err != nil {
				t.Fatal(err)
			}
			if len(events[0].Images) != 1 || !bytes.Equal(events[0].Images[0].Data, pic) {
				t.Errorf("stored message %+v; want it with its image", events[0])
			}
			reqs := m.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests; want 2", len(reqs))
			}
			for n, req := range reqs {
				var sent struct {
					Messages []struct {
						Role    string          `json:"role"`
						Content json.RawMessage `json:"content"`
					} `json:"messages"`
				}
				if err := json.Unmarshal(req.Body, &sent); err != nil {
					t.Fatal(err)
				}
				var user string
				for _, msg := range sent.Messages {
					if msg.Role == "user" {
						user = string(msg.Content)
						break
					}
				}
				if !strings.Contains(user, tc.want) {
					t.Errorf("request %d: user message %.300s; want %.120s in it", n, user, tc.want)
				}
			}
		})
	}
}
