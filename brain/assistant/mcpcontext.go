package assistant

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins/mcp"
)

// The MCP servers' prompts and resources as the composer (/ and @) and
// `wrasse mcp prompts|prompt|resources` offer them: live from every
// installed and enabled MCP server, each started if it was not running.

// mcpClient is the MCP client, or an error in a build without one.
func (a *App) mcpClient() (*mcp.Loader, error) {
	if l := a.mcpLoader(); l != nil {
		return l, nil
	}
	return nil, fmt.Errorf("%w: this build has no MCP client", cerebellum.ErrNoRuntime)
}

// enabledMCP names the usable (installed and enabled) MCP capabilities,
// in the registry's order.
func (a *App) enabledMCP() []string {
	var out []string
	for _, c := range a.reg.List() {
		if c.Kind == cerebellum.KindMCP && c.Usable() {
			out = append(out, c.Name)
		}
	}
	return out
}

// eachMCP runs list on every enabled MCP server at once and gathers what
// they return; a server that failed is named in the joined error and the
// others' items are still returned.
func eachMCP[T any](ctx context.Context, names []string, list func(context.Context, string) ([]T, error)) ([]T, error) {
	results := make([][]T, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, n := range names {
		wg.Go(func() {
			items, err := list(ctx, n)
			if err != nil {
				err = fmt.Errorf("%s: %w", n, err)
			}
			results[i], errs[i] = items, err
		})
	}
	wg.Wait()
	return slices.Concat(results...), errors.Join(errs...)
}

// MCPPrompts lists the prompts of every enabled MCP server, by server and
// name. A server whose last listing had no prompts is not started for
// this. A server that failed is named in the error; the others' prompts
// are returned with it.
func (a *App) MCPPrompts(ctx context.Context) ([]mcp.Prompt, error) {
	l, err := a.mcpClient()
	if err != nil {
		return nil, err
	}
	var names []string
	for _, n := range a.enabledMCP() {
		if cat, ok, _ := a.reg.Catalog(n); ok && len(cat.Prompts) == 0 {
			continue
		}
		names = append(names, n)
	}
	out, err := eachMCP(ctx, names, func(ctx context.Context, n string) ([]mcp.Prompt, error) { return l.Prompts(ctx, a.reg, n) })
	slices.SortStableFunc(out, func(x, y mcp.Prompt) int { return cmp.Or(cmp.Compare(x.Server, y.Server), cmp.Compare(x.Name, y.Name)) })
	return out, err
}

// MCPServerPrompts lists the prompts of MCP server name.
func (a *App) MCPServerPrompts(ctx context.Context, name string) ([]mcp.Prompt, error) {
	l, err := a.mcpServer(name)
	if err != nil {
		return nil, err
	}
	return l.Prompts(ctx, a.reg, name)
}

// MCPPrompt gets prompt of MCP server name filled in with args: the
// messages to put in the conversation (see PromptText).
func (a *App) MCPPrompt(ctx context.Context, name, prompt string, args map[string]string) ([]mcp.PromptMessage, error) {
	l, err := a.mcpServer(name)
	if err != nil {
		return nil, err
	}
	return l.GetPrompt(ctx, a.reg, name, prompt, args)
}

// MCPResources lists the resources and resource templates of every
// enabled MCP server, by server (each server's in its own order). A
// server that failed is named in the error; the others' resources are
// returned with it.
func (a *App) MCPResources(ctx context.Context) ([]mcp.Resource, error) {
	l, err := a.mcpClient()
	if err != nil {
		return nil, err
	}
	out, err := eachMCP(ctx, a.enabledMCP(), func(ctx context.Context, n string) ([]mcp.Resource, error) { return l.Resources(ctx, a.reg, n) })
	slices.SortStableFunc(out, func(x, y mcp.Resource) int { return cmp.Compare(x.Server, y.Server) })
	return out, err
}

// MCPServerResources lists the resources and templates of MCP server name.
func (a *App) MCPServerResources(ctx context.Context, name string) ([]mcp.Resource, error) {
	l, err := a.mcpServer(name)
	if err != nil {
		return nil, err
	}
	return l.Resources(ctx, a.reg, name)
}

// ReadMCPResource reads uri from MCP server name.
func (a *App) ReadMCPResource(ctx context.Context, name, uri string) ([]mcp.ResourceContent, error) {
	l, err := a.mcpServer(name)
	if err != nil {
		return nil, err
	}
	return l.ReadResource(ctx, a.reg, name, uri)
}

// SubscribeMCPResource calls changed whenever MCP server name says uri
// changed, until unsubscribe; changed must return at once (read the
// resource again on a goroutine of its own). A server without
// subscriptions gives mcp.ErrNoSubscribe.
func (a *App) SubscribeMCPResource(ctx context.Context, name, uri string, changed func()) (unsubscribe func(), err error) {
	l, err := a.mcpServer(name)
	if err != nil {
		return nil, err
	}
	return l.Subscribe(ctx, a.reg, name, uri, changed)
}

// mcpServer checks name is an MCP capability and returns the client.
func (a *App) mcpServer(name string) (*mcp.Loader, error) {
	if _, err := a.mcpCapability(name); err != nil {
		return nil, err
	}
	return a.mcpClient()
}

// Attachment is a resource attached to a message: what it is and what
// it held when it was read.
type Attachment struct {
	Server   string
	URI      string
	Contents []mcp.ResourceContent
}

// attachedTextLimit is how much of one attached text a message carries.
const attachedTextLimit = 200 << 10

// WithAttachments is the message text with its attached resources after
// it, each in a block naming its server and URI, so the model knows what
// it reads and where it came from. It is text only (what `wrasse mcp
// resource` prints): an image or other binary content is named with its
// type and size. A message sent to the model takes its images as images:
// AttachedMessage.
func WithAttachments(text string, atts []Attachment) string {
	out, _ := attachedMessage(text, atts, false)
	return out
}

// AttachedMessage is WithAttachments for a message to send: each attached
// image a model API takes (PNG, JPEG, GIF, WebP within cerebellum's
// limits, checked as a tool result's are) is returned in images, for
// TurnOptions.Images, and named in the text where it was attached; an
// image that fails the check, and any other binary content, is named with
// the reason it was not sent.
func AttachedMessage(text string, atts []Attachment) (string, []provider.Image) {
	return attachedMessage(text, atts, true)
}

func attachedMessage(text string, atts []Attachment, sendImages bool) (string, []provider.Image) {
	if len(atts) == 0 {
		return text, nil
	}
	var images []provider.Image
	total := 0
	var b strings.Builder
	b.WriteString(strings.TrimRight(text, "\n"))
	for _, at := range atts {
		for _, c := range at.Contents {
			if b.Len() > 0 {
				b.WriteString("\n\n")
			}
			uri := cmp.Or(c.URI, at.URI)
			mime := c.MIMEType
			switch {
			case len(c.Blob) > 0 && c.Text == "":
				kind, why := "binary content", "a message carries text and images only"
				if strings.HasPrefix(mime, "image/") {
					kind = "an image"
					if sendImages {
						img, reason := checkedImage(c, len(images), total)
						if reason == "" {
							images = append(images, img)
							total += len(img.Data)
							fmt.Fprintf(&b, "[Attached image %s from MCP server %s (%s, %d bytes): image %d of this message]",
								uri, at.Server, img.MIMEType, len(img.Data), len(images))
							continue
						}
						why = reason
					} else {
						why = "this text carries no images"
					}
				}
				fmt.Fprintf(&b, "[Attached resource %s from MCP server %s: %s (%s, %d bytes), not included: %s]",
					uri, at.Server, kind, cmp.Or(mime, "no type"), len(c.Blob), why)
			default:
				body, cut := c.Text, false
				if len(body) > attachedTextLimit {
					body, cut = truncateUTF8(body, attachedTextLimit), true
				}
				fmt.Fprintf(&b, "<resource server=%q uri=%q", at.Server, uri)
				if mime != "" {
					fmt.Fprintf(&b, " type=%q", mime)
				}
				b.WriteString(">\n" + strings.TrimRight(body, "\n"))
				if cut {
					fmt.Fprintf(&b, "\n[cut at %d KB of %d KB]", attachedTextLimit>>10, len(c.Text)>>10)
				}
				b.WriteString("\n</resource>")
			}
		}
	}
	return b.String(), images
}

// checkedImage is an attached image as a model API takes it, checked
// the way a tool result's images are (cerebellum.CapResult: type taken
// from the bytes, size, pixels, decodable), within a message's count and
// byte limits given the n images of total bytes kept before it; or the
// reason it is not sent.
func checkedImage(c mcp.ResourceContent, n, total int) (provider.Image, string) {
	switch {
	case n == cerebellum.MaxImages:
		return provider.Image{}, fmt.Sprintf("a message carries at most %d images", cerebellum.MaxImages)
	case total+len(c.Blob) > cerebellum.MaxImagesBytes:
		return provider.Image{}, fmt.Sprintf("a message's images total at most %d bytes", cerebellum.MaxImagesBytes)
	}
	res := cerebellum.CapResult(cerebellum.Result{Images: []cerebellum.Image{{MIMEType: c.MIMEType, Data: c.Blob}}}, 0)
	if len(res.Images) == 0 {
		// CapResult says why in a note "[image 1 (type) was left out: why]".
		_, why, _ := strings.Cut(strings.TrimSuffix(res.Content, "]"), "left out: ")
		return provider.Image{}, cmp.Or(why, "a model API would not take it")
	}
	return provider.Image{MIMEType: res.Images[0].MIMEType, Data: res.Images[0].Data}, ""
}

func truncateUTF8(s string, n int) string {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// PromptText is what a prompt's messages put in the composer, the way
// VS Code inserts a prompt into its chat input for the person to read,
// change and send: the user messages' text as it is; an assistant
// message (a prompt can script one, and a conversation holds only what
// the person sends and the model answers) as quoted context under
// "Assistant (from the prompt):". Embedded resources and images come back
// as attachments.
func PromptText(msgs []mcp.PromptMessage) (text string, attachments []mcp.ResourceContent) {
	var parts []string
	for _, m := range msgs {
		attachments = append(attachments, m.Attachments...)
		t := strings.TrimSpace(m.Text)
		if t == "" {
			continue
		}
		if m.Role == "assistant" {
			t = "Assistant (from the prompt):\n> " + strings.ReplaceAll(t, "\n", "\n> ")
		}
		parts = append(parts, t)
	}
	return strings.Join(parts, "\n\n"), attachments
}
