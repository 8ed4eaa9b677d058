package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/term"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/mcpbundle"
)

// isBundle says whether an input to `caps install` is an MCP bundle
// (.mcpb, or .dxt as they were called before).
func isBundle(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".mcpb", ".dxt":
		return true
	}
	return false
}

// capsInstallBundle installs an MCP bundle: its manifest validated first,
// then its user_config asked one line each on stdin (Enter keeps the
// default; a sensitive value is read without echo on a terminal), then
// installed switched off, as every arriving server is.
func capsInstallBundle(ctx context.Context, app *assistant.App, c *call, replace bool) error {
	b, err := app.OpenBundle(c.path(c.args[0]))
	if err != nil {
		return fmt.Errorf("install %s: %w", c.args[0], err)
	}
	answers, err := askBundle(c, b)
	if err != nil {
		return err
	}
	res, err := app.InstallBundle(ctx, b, answers, replace)
	if err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, res)
	}
	verb := "Installed"
	if res.Replaced {
		verb = "Replaced"
	}
	fmt.Fprintf(c.io.out, "%s %s (MCP server from %s version %s) in %s, switched off.\n", verb, res.Name, b.Manifest.Name, b.Manifest.Version,
		filepath.Join(app.Workspace().Capabilities(), res.Folder))
	if s, err := app.MCPServerOf(res.Name); err == nil {
		fmt.Fprintf(c.io.out, "It runs, in the MCP sandbox: %s\n", s.Launch())
	}
	printWarnings(c.io.out, res.Report.Warnings)
	fmt.Fprintf(c.io.out, "Read what it runs, then switch it on with: wrasse caps enable %s\n", res.Name)
	return nil
}

// askBundle asks each user_config option in turn on stderr and reads the
// answer from stdin.
func askBundle(c *call, b *mcpbundle.Bundle) (mcpbundle.Answers, error) {
	fields := b.Fields(mcpbundle.UserFolders())
	answers := mcpbundle.Answers{}
	if len(fields) == 0 {
		return answers, nil
	}
	w := c.io.err
	fmt.Fprintf(w, "%s asks for %d settings (Enter keeps the default):\n", b.Manifest.Name, len(fields))
	var r *bufio.Reader
	if c.io.in != nil {
		r = bufio.NewReader(c.io.in)
	}
	for _, f := range fields {
		prompt := f.Title
		if f.Description != "" {
			prompt += " (" + f.Description + ")"
		}
		switch {
		case f.Multiple:
			prompt += ", several separated by commas"
		case f.Type == mcpbundle.TypeBoolean:
			prompt += " [true/false]"
		}
		if len(f.Defaults) > 0 && !f.Sensitive {
			prompt += " [" + strings.Join(f.Defaults, ",") + "]"
		}
		if f.Required {
			prompt += " (required)"
		}
		fmt.Fprint(w, prompt+": ")
		var v string
		if file, ok := c.io.in.(*os.File); ok && f.Sensitive && interactive(file) {
			bs, err := term.ReadPassword(int(file.Fd()))
			fmt.Fprintln(w)
			if err != nil {
				return nil, fmt.Errorf("read %s: %w", f.Key, err)
			}
			v = string(bs)
		} else if r != nil {
			line, err := r.ReadString('\n')
			if err != nil && line == "" {
				fmt.Fprintln(w)
				continue // end of input: the default applies
			}
			v = strings.TrimSpace(line)
		}
		if v == "" {
			continue
		}
		if f.Multiple {
			answers[f.Key] = strings.Split(v, ",")
		} else {
			answers[f.Key] = []string{v}
		}
	}
	return answers, nil
}
