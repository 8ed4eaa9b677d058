package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// CoreName is the built-in capability whose tool lists and reads MCP
// resources; the Settings page for MCP servers depends on it.
const CoreName = "mcp"

// ResourcesTool is its tool.
const ResourcesTool = "mcp_resources"

// maxListed bounds the resources one answer lists.
const maxListed = 100

// Lengths a resource's URI and description are cut to in a listing.
const (
	uriLimit         = 300
	descriptionLimit = 120
)

// Natives serves the built-in mcp capability in reg.
func (l *Loader) Natives(reg *cerebellum.Registry) map[string]cerebellum.Runtime {
	return map[string]cerebellum.Runtime{CoreName: cerebellum.RuntimeFunc(func(ctx context.Context, tool string, args json.RawMessage) (cerebellum.Result, error) {
		return l.resources(ctx, reg, tool, args)
	})}
}

// resources lists the resources of MCP servers (one named server, live;
// else every server as last listed) or reads one by URI.
func (l *Loader) resources(ctx context.Context, reg *cerebellum.Registry, tool string, args json.RawMessage) (cerebellum.Result, error) {
	if tool != ResourcesTool {
		return cerebellum.Result{}, fmt.Errorf("%w: %s has no tool %q", cerebellum.ErrUnknownTool, CoreName, tool)
	}
	var a struct {
		Server string `json:"server"`
		URI    string `json:"uri"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return cerebellum.Result{IsError: true, Content: "arguments must be a JSON object with server and uri: " + err.Error()}, nil
	}
	if a.Server == "" {
		if a.URI != "" {
			return cerebellum.Result{IsError: true, Content: "say which server the resource belongs to (server), as listed by mcp_resources without arguments"}, nil
		}
		return cerebellum.Result{Content: listKnown(reg)}, nil
	}
	c, err := reg.Get(a.Server)
	if err != nil {
		return cerebellum.Result{IsError: true, Content: err.Error()}, nil
	}
	if c.Kind != cerebellum.KindMCP {
		return cerebellum.Result{IsError: true, Content: fmt.Sprintf("%s is not an MCP server; call mcp_resources without arguments for the servers", a.Server)}, nil
	}
	var out cerebellum.Result
	err = reg.UseRuntime(ctx, c.Name, func(rt cerebellum.Runtime) error {
		s, ok := rt.(*server)
		if !ok {
			return fmt.Errorf("%s is not served by the MCP client", c.Name)
		}
		cs, redact, err := s.session(ctx)
		if err != nil {
			return err
		}
		cctx, cancel := context.WithTimeout(ctx, s.cfg.call)
		defer cancel()
		if a.URI == "" {
			out = cerebellum.Result{Content: redact(listLive(cctx, c.Name, cs))}
			return nil
		}
		res, err := cs.ReadResource(cctx, &sdk.ReadResourceParams{URI: a.URI})
		if err != nil {
			var werr *jsonrpc.Error
			if errors.As(err, &werr) {
				out = cerebellum.Result{IsError: true, Content: redact(fmt.Sprintf("MCP server %s could not read %s: %s", c.Name, a.URI, werr.Message))}
				return nil
			}
			return fmt.Errorf("MCP server %s: reading %s: %w", c.Name, a.URI, err)
		}
		var parts []string
		for _, rc := range res.Contents {
			parts = append(parts, resourceText(rc))
		}
		out = cerebellum.Result{Content: redact(strings.Join(parts, "\n"))}
		return nil
	})
	if err != nil {
		return cerebellum.Result{IsError: true, Content: err.Error()}, nil
	}
	return out, nil
}

// listKnown lists every usable MCP capability with the resources its
// server offered when last listed, without starting any.
func listKnown(reg *cerebellum.Registry) string {
	var b strings.Builder
	n := 0
	for _, c := range reg.List() {
		if c.Kind != cerebellum.KindMCP || !c.Usable() {
			continue
		}
		n++
		cat, ok, _ := reg.Catalog(c.Name)
		switch {
		case !ok:
			fmt.Fprintf(&b, "- %s: not listed yet; call mcp_resources(server=%q)\n", c.Name, c.Name)
		case len(cat.Resources) == 0:
			fmt.Fprintf(&b, "- %s: no resources\n", c.Name)
		default:
			fmt.Fprintf(&b, "- %s:\n", c.Name)
			writeItems(&b, c.Name, cat.Resources)
		}
	}
	if n == 0 {
		return "No MCP server is installed and enabled."
	}
	return "MCP servers and their resources (read one with mcp_resources(server, uri)):\n" + strings.TrimRight(b.String(), "\n")
}

// listLive lists a running server's resources.
func listLive(ctx context.Context, name string, cs *sdk.ClientSession) string {
	var items []cerebellum.RemoteItem
	if ir := cs.InitializeResult(); ir == nil || ir.Capabilities == nil || ir.Capabilities.Resources == nil {
		return fmt.Sprintf("MCP server %s offers no resources.", name)
	}
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			return fmt.Sprintf("MCP server %s: listing its resources failed: %v", name, err)
		}
		items = append(items, cerebellum.RemoteItem{Name: r.Name, Title: r.Title, Description: r.Description, URI: r.URI, MIMEType: r.MIMEType})
	}
	if len(items) == 0 {
		return fmt.Sprintf("MCP server %s offers no resources.", name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Resources of %s (read one with mcp_resources(server=%q, uri=...)):\n", name, name)
	writeItems(&b, name, items)
	return strings.TrimRight(b.String(), "\n")
}

// writeItems lists a server's resources. Every field is the server's
// text, not Wrasse's: each is one line through cerebellum.PromptLine, so
// it cannot start a line of its own, open or close the prompt's sections
// or forge markers such as [loaded]; the description is marked as the
// server's (cerebellum.FromServer), as its tool descriptions are.
func writeItems(b *strings.Builder, server string, items []cerebellum.RemoteItem) {
	for i, r := range items {
		if i == maxListed {
			fmt.Fprintf(b, "  …and %d more\n", len(items)-maxListed)
			return
		}
		line := "  - " + cerebellum.PromptLine(r.URI, uriLimit)
		if r.Name != "" && r.Name != r.URI {
			line += " (" + cerebellum.PromptLine(r.Name, cerebellum.NameLimit) + ")"
		}
		if r.MIMEType != "" {
			line += " [" + cerebellum.PromptLine(r.MIMEType, cerebellum.NameLimit) + "]"
		}
		if r.Description != "" {
			line += ": " + cerebellum.FromServer(server, r.Description, descriptionLimit+len("From MCP server : ")+len(server))
		}
		b.WriteString(line + "\n")
	}
}
