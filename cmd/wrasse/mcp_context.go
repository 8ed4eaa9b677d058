package main

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// mcpContextCommands are `wrasse mcp prompts|prompt|resources|read`: an
// MCP server's prompts and resources, through the same App methods as the
// composer's / and @ menus.
func mcpContextCommands() []*command {
	name := [2]string{"NAME", "the MCP server's capability name (see wrasse mcp list)"}
	return []*command{
		{path: "mcp prompts", args: "NAME", argHelp: [][2]string{name}, summary: "The server's prompts with their arguments (the server is started if it does not run).",
			minArgs: 1, maxArgs: 1, setup: plain(mcpPrompts)},
		{path: "mcp prompt", args: "NAME PROMPT [ARG=VALUE...]", argHelp: [][2]string{name, {"PROMPT", "the prompt's name (see wrasse mcp prompts NAME)"}, {"ARG=VALUE", "a value for one of its arguments"}},
			summary: "Get one of the server's prompts filled in with the arguments, and print the messages it returns as the composer would insert them.",
			minArgs: 2, maxArgs: -1, setup: plain(mcpPrompt)},
		{path: "mcp resources", args: "NAME", argHelp: [][2]string{name}, summary: "The server's resources and resource templates (the server is started if it does not run).",
			minArgs: 1, maxArgs: 1, setup: plain(mcpResources)},
		{path: "mcp read", args: "NAME URI", argHelp: [][2]string{name, {"URI", "the resource's URI (see wrasse mcp resources NAME)"}},
			summary: "Read one of the server's resources and print it as a message would carry it.",
			minArgs: 2, maxArgs: 2, setup: plain(mcpRead)},
	}
}

func mcpPrompts(ctx context.Context, app *assistant.App, c *call) error {
	prompts, err := app.MCPServerPrompts(ctx, c.args[0])
	if err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, prompts)
	}
	if len(prompts) == 0 {
		fmt.Fprintf(c.io.out, "%s offers no prompts.\n", c.args[0])
		return nil
	}
	tw := tabwriter.NewWriter(c.io.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROMPT\tARGUMENTS\tDESCRIPTION")
	for _, p := range prompts {
		var args []string
		for _, a := range p.Arguments {
			s := a.Name
			if a.Required {
				s += "*"
			}
			args = append(args, s)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", cerebellum.OneLine(p.Name, 40), cerebellum.OneLine(strings.Join(args, " "), 40), cerebellum.OneLine(p.Description, 70))
	}
	tw.Flush()
	fmt.Fprintln(c.io.out, "(* required)")
	return nil
}

func mcpPrompt(ctx context.Context, app *assistant.App, c *call) error {
	args := map[string]string{}
	for _, kv := range c.args[2:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return usagef("mcp prompt", "%q is not ARG=VALUE", kv)
		}
		args[k] = v
	}
	msgs, err := app.MCPPrompt(ctx, c.args[0], c.args[1], args)
	if err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, msgs)
	}
	text, atts := assistant.PromptText(msgs)
	out := assistant.WithAttachments(text, []assistant.Attachment{{Server: c.args[0], Contents: atts}})
	fmt.Fprintln(c.io.out, out)
	return nil
}

func mcpResources(ctx context.Context, app *assistant.App, c *call) error {
	res, err := app.MCPServerResources(ctx, c.args[0])
	if err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, res)
	}
	if len(res) == 0 {
		fmt.Fprintf(c.io.out, "%s offers no resources.\n", c.args[0])
		return nil
	}
	tw := tabwriter.NewWriter(c.io.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "URI\tNAME\tTYPE\tDESCRIPTION")
	for _, r := range res {
		uri := r.URI
		if r.Template {
			uri += " (template)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", cerebellum.OneLine(uri, 70), cerebellum.OneLine(r.Label(), 30), cerebellum.OneLine(r.MIMEType, 30), cerebellum.OneLine(r.Description, 60))
	}
	tw.Flush()
	return nil
}

func mcpRead(ctx context.Context, app *assistant.App, c *call) error {
	contents, err := app.ReadMCPResource(ctx, c.args[0], c.args[1])
	if err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, contents)
	}
	fmt.Fprintln(c.io.out, assistant.WithAttachments("", []assistant.Attachment{{Server: c.args[0], URI: c.args[1], Contents: contents}}))
	return nil
}

// resourceFlags are chat's --resource SERVER:URI values.
type resourceFlags []string

func (r *resourceFlags) String() string { return strings.Join(*r, ", ") }

// Set takes one SERVER:URI.
func (r *resourceFlags) Set(v string) error {
	server, uri, ok := strings.Cut(v, ":")
	if !ok || server == "" || uri == "" {
		return fmt.Errorf("%q is not SERVER:URI (e.g. everything:demo://resource/static/document/features.md)", v)
	}
	*r = append(*r, v)
	return nil
}

// attachResources reads each --resource and puts it after the message, as
// the composer's chips do (assistant.AttachedMessage): text in the
// message, images as its images.
func attachResources(ctx context.Context, app *assistant.App, message string, resources resourceFlags) (string, []provider.Image, error) {
	var atts []assistant.Attachment
	for _, v := range resources {
		server, uri, _ := strings.Cut(v, ":")
		contents, err := app.ReadMCPResource(ctx, server, uri)
		if err != nil {
			return "", nil, fmt.Errorf("attach %s: %w", v, err)
		}
		atts = append(atts, assistant.Attachment{Server: server, URI: uri, Contents: contents})
	}
	text, images := assistant.AttachedMessage(message, atts)
	return text, images, nil
}
