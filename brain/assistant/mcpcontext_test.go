package assistant

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
	"github.com/wrasse-app/wrasse/plugins/mcp"
	"github.com/wrasse-app/wrasse/plugins/mcp/mcptest"
)

// everythingServer is the entry point of server-everything, installed
// once by mcptest.
func everythingServer(t *testing.T) string {
	t.Helper()
	p := mcptest.Everything(t)
	return p
}

func TestMCPPromptsAndResourcesOfEnabledServers(t *testing.T) {
	entry := everythingServer(t)
	ctx := context.Background()
	a := openTest(t)
	if _, err := a.AddMCP(ctx, MCPServer{Name: "everything", MCPServer: skillmd.MCPServer{Command: "node", Args: []string{entry}}}, false); err != nil {
		t.Fatal(err)
	}
	if _, err := a.GrantFolders(filepath.Dir(entry)); err != nil {
		t.Fatal(err)
	}

	prompts, err := a.MCPPrompts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range prompts {
		names = append(names, p.Server+":"+p.Name)
	}
	if !strings.Contains(strings.Join(names, " "), "everything:args-prompt everything:completable-prompt everything:resource-prompt everything:simple-prompt") {
		t.Fatalf("prompts = %v; want server-everything's, sorted", names)
	}
	msgs, err := a.MCPPrompt(ctx, "everything", "args-prompt", map[string]string{"city": "Lisbon"})
	if text, _ := PromptText(msgs); err != nil || !strings.Contains(text, "Lisbon") {
		t.Fatalf("args-prompt = %q, %v", text, err)
	}

	res, err := a.MCPResources(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var uri string
	templates := 0
	for _, r := range res {
		if r.Template {
			templates++
		} else if uri == "" {
			uri = r.URI
		}
	}
	if uri == "" || templates == 0 {
		t.Fatalf("resources = %+v; want resources and templates", res)
	}
	contents, err := a.ReadMCPResource(ctx, "everything", uri)
	if err != nil || len(contents) == 0 {
		t.Fatalf("read %s = %+v, %v", uri, contents, err)
	}
	msg := WithAttachments("Summarise it.", []Attachment{{Server: "everything", URI: uri, Contents: contents}})
	if !strings.HasPrefix(msg, "Summarise it.\n\n<resource server=\"everything\" uri=\""+uri+"\"") || !strings.Contains(msg, contents[0].Text[:20]) {
		t.Errorf("message = %.200q", msg)
	}

	var updates atomic.Int32
	unsubscribe, err := a.SubscribeMCPResource(ctx, "everything", "demo://resource/dynamic/text/2", func() { updates.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	defer unsubscribe()
	if out, err := a.CallTool(ctx, "everything__toggle-subscriber-updates", []byte(`{}`), approveAll); err != nil || out.Result.IsError {
		t.Fatalf("toggle-subscriber-updates = %+v, %v", out, err)
	}
	for deadline := time.Now().Add(10 * time.Second); updates.Load() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no update of the subscribed resource")
		}
	}

	if _, err := a.MCPServerPrompts(ctx, "no-such"); err == nil {
		t.Error("prompts of an unknown server: no error")
	}
	if err := a.Disable("everything"); err != nil {
		t.Fatal(err)
	}
	if prompts, err := a.MCPPrompts(ctx); err != nil || len(prompts) != 0 {
		t.Errorf("prompts with the server disabled = %v, %v; want none", prompts, err)
	}
}

func TestWithAttachments(t *testing.T) {
	long := strings.Repeat("é", attachedTextLimit) // two bytes each: cut in half
	for _, tc := range []struct {
		name, text string
		atts       []Attachment
		want       []string
		wantNot    []string
	}{
		{name: "none", text: "hi", want: []string{"hi"}},
		{name: "text", text: "Read this.\n", atts: []Attachment{{Server: "s", URI: "u://a", Contents: []mcp.ResourceContent{{URI: "u://a", MIMEType: "text/plain", Text: "body\n"}}}},
			want: []string{"Read this.\n\n<resource server=\"s\" uri=\"u://a\" type=\"text/plain\">\nbody\n</resource>"}},
		{name: "only an attachment", atts: []Attachment{{Server: "s", URI: "u://a", Contents: []mcp.ResourceContent{{Text: "x"}}}},
			want: []string{"<resource server=\"s\" uri=\"u://a\">\nx\n</resource>"}},
		{name: "image", text: "Look.", atts: []Attachment{{Server: "s", URI: "u://p.png", Contents: []mcp.ResourceContent{{MIMEType: "image/png", Blob: []byte("PNG")}}}},
			want: []string{"[Attached resource u://p.png from MCP server s: an image (image/png, 3 bytes), not included"}},
		{name: "long", text: "x", atts: []Attachment{{Server: "s", URI: "u://l", Contents: []mcp.ResourceContent{{Text: long}}}},
			want: []string{"[cut at 200 KB of 400 KB]"}, wantNot: []string{"\uFFFD"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := WithAttachments(tc.text, tc.atts)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%.300q lacks %q", got, w)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(got, w) {
					t.Errorf("%.300q has %q", got, w)
				}
			}
		})
	}
}

