package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/mcpimport"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// importOutcome is one server of an import: taken (installed switched
// off) or skipped, and why.
type importOutcome struct {
	Original string `json:"original"`
	Name     string `json:"name,omitempty"`
	Taken    bool   `json:"taken"`
	Reason   string `json:"reason,omitempty"`
	Launch   string `json:"launch,omitempty"`
}

type importSecret struct {
	mcpimport.Secret
	Stored bool `json:"stored"`
}

type importReport struct {
	File    string          `json:"file"`
	Format  string          `json:"format"`
	DryRun  bool            `json:"dryRun,omitempty"`
	Servers []importOutcome `json:"servers"`
	Secrets []importSecret  `json:"secrets"`
}

func mcpImport(ctx context.Context, app *assistant.App, c *call, dry bool) error {
	path := c.path(c.args[0])
	data, err := readFileLimited(path, mcpimport.MaxFileSize)
	if err != nil {
		return err
	}
	home, _ := os.UserHomeDir()
	res, err := mcpimport.Parse(data, mcpimport.Options{File: path, Home: home,
		ReadFile: func(p string) ([]byte, error) { return readFileLimited(p, mcpimport.MaxEnvFileSize) },
		Reserved: func(n string) bool {
			c, err := app.Capabilities().Get(n)
			return err == nil && c.Kind != cerebellum.KindMCP
		}})
	if err != nil {
		return fmt.Errorf("import %s: %w", c.args[0], err)
	}
	rep := importReport{File: c.args[0], Format: res.Format.Title(), DryRun: dry, Servers: []importOutcome{}, Secrets: []importSecret{}}
	for _, s := range res.Servers {
		out := importOutcome{Original: s.Original, Name: s.Name, Taken: true}
		server := assistant.MCPServer{Name: s.Name, MCPServer: s.MCPServer}
		out.Launch = server.Launch()
		if _, err := app.Capabilities().Get(s.Name); err == nil {
			out.Taken, out.Reason = false, fmt.Sprintf("a capability named %s is installed already (wrasse mcp remove %s, then import again)", s.Name, s.Name)
		} else if !dry {
			if _, err := app.AddMCP(ctx, server, true); err != nil {
				out.Taken, out.Reason = false, err.Error()
			} else if added, err := app.MCPServerOf(s.Name); err == nil {
				out.Launch = added.Launch() // with its secrets referenced
			}
		}
		if out.Taken && len(s.Notes) > 0 {
			out.Reason = strings.Join(s.Notes, "; ")
		}
		rep.Servers = append(rep.Servers, out)
	}
	for _, s := range res.Skipped {
		rep.Servers = append(rep.Servers, importOutcome{Original: s.Original, Reason: s.Reason})
	}
	for _, s := range res.Secrets {
		rep.Secrets = append(rep.Secrets, importSecret{Secret: s, Stored: app.HasSecret(s.Name)})
	}
	if c.g.json {
		return writeJSON(c.io.out, rep)
	}
	printImport(c.io.out, rep)
	return nil
}

func printImport(w io.Writer, rep importReport) {
	verb := "Imported"
	if rep.DryRun {
		verb = "Would import (dry run)"
	}
	fmt.Fprintf(w, "%s from %s (%s):\n", verb, rep.File, rep.Format)
	taken := 0
	for _, s := range rep.Servers {
		if !s.Taken {
			continue
		}
		taken++
		label := s.Name
		if s.Original != s.Name {
			label += fmt.Sprintf(" (%q in the file)", s.Original)
		}
		fmt.Fprintf(w, "  taken    %s, switched off; it runs: %s\n", label, s.Launch)
		if s.Reason != "" {
			fmt.Fprintf(w, "           note: %s\n", s.Reason)
		}
	}
	for _, s := range rep.Servers {
		if !s.Taken {
			fmt.Fprintf(w, "  skipped  %s: %s\n", s.Original, s.Reason)
		}
	}
	var missing []importSecret
	for _, s := range rep.Secrets {
		if !s.Stored {
			missing = append(missing, s)
		}
	}
	if len(missing) > 0 {
		fmt.Fprintln(w, "Secrets to set before they can start:")
		for _, s := range missing {
			about := strings.Join(s.From, ", ")
			if s.Prompt != "" {
				about = s.Prompt + "; " + about
			}
			fmt.Fprintf(w, "  wrasse secrets set %s   (%s; used by %s)\n", s.Name, about, strings.Join(s.Servers, ", "))
		}
	}
	var assign []string
	for _, s := range rep.Secrets {
		if !strings.HasPrefix(s.Name, "mcp.") {
			for _, srv := range s.Servers {
				assign = append(assign, fmt.Sprintf("  wrasse secrets assign %s %s", s.Name, srv))
			}
		}
	}
	if len(assign) > 0 && !rep.DryRun {
		fmt.Fprintln(w, "An imported server gets a secret only once you assign it:")
		for _, l := range assign {
			fmt.Fprintln(w, l)
		}
	}
	if taken > 0 && !rep.DryRun {
		fmt.Fprintln(w, "Read what each runs, then switch it on with: wrasse caps enable NAME")
	}
}

// readFileLimited reads a file of at most limit bytes.
func readFileLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is over %d bytes", path, limit)
	}
	return data, nil
}
