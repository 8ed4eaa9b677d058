package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// formatResult turns a server's answer into text for the model. Tool
// results reach the model as text only, so an image or audio clip is
// described as an attachment it cannot see, with its type and size.
func formatResult(server, tool string, res *sdk.CallToolResult, redact func(string) string) cerebellum.Result {
	var parts []string
	for _, c := range res.Content {
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
		return cerebellum.Result{IsError: true, Content: redact(fmt.Sprintf("MCP server %s reported an error from %s: %s", server, tool, text))}
	}
	if strings.TrimSpace(text) == "" {
		text = "(the tool returned nothing)"
	}
	return cerebellum.Result{Content: redact(text)}
}

// contentText renders one content block.
func contentText(c sdk.Content) string {
	switch v := c.(type) {
	case *sdk.TextContent:
		return v.Text
	case *sdk.ImageContent:
		return fmt.Sprintf("[image attachment (%s, %s): you cannot see it; tell the user the tool returned an image]", v.MIMEType, size(len(v.Data)))
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
