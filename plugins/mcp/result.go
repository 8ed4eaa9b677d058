package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// formatResult turns a server's answer into a result for the model: text,
// and images as Result.Images (the registry's CapResult checks them; the
// provider sends them, or describes them to a model without image input).
// Audio is described as an attachment the model cannot hear, with its type
// and size.
func formatResult(server, tool string, res *sdk.CallToolResult, redact func(string) string) cerebellum.Result {
	var parts []string
	var images []cerebellum.Image
	for _, c := range res.Content {
		if img, ok := contentImage(c); ok {
			images = append(images, img)
			continue
		}
		parts = append(parts, contentText(c))
	}
	text := strings.Join(parts, "\n")
	if res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			switch {
			case strings.TrimSpace(text) == "":
				text = string(b)
			case !sameJSON(text, b):
				text += "\n\nStructured content:\n" + string(b)
			}
		}
	}
	if res.IsError {
		if strings.TrimSpace(text) == "" {
			text = "(no message)"
		}
		return cerebellum.Result{IsError: true, Content: redact(fmt.Sprintf("MCP server %s reported an error from %s: %s", server, tool, text)), Images: images}
	}
	if strings.TrimSpace(text) == "" && len(images) == 0 {
		text = "(the tool returned nothing)"
	}
	return cerebellum.Result{Content: redact(text), Images: images}
}

// contentImage is an image content block, or an embedded resource holding
// an image, as a result image.
func contentImage(c sdk.Content) (cerebellum.Image, bool) {
	switch v := c.(type) {
	case *sdk.ImageContent:
		return cerebellum.Image{MIMEType: v.MIMEType, Data: v.Data}, true
	case *sdk.EmbeddedResource:
		if r := v.Resource; r != nil && r.Text == "" && len(r.Blob) > 0 && cerebellum.ImageTypeSupported(r.MIMEType) {
			return cerebellum.Image{MIMEType: r.MIMEType, Data: r.Blob}, true
		}
	}
	return cerebellum.Image{}, false
}

// contentText renders one content block other than an image (see
// contentImage).
func contentText(c sdk.Content) string {
	switch v := c.(type) {
	case *sdk.TextContent:
		return v.Text
	case *sdk.AudioContent:
		return fmt.Sprintf("[audio attachment (%s, %s): you cannot hear it; tell the user the tool returned audio]", v.MIMEType, size(len(v.Data)))
	case *sdk.ResourceLink:
		s := "[resource " + v.URI
		if v.Name != "" {
			s += " (" + v.Name + ")"
		}
		if v.Description != "" {
			s += ": " + v.Description
		}
		return s + "; read it with mcp_resources]"
	case *sdk.EmbeddedResource:
		return resourceText(v.Resource)
	}
	b, err := json.Marshal(c)
	if err != nil {
		return "[content the server sent that Wrasse cannot show]"
	}
	return string(b)
}

// resourceText renders resource contents: text as is, binary described.
func resourceText(r *sdk.ResourceContents) string {
	if r == nil {
		return "[empty resource]"
	}
	if r.Text != "" || len(r.Blob) == 0 {
		return r.Text
	}
	mt := r.MIMEType
	if mt == "" {
		mt = "binary"
	}
	return fmt.Sprintf("[resource %s (%s, %s): binary content you cannot see]", r.URI, mt, size(len(r.Blob)))
}

func size(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// sameJSON reports whether text is the JSON b (servers often send the
// structured content again as text).
func sameJSON(text string, b []byte) bool {
	var x, y any
	if json.Unmarshal([]byte(text), &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	bx, _ := json.Marshal(x)
	by, _ := json.Marshal(y)
	return string(bx) == string(by)
}
