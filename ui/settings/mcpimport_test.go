package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// "Import from Claude Desktop / Cursor / VS Code" on the MCP servers page
// offers the Claude Desktop configuration found in the home folder and
// imports it as `wrasse mcp import` does: the servers taken are installed
// switched off and listed, the report names what was skipped and why.
func TestMCPPageImportsFromClaudeDesktop(t *testing.T) {
	h := newHarness(t, nil)
	home := t.TempDir()
	data, err := os.ReadFile(filepath.Join("..", "..", "brain", "mcpimport", "testdata", "claude", "claude_desktop_config.json"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(home, ".config", "Claude", "claude_desktop_config.json")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CONFIG_HOME", "")
	im := h.s.mcp.importer
	im.home, im.goos = home, "linux"

	h.s.tabs.Select(h.s.tabOf[pageMCP])
	h.tap(mcpImportLabel)
	h.tap("Claude Desktop: " + cfg)

	rep := im.report
	if rep == nil {
		t.Fatal("no report shown")
	}
	if !strings.HasPrefix(rep.title.Text, "Imported 4 of ") {
		t.Errorf("title %q", rep.title.Text)
	}
	for _, want := range []string{"Imported from " + cfg + " (Claude Desktop)", "taken    everything, switched off; it runs: npx -y @modelcontextprotocol/server-everything",
		"skipped  broken-args: args must be a list of text, not text", "Read what each runs, then switch it on"} {
		if !strings.Contains(rep.Text(), want) {
			t.Errorf("report lacks %q:\n%s", want, rep.Text())
		}
	}
	for _, name := range []string{"everything", "github-server"} {
		c, err := h.core.Capabilities().Get(name)
		if err != nil || c.State == "ok" || c.Approved != "" {
			t.Errorf("%s: %v (state %v); want it installed, not approved to run", name, err, c)
			continue
		}
		if !h.s.mcp.Has(name) {
			t.Errorf("%s is not listed on the page", name)
		}
	}
	// The token was moved to a secret, never written to the folder.
	if strings.Contains(rep.Text(), "ghp_exampleexampleexample") {
		t.Error("the report shows the token")
	}
}

// Without any known file, the dialog says so and offers the picker.
func TestMCPImportWithoutKnownFiles(t *testing.T) {
	h := newHarness(t, nil)
	t.Setenv("XDG_CONFIG_HOME", "")
	h.s.mcp.importer.home, h.s.mcp.importer.goos = t.TempDir(), "linux"
	h.s.tabs.Select(h.s.tabOf[pageMCP])
	h.tap(mcpImportLabel)
	if !strings.Contains(h.screenText(), "No configuration of Claude Desktop, Cursor or VS Code was found") {
		t.Errorf("the dialog does not say nothing was found:\n%s", h.screenText())
	}
	h.button("Choose a file…")
}
