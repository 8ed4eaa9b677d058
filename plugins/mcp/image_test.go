package mcp

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// testPNG is a real 4x4 PNG: CapResult drops bytes that are not an image.
func testPNG() []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 4, 4))
	img.Set(1, 1, color.NRGBA{B: 255, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// An image content block reaches the result as an image, not as text,
// through the whole path: server, client, registry (which checks it).
func TestImageResult(t *testing.T) {
	e := newEnv(t, standardTools(nil, nil), nil)
	mustStart(t, e)
	res, err := call(t, e.reg, "notes__picture", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Images) != 1 || res.Images[0].MIMEType != "image/png" || !bytes.Equal(res.Images[0].Data, testPNG()) {
		t.Fatalf("images = %+v; want the server's PNG", res.Images)
	}
	if strings.Contains(res.Content, "image attachment") || strings.Contains(res.Content, "left out") {
		t.Errorf("content %q describes the image that is attached", res.Content)
	}
}

func TestFormatResultImages(t *testing.T) {
	id := func(s string) string { return s }
	pic := testPNG()
	for _, tc := range []struct {
		name    string
		res     *sdk.CallToolResult
		content string
		images  int
	}{
		{"image only", &sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{MIMEType: "image/png", Data: pic}}}, "", 1},
		{"text and two images", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "a"}, &sdk.ImageContent{MIMEType: "image/png", Data: pic},
			&sdk.TextContent{Text: "b"}, &sdk.ImageContent{MIMEType: "image/png", Data: pic}}}, "a\nb", 2},
		{"embedded image resource", &sdk.CallToolResult{Content: []sdk.Content{&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "x://p", MIMEType: "image/png", Blob: pic}}}}, "", 1},
		{"embedded binary that is not an image stays described", &sdk.CallToolResult{Content: []sdk.Content{&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "x://z", MIMEType: "application/zip", Blob: []byte("PK")}}}},
			"[resource x://z (application/zip, 2 bytes): binary content you cannot see]", 0},
		{"error with an image", &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "bad"}, &sdk.ImageContent{MIMEType: "image/png", Data: pic}}},
			"MCP server s reported an error from t: bad", 1},
		{"nothing", &sdk.CallToolResult{}, "(the tool returned nothing)", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := formatResult("s", "t", tc.res, id)
			if got.Content != tc.content || len(got.Images) != tc.images {
				t.Errorf("got %q with %d images; want %q with %d", got.Content, len(got.Images), tc.content, tc.images)
			}
			if c := cerebellum.CapResult(got, 0); len(c.Images) != tc.images {
				t.Errorf("CapResult kept %d images; want %d", len(c.Images), tc.images)
			}
		})
	}
}
