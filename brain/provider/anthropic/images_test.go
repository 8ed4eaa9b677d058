package anthropic_test

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/anthropic"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// pngBytes stands in for a checked image: the provider sends bytes as they are.
var pngBytes = []byte("\x89PNG\r\n\x1a\nfake image data")

func imageRequest(model string) provider.Request {
	return provider.Request{Model: model, Messages: []provider.Message{
		{Role: provider.RoleUser, Content: "Show me the logo."},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "t1", Name: "everything__get-tiny-image", Arguments: json.RawMessage(`{}`)}}},
		{Role: provider.RoleTool, ToolCallID: "t1", ToolName: "everything__get-tiny-image", Content: "Here is the image:",
			Images: []provider.Image{{MIMEType: "image/png", Data: pngBytes}, {MIMEType: "image/bmp", Data: []byte("BM")}}},
	}}
}

// toolResult is the tool_result block of the request's last message.
func toolResult(t *testing.T, body []byte) []map[string]any {
	t.Helper()
	var req struct {
		Messages []struct {
			Content []map[string]any `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	last := req.Messages[len(req.Messages)-1].Content
	if len(last) != 1 || last[0]["type"] != "tool_result" {
		t.Fatalf("last message %v; want one tool_result", last)
	}
	content, _ := last[0]["content"].([]any)
	var out []map[string]any
	for _, c := range content {
		out = append(out, c.(map[string]any))
	}
	return out
}

func TestToolResultImages(t *testing.T) {
	tests := []struct {
		name  string
		model string
		input provider.ImageInput
		want  []string // block types, with the text of text blocks
	}{
		{name: "a Claude model gets an image block", model: "claude-sonnet-4-5",
			want: []string{"text:Here is the image:", "image", "text:[image attachment (image/bmp, 2 bytes): you cannot see it"}},
		{name: "off describes the images", model: "claude-sonnet-4-5", input: provider.ImagesOff,
			want: []string{"text:Here is the image:\n[image attachment (image/png, 23 bytes): you cannot see it; tell the user the tool returned an image]\n[image attachment (image/bmp"}},
		{name: "Claude 2 reads descriptions", model: "claude-2.1",
			want: []string{"text:Here is the image:\n[image attachment (image/png"}},
		{name: "on overrides the name rule", model: "claude-2.1", input: provider.ImagesOn,
			want: []string{"text:Here is the image:", "image", "text:[image attachment (image/bmp"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Raw{Body: fixture(t, "text.sse")})
			p := newProvider(t, srv.URL(), func(c *anthropic.Config) { c.ImageInput = tt.input })
			if _, err := p.Stream(t.Context(), imageRequest(tt.model), nil); err != nil {
				t.Fatalf("Stream: %v", err)
			}
			blocks := toolResult(t, srv.Requests()[0].Body)
			if len(blocks) != len(tt.want) {
				t.Fatalf("blocks %v; want %v", blocks, tt.want)
			}
			for i, b := range blocks {
				want, text, _ := strings.Cut(tt.want[i], ":")
				if b["type"] != want {
					t.Errorf("block %d is %v; want %s", i, b["type"], want)
				}
				if want == "text" && !strings.HasPrefix(b["text"].(string), text) {
					t.Errorf("block %d text %q; want it to start %q", i, b["text"], text)
				}
				if want == "image" {
					src, _ := b["source"].(map[string]any)
					if src["type"] != "base64" || src["media_type"] != "image/png" || src["data"] != base64.StdEncoding.EncodeToString(pngBytes) {
						t.Errorf("image source %v", src)
					}
				}
			}
		})
	}
}

func TestUserMessageImages(t *testing.T) {
	tests := []struct {
		name  string
		model string
		input provider.ImageInput
		want  []string // the first user message's block types, with the text of text blocks
	}{
		{name: "a Claude model gets text then image blocks", model: "claude-sonnet-4-5",
			want: []string{"text:What is in this picture?", "image",
				"text:[image attachment (image/bmp, 2 bytes): you cannot see it; tell the user this model cannot read images]"}},
		{name: "off describes the images", model: "claude-sonnet-4-5", input: provider.ImagesOff,
			want: []string{"text:What is in this picture?\n[image attachment (image/png, 23 bytes): you cannot see it; tell the user this model cannot read images]\n[image attachment (image/bmp"}},
		{name: "Claude 2 reads descriptions", model: "claude-2.1",
			want: []string{"text:What is in this picture?\n[image attachment (image/png"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Raw{Body: fixture(t, "text.sse")})
			p := newProvider(t, srv.URL(), func(c *anthropic.Config) { c.ImageInput = tt.input })
			req := provider.Request{Model: tt.model, Messages: []provider.Message{
				{Role: provider.RoleUser, Content: "What is in this picture?",
					Images: []provider.Image{{MIMEType: "image/png", Data: pngBytes}, {MIMEType: "image/bmp", Data: []byte("BM")}}},
				{Role: provider.RoleAssistant, Content: "A logo."},
				{Role: provider.RoleUser, Content: "Which colour?"},
			}}
			if _, err := p.Stream(t.Context(), req, nil); err != nil {
				t.Fatalf("Stream: %v", err)
			}
			var body struct {
				Messages []struct {
					Role    string           `json:"role"`
					Content []map[string]any `json:"content"`
				} `json:"messages"`
			}
			if err := json.Unmarshal(srv.Requests()[0].Body, &body); err != nil {
				t.Fatal(err)
			}
			if len(body.Messages) != 3 || body.Messages[0].Role != "user" {
				t.Fatalf("messages %+v", body.Messages)
			}
			blocks := body.Messages[0].Content
			if len(blocks) != len(tt.want) {
				t.Fatalf("blocks %v; want %v", blocks, tt.want)
			}
			for i, b := range blocks {
				want, text, _ := strings.Cut(tt.want[i], ":")
				if b["type"] != want {
					t.Errorf("block %d is %v; want %s", i, b["type"], want)
				}
				if want == "text" && !strings.HasPrefix(b["text"].(string), text) {
					t.Errorf("block %d text %q; want it to start %q", i, b["text"], text)
				}
				if want == "image" {
					src, _ := b["source"].(map[string]any)
					if src["type"] != "base64" || src["media_type"] != "image/png" || src["data"] != base64.StdEncoding.EncodeToString(pngBytes) {
						t.Errorf("image source %v", src)
					}
				}
			}
		})
	}
}
