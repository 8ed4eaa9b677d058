package openai_test

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/openai"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

var pngBytes = []byte("\x89PNG\r\n\x1a\nfake image data")

// imageRequest has two calls in one step, the first returning an image, then
// the user's next line.
func imageRequest(model string) provider.Request {
	return provider.Request{Model: model, Messages: []provider.Message{
		{Role: provider.RoleUser, Content: "Show me the logo."},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{
			{ID: "t1", Name: "everything__get-tiny-image", Arguments: json.RawMessage(`{}`)},
			{ID: "t2", Name: "everything__echo", Arguments: json.RawMessage(`{"message":"x"}`)},
		}},
		{Role: provider.RoleTool, ToolCallID: "t1", ToolName: "everything__get-tiny-image", Content: "Here is the image:",
			Images: []provider.Image{{MIMEType: "image/png", Data: pngBytes}}},
		{Role: provider.RoleTool, ToolCallID: "t2", ToolName: "everything__echo", Content: "Echo: x"},
		{Role: provider.RoleUser, Content: "Thanks."},
	}}
}

type wireMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
}

func sent(t *testing.T, body []byte) []wireMessage {
	t.Helper()
	var req struct {
		Messages []wireMessage `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	return req.Messages
}

func TestToolResultImages(t *testing.T) {
	dataURI := "data:image/png;base64," + base64.StdEncoding.EncodeToString(pngBytes)
	tests := []struct {
		name  string
		model string
		input provider.ImageInput
		// roles of the messages sent, and what the first tool message says
		roles    string
		toolText string
		images   bool
	}{
		{name: "a vision model gets a user message with the image after the step's results", model: "gpt-4o",
			roles: "user assistant tool tool user user", toolText: "Here is the image:\n[1 image(s) returned by this call follow in the next user message]", images: true},
		{name: "an Ollama vision model too", model: "qwen2.5vl:7b",
			roles: "user assistant tool tool user user", toolText: "Here is the image:\n[1 image(s)", images: true},
		{name: "a text model reads a description", model: "llama3.1",
			roles: "user assistant tool tool user", toolText: "Here is the image:\n[image attachment (image/png, 23 bytes): you cannot see it; tell the user the tool returned an image]"},
		{name: "off describes them for a vision model", model: "gpt-4o", input: provider.ImagesOff,
			roles: "user assistant tool tool user", toolText: "Here is the image:\n[image attachment (image/png"},
		{name: "on sends them to a model the rule does not know", model: "my-finetune", input: provider.ImagesOn,
			roles: "user assistant tool tool user user", toolText: "Here is the image:\n[1 image(s)", images: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Raw{Body: fixture(t, "text.sse")})
			p := newProvider(t, srv.URL(), func(c *openai.Config) { c.ImageInput = tt.input })
			if _, err := p.Stream(t.Context(), imageRequest(tt.model), nil); err != nil {
				t.Fatalf("Stream: %v", err)
			}
			msgs := sent(t, srv.Requests()[0].Body)
			var roles []string
			for _, m := range msgs {
				roles = append(roles, m.Role)
			}
			if strings.Join(roles, " ") != tt.roles {
				t.Fatalf("roles %v; want %s", roles, tt.roles)
			}
			var toolText string
			if err := json.Unmarshal(msgs[2].Content, &toolText); err != nil || !strings.HasPrefix(toolText, tt.toolText) {
				t.Errorf("tool message %s; want it to start %q", msgs[2].Content, tt.toolText)
			}
			if !tt.images {
				return
			}
			var parts []struct {
				Type     string `json:"type"`
				Text     string `json:"text"`
				ImageURL struct {
					URL string `json:"url"`
				} `json:"image_url"`
			}
			if err := json.Unmarshal(msgs[4].Content, &parts); err != nil {
				t.Fatalf("image message content %s: %v", msgs[4].Content, err)
			}
			if len(parts) != 2 || parts[0].Type != "text" || !strings.Contains(parts[0].Text, "t1 (everything__get-tiny-image)") ||
				parts[1].Type != "image_url" || parts[1].ImageURL.URL != dataURI {
				t.Errorf("image message %s", msgs[4].Content)
			}
		})
	}
}

// userImageRequest is a person's message with an image attached, the
// model's answer, and their next message: the image stays in the history.
func userImageRequest(model string) provider.Request {
	return provider.Request{Model: model, Messages: []provider.Message{
		{Role: provider.RoleUser, Content: "What is in this picture?",
			Images: []provider.Image{{MIMEType: "image/png", Data: pngBytes}, {MIMEType: "image/png"}}},
		{Role: provider.RoleAssistant, Content: "A logo."},
		{Role: provider.RoleUser, Content: "Which colour?"},
	}}
}

func TestUserMessageImages(t *testing.T) {
	dataURI := "data:image/png;base64," + base64.StdEncoding.EncodeToString(pngBytes)
	tests := []struct {
		name  string
		model string
		input provider.ImageInput
		// the first message's content: parts "type:text-or-url-prefix", or
		// a string when the model reads a description
		parts []string
		text  string
	}{
		{name: "a vision model gets text and image_url parts", model: "gpt-4o",
			parts: []string{"text:What is in this picture?", "image_url:" + dataURI,
				"text:[image attachment (image/png, 0 bytes): you cannot see it; tell the user this model cannot read images]"}},
		{name: "on sends them to a model the rule does not know", model: "my-finetune", input: provider.ImagesOn,
			parts: []string{"text:What is in this picture?", "image_url:" + dataURI, "text:[image attachment"}},
		{name: "a text model reads a description in a plain string", model: "llama3.1",
			text: "What is in this picture?\n[image attachment (image/png, 23 bytes): you cannot see it; tell the user this model cannot read images]\n[image attachment (image/png, 0 bytes)"},
		{name: "off describes them for a vision model", model: "gpt-4o", input: provider.ImagesOff,
			text: "What is in this picture?\n[image attachment (image/png, 23 bytes)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Raw{Body: fixture(t, "text.sse")}, providertest.Raw{Body: fixture(t, "text.sse")})
			p := newProvider(t, srv.URL(), func(c *openai.Config) { c.ImageInput = tt.input })
			// Twice: the second request's history comes from the encoding
			// cache for every message without images.
			for range 2 {
				if _, err := p.Stream(t.Context(), userImageRequest(tt.model), nil); err != nil {
					t.Fatalf("Stream: %v", err)
				}
			}
			for n, req := range srv.Requests() {
				msgs := sent(t, req.Body)
				if len(msgs) != 3 || msgs[0].Role != "user" {
					t.Fatalf("request %d: messages %v", n, msgs)
				}
				if tt.parts == nil {
					var text string
					if err := json.Unmarshal(msgs[0].Content, &text); err != nil || !strings.HasPrefix(text, tt.text) {
						t.Errorf("request %d: user message %s; want a string starting %q", n, msgs[0].Content, tt.text)
					}
					continue
				}
				var parts []struct {
					Type     string `json:"type"`
					Text     string `json:"text"`
					ImageURL struct {
						URL string `json:"url"`
					} `json:"image_url"`
				}
				if err := json.Unmarshal(msgs[0].Content, &parts); err != nil {
					t.Fatalf("request %d: user message content %s: %v", n, msgs[0].Content, err)
				}
				if len(parts) != len(tt.parts) {
					t.Fatalf("request %d: parts %s; want %v", n, msgs[0].Content, tt.parts)
				}
				for i, part := range parts {
					typ, want, _ := strings.Cut(tt.parts[i], ":")
					got := part.Text
					if typ == "image_url" {
						got = part.ImageURL.URL
					}
					if part.Type != typ || !strings.HasPrefix(got, want) {
						t.Errorf("request %d part %d: %s %q; want %s %q", n, i, part.Type, got, typ, want)
					}
				}
			}
		})
	}
}

// TestUserImagesNotCachedAsText checks the encoding cache does not give a
// message with images the encoding of the same text without them: the
// same words sent first bare and then with a picture must carry it.
func TestUserImagesNotCachedAsText(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Raw{Body: fixture(t, "text.sse")}, providertest.Raw{Body: fixture(t, "text.sse")})
	p := newProvider(t, srv.URL(), nil)
	bare := provider.Request{Model: "gpt-4o", Messages: []provider.Message{{Role: provider.RoleUser, Content: "Look."}}}
	withImage := provider.Request{Model: "gpt-4o", Messages: []provider.Message{{Role: provider.RoleUser, Content: "Look.",
		Images: []provider.Image{{MIMEType: "image/png", Data: pngBytes}}}}}
	for _, req := range []provider.Request{bare, withImage} {
		if _, err := p.Stream(t.Context(), req, nil); err != nil {
			t.Fatalf("Stream: %v", err)
		}
	}
	got := sent(t, srv.Requests()[1].Body)[0].Content
	if !strings.Contains(string(got), `"image_url"`) {
		t.Errorf("second request's user message %s; want its image", got)
	}
}
