package mcp

import (
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// Prompt is one prompt a server offers: what the composer's / menu lists
// and asks the arguments of.
type Prompt struct {
	Server      string           `json:"server"`
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
}

// PromptArgument is one argument of a prompt.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// PromptMessage is one message of a prompt as the server returned it:
// Role is "user" or "assistant"; Text its text (a resource link as its
// URI); Attachments its embedded resources and images.
type PromptMessage struct {
	Role        string            `json:"role"`
	Text        string            `json:"text,omitempty"`
	Attachments []ResourceContent `json:"attachments,omitempty"`
}

// Prompts lists the prompts of MCP capability name (live; its server
// starts if it was not running). A server that offers no prompts lists
// none.
func (l *Loader) Prompts(ctx context.Context, reg *cerebellum.Registry, name string) ([]Prompt, error) {
	var out []Prompt
	err := l.withServer(ctx, reg, name, func(s *server, c *conn) error {
		if offers(c).Prompts == nil {
			return nil
		}
		cctx, cancel := context.WithTimeout(ctx, s.cfg.call)
		defer cancel()
		for p, err := range c.cs.Prompts(cctx, nil) {
			if err != nil {
				return requestError(s, c, "listing its prompts", err)
			}
			pr := Prompt{Server: s.cfg.name, Name: p.Name, Title: p.Title, Description: p.Description}
			for _, a := range p.Arguments {
				if a != nil {
					pr.Arguments = append(pr.Arguments, PromptArgument{Name: a.Name, Title: a.Title, Description: a.Description, Required: a.Required})
				}
			}
			out = append(out, pr)
		}
		return nil
	})
	return out, err
}

// GetPrompt gets prompt of MCP capability name with args (prompts/get) and
// returns its messages. A required argument left empty is refused here,
// before the server is asked.
func (l *Loader) GetPrompt(ctx context.Context, reg *cerebellum.Registry, name, prompt string, args map[string]string) ([]PromptMessage, error) {
	var out []PromptMessage
	err := l.withServer(ctx, reg, name, func(s *server, c *conn) error {
		cctx, cancel := context.WithTimeout(ctx, s.cfg.call)
		defer cancel()
		clean := map[string]string{}
		for k, v := range args {
			if v != "" {
				clean[k] = v
			}
		}
		res, err := c.cs.GetPrompt(cctx, &sdk.GetPromptParams{Name: prompt, Arguments: clean})
		if err != nil {
			return requestError(s, c, "getting its prompt "+prompt, err)
		}
		for _, m := range res.Messages {
			if m == nil {
				continue
			}
			out = append(out, promptMessage(m, c.redact))
		}
		return nil
	})
	return out, err
}

// promptMessage reads one message: text as is, a resource link by URI,
// embedded resources and images as attachments, audio described.
func promptMessage(m *sdk.PromptMessage, redact func(string) string) PromptMessage {
	pm := PromptMessage{Role: string(m.Role)}
	switch v := m.Content.(type) {
	case *sdk.TextContent:
		pm.Text = redact(v.Text)
	case *sdk.ImageContent:
		pm.Attachments = append(pm.Attachments, ResourceContent{MIMEType: v.MIMEType, Blob: v.Data})
	case *sdk.EmbeddedResource:
		if r := v.Resource; r != nil {
			pm.Attachments = append(pm.Attachments, ResourceContent{URI: r.URI, MIMEType: r.MIMEType, Text: redact(r.Text), Blob: r.Blob})
		}
	case nil:
	default:
		pm.Text = redact(contentText(v))
	}
	return pm
}

// String is how a prompt is named in lists: server: name.
func (p Prompt) String() string { return fmt.Sprintf("%s: %s", p.Server, p.Name) }
