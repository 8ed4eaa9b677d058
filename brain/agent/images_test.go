package agent_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/anthropic"
	"github.com/wrasse-app/wrasse/brain/provider/openai"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
	"github.com/wrasse-app/wrasse/plugins/mcp"
)

func testPNG(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 3, 3))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// picsRegistry is a registry with one MCP capability, pics, whose
// in-process server has a read-only tool returning text and a PNG.
func picsRegistry(t *testing.T, pic []byte) (*cerebellum.Registry, *store.DB) {
	t.Helper()
	ws := t.TempDir()
	dir := filepath.Join(cerebellum.CapabilitiesDir(ws), "pics")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	skill := "---\nname: pics\ndescription: Pictures.\nmcp:\n  command: pics-server\n---\n"
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(skill), 0o644); err != nil {
		t.Fatal(err)
	}
	dial := func(ctx context.Context, _ string) (sdk.Transport, error) {
		srv := sdk.NewServer(&sdk.Implementation{Name: "pics", Version: "1.0"}, nil)
		srv.AddTool(&sdk.Tool{Name: "logo", Description: "Returns the logo.", InputSchema: json.RawMessage(`{"type":"object"}`),
			Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "The logo:"}, &sdk.ImageContent{MIMEType: "image/png", Data: pic}}}, nil
			})
		st, ct := sdk.NewInMemoryTransports()
		if _, err := srv.Connect(ctx, st, nil); err != nil { // the server connects first
			return nil, err
		}
		return ct, nil
	}
	db, err := store.Open(filepath.Join(ws, "wrasse.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	reg, err := cerebellum.Open(cerebellum.Options{Workspace: ws, States: db,
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindMCP: mcp.NewLoader(mcp.Options{Dial: dial})}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	// Written by hand, the server is off until the person enables it.
	if err := manage.New(reg, manage.Options{}).Enable("pics", nil); err != nil {
		t.Fatal(err)
	}
	// Connected once, as Test in Settings does, so its tools are known.
	if err := reg.Start(t.Context(), "pics"); err != nil {
		t.Fatal(err)
	}
	return reg, db
}

// An MCP tool's image goes from the server through the registry, the
// agent and the store to the model's wire, in the form each provider
// takes, or as a description for a model without image input.
func TestToolResultImageReachesTheModel(t *testing.T) {
	pic := testPNG(t)
	b64 := base64.StdEncoding.EncodeToString(pic)
	tests := []struct {
		name   string
		format providertest.Format
		model  string
		build  func(url, model string) (provider.Provider, error)
		// want are strings the second request's body holds; absent, ones it must not.
		want, absent []string
	}{
		{name: "Anthropic: an image block in the tool_result", format: providertest.Anthropic, model: "claude-sonnet-4-5",
			build: func(url, model string) (provider.Provider, error) {
				return anthropic.New(anthropic.Config{BaseURL: url, APIKey: "k", Model: model})
			},
			want:   []string{`{"source":{"data":"` + b64 + `","media_type":"image/png","type":"base64"},"type":"image"}`, `"text":"The logo:"`},
			absent: []string{"image attachment"}},
		{name: "OpenAI vision model: a user message with a data URI after the tool message", format: providertest.OpenAI, model: "gpt-4o",
			build: func(url, model string) (provider.Provider, error) {
				return openai.New(openai.Config{BaseURL: url, Model: model})
			},
			want:   []string{`"image_url":{"url":"data:image/png;base64,` + b64 + `"}`, `follow in the next user message`},
			absent: []string{"image attachment"}},
		{name: "a model without image input reads a description", format: providertest.OpenAI, model: "llama3.1",
			build: func(url, model string) (provider.Provider, error) {
				return openai.New(openai.Config{BaseURL: url, Model: model})
			},
			want:   []string{jsonText("The logo:\n" + provider.ImageNote(provider.Image{MIMEType: "image/png", Data: pic}))},
			absent: []string{"image_url", b64}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg, db := picsRegistry(t, pic)
			srv := providertest.NewModel(t, tt.format)
			srv.Reply(providertest.ToolCall("pics__logo", `{}`).WithID("call_logo"))
			srv.Reply(providertest.Text("It is a grey square."))
			prov, err := tt.build(srv.BaseURL(), tt.model)
			if err != nil {
				t.Fatal(err)
			}
			a, err := agent.New(agent.Options{Registry: reg, Store: db, Provider: prov, Approver: gate.DenyAll{}, Model: tt.model})
			if err != nil {
				t.Fatal(err)
			}
			id, err := a.Turn(t.Context(), newConv(t, db), "Show me the logo.", &sink{})
			if err != nil {
				t.Fatal(err)
			}
			var result *store.Event
			for _, e := range events(t, db, id) {
				if e.Type == store.EventToolResult {
					result = &e
				}
			}
			if result == nil || result.IsError || len(result.Images) != 1 || !bytes.Equal(result.Images[0].Data, pic) {
				t.Fatalf("stored result %+v; want the PNG", result)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests", len(reqs))
			}
			body := string(reqs[1].Body)
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("second request lacks %s\n%.2000s", w, body)
				}
			}
			for _, w := range tt.absent {
				if strings.Contains(body, w) {
					t.Errorf("second request holds %s", w)
				}
			}
		})
	}
}

// jsonText is s as it appears inside a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}

// The budget counts an image as imageTokens, and trimming an older result
// drops its images with its text.
func TestFitImages(t *testing.T) {
	count := func(s string) int { return len(s) }
	pic := []provider.Image{{MIMEType: "image/png", Data: make([]byte, 100)}}
	msgs := []provider.Message{
		{Role: provider.RoleUser, Content: "first"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "1", Name: "pic", Arguments: json.RawMessage(`{}`)}}},
		{Role: provider.RoleTool, ToolCallID: "1", ToolName: "pic", Content: "img", Images: pic},
		{Role: provider.RoleAssistant, Content: "seen"},
		{Role: provider.RoleUser, Content: "second"},
	}
	_, all := agent.Fit(msgs, 0, 0, count)
	if all.Tokens < 1600 {
		t.Fatalf("tokens with the image %d; want at least 1600", all.Tokens)
	}
	out, rep := agent.Fit(msgs, all.Tokens-1000, 0, count)
	if rep.Trimmed != 1 || len(out) != len(msgs) || len(out[2].Images) != 0 || !strings.HasPrefix(out[2].Content, "[trimmed: ") {
		t.Fatalf("report %+v, result %+v; want the older result trimmed with its image", rep, out[2])
	}
	if len(msgs[2].Images) != 1 {
		t.Error("Fit changed its input")
	}
}
