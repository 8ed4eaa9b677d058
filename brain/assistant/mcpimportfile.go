package assistant

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/wrasse-app/wrasse/brain/mcpimport"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// ImportOutcome is one server of an MCP import: taken (installed switched
// off) or skipped, and why.
type ImportOutcome struct {
	Original string `json:"original"`
	Name     string `json:"name,omitempty"`
	Taken    bool   `json:"taken"`
	Reason   string `json:"reason,omitempty"`
	Launch   string `json:"launch,omitempty"`
}

// ImportSecret is a secret an imported server references, and whether it
// is stored.
type ImportSecret struct {
	mcpimport.Secret
	Stored bool `json:"stored"`
}

// ImportReport is what an MCP import took and skipped (`wrasse mcp
// import` prints it, the MCP servers page shows it).
type ImportReport struct {
	File    string          `json:"file"`
	Format  string          `json:"format"`
	DryRun  bool            `json:"dryRun,omitempty"`
	Servers []ImportOutcome `json:"servers"`
	Secrets []ImportSecret  `json:"secrets"`
}

// ImportMCPFile imports the MCP servers of another client's configuration
// file (Claude Desktop, Cursor, VS Code): each installed switched off, as
// every arriving server is, or skipped with the reason; dry only reports.
func (a *App) ImportMCPFile(ctx context.Context, path string, dry bool) (ImportReport, error) {
	data, err := readFileLimited(path, mcpimport.MaxFileSize)
	if err != nil {
		return ImportReport{}, err
	}
	home, _ := os.UserHomeDir()
	res, err := mcpimport.Parse(data, mcpimport.Options{File: path, Home: home,
		ReadFile: func(p string) ([]byte, error) { return readFileLimited(p, mcpimport.MaxEnvFileSize) },
		Reserved: func(n string) bool {
			c, err := a.reg.Get(n)
			return err == nil && c.Kind != cerebellum.KindMCP
		}})
	if err != nil {
		return ImportReport{}, err
	}
	rep := ImportReport{File: path, Format: res.Format.Title(), DryRun: dry, Servers: []ImportOutcome{}, Secrets: []ImportSecret{}}
	for _, s := range res.Servers {
		out := ImportOutcome{Original: s.Original, Name: s.Name, Taken: true}
		server := MCPServer{Name: s.Name, MCPServer: s.MCPServer}
		out.Launch = server.Launch()
		if _, err := a.reg.Get(s.Name); err == nil {
			out.Taken, out.Reason = false, fmt.Sprintf("a capability named %s is installed already (wrasse mcp remove %s, then import again)", s.Name, s.Name)
		} else if !dry {
			if _, err := a.AddMCP(ctx, server, true); err != nil {
				out.Taken, out.Reason = false, err.Error()
			} else if added, err := a.MCPServerOf(s.Name); err == nil {
				out.Launch = added.Launch() // with its secrets referenced
			}
		}
		if out.Taken && len(s.Notes) > 0 {
			out.Reason = strings.Join(s.Notes, "; ")
		}
		rep.Servers = append(rep.Servers, out)
	}
	for _, s := range res.Skipped {
		rep.Servers = append(rep.Servers, ImportOutcome{Original: s.Original, Reason: s.Reason})
	}
	for _, s := range res.Secrets {
		rep.Secrets = append(rep.Secrets, ImportSecret{Secret: s, Stored: a.HasSecret(s.Name)})
	}
	return rep, nil
}

// Write prints the report as `wrasse mcp import` does: what was taken
// with what it runs, what was skipped and why, the secrets to set and to
// assign.
func (rep ImportReport) Write(w io.Writer) {
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
	var missing []ImportSecret
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

// String is the report as Write prints it.
func (rep ImportReport) String() string {
	var b strings.Builder
	rep.Write(&b)
	return b.String()
}

// MCPConfigFile is another client's MCP configuration found on this
// computer.
type MCPConfigFile struct {
	Client string // "Claude Desktop", "Cursor", "VS Code"
	Path   string
}

// KnownMCPConfigs lists the MCP configuration files of Claude Desktop,
// Cursor and VS Code that exist for this person (home) on this system
// (goos, runtime.GOOS), in that order; appData is %APPDATA% on Windows.
func KnownMCPConfigs(home, goos, appData string) []MCPConfigFile {
	var config string
	switch goos {
	case "darwin":
		config = filepath.Join(home, "Library", "Application Support")
	case "windows":
		config = appData
	default:
		config = filepath.Join(home, ".config")
		if x := os.Getenv("XDG_CONFIG_HOME"); x != "" && runtime.GOOS == goos {
			config = x
		}
	}
	candidates := []MCPConfigFile{
		{"Claude Desktop", filepath.Join(config, "Claude", "claude_desktop_config.json")},
		{"Cursor", filepath.Join(home, ".cursor", "mcp.json")},
		{"VS Code", filepath.Join(config, "Code", "User", "mcp.json")},
	}
	var out []MCPConfigFile
	for _, c := range candidates {
		if fi, err := os.Stat(c.Path); err == nil && fi.Mode().IsRegular() {
			out = append(out, c)
		}
	}
	return out
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