func TestPromptText(t *testing.T) {
	img := mcp.ResourceContent{MIMEType: "image/png", Blob: []byte("PNG")}
	text, atts := PromptText([]mcp.PromptMessage{
		{Role: "user", Text: "Review this code."},
		{Role: "assistant", Text: "Sure.\nWhich file?"},
		{Role: "user", Text: "  ", Attachments: []mcp.ResourceContent{img}},
	})
	if want := "Review this code.\n\nAssistant (from the prompt):\n> Sure.\n> Which file?"; text != want {
		t.Errorf("text = %q; want %q", text, want)
	}
	if len(atts) != 1 || atts[0].MIMEType != "image/png" {
		t.Errorf("attachments = %+v", atts)
	}
}

// pngOf is a real PNG of w×h pixels.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestAttachedMessage(t *testing.T) {
	pic := pngOf(t, 3, 3)
	res := func(uri, mime string, blob []byte) Attachment {
		return Attachment{Server: "s", URI: uri, Contents: []mcp.ResourceContent{{MIMEType: mime, Blob: blob}}}
	}
	many := make([]Attachment, cerebellum.MaxImages+1)
	for i := range many {
		many[i] = res(fmt.Sprintf("u://%d.png", i), "image/png", pic)
	}
	for _, tc := range []struct {
		name   string
		atts   []Attachment
		want   []string
		images int
	}{
		{name: "an image is sent as an image and named in the text", atts: []Attachment{res("u://p.png", "image/png", pic)},
			want: []string{fmt.Sprintf("Look.\n\n[Attached image u://p.png from MCP server s (image/png, %d bytes): image 1 of this message]", len(pic))}, images: 1},
		{name: "a mislabelled image goes with the type of its bytes", atts: []Attachment{res("u://p.jpg", "image/jpeg", pic)},
			want: []string{"(image/png, "}, images: 1},
		{name: "bytes that are not an image are named with why", atts: []Attachment{res("u://p.png", "image/png", []byte("PNG"))},
			want: []string{"[Attached resource u://p.png from MCP server s: an image (image/png, 3 bytes), not included: its bytes are not an image]"}},
		{name: "a type no model takes is named", atts: []Attachment{res("u://p.svg", "image/svg+xml", []byte("<svg xmlns='http://www.w3.org/2000/svg'/>"))},
			want: []string{"an image (image/svg+xml, ", "not included: "}},
		{name: "other binary is named", atts: []Attachment{res("u://a.zip", "application/zip", []byte("PK"))},
			want: []string{"binary content (application/zip, 2 bytes), not included: a message carries text and images only"}},
		{name: "at most MaxImages images", atts: many,
			want: []string{fmt.Sprintf("not included: a message carries at most %d images", cerebellum.MaxImages)}, images: cerebellum.MaxImages},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, images := AttachedMessage("Look.", tc.atts)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%.400q lacks %q", got, w)
				}
			}
			if len(images) != tc.images {
				t.Fatalf("%d images; want %d", len(images), tc.images)
			}
			for _, img := range images {
				if img.MIMEType != "image/png" || !bytes.Equal(img.Data, pic) {
					t.Errorf("image %s, %d bytes; want the PNG", img.MIMEType, len(img.Data))
				}
			}
		})
	}
}
