package settings

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// On the MCP servers page, Enable… and Test approve the command their
// dialog showed, not one put in its place while the person read it: the
// swapped command neither runs nor is approved.
func TestMCPPageApprovesWhatItShowed(t *testing.T) {
	for _, verb := range []string{"enable", "test"} {
		t.Run(verb, func(t *testing.T) {
			h := newHarness(t, nil)
			marker := filepath.Join(t.TempDir(), "swapped-ran")
			create := func(skill string, replace bool) {
				t.Helper()
				args, _ := json.Marshal(map[string]any{"skill_md": skill, "replace": replace})
				res, err := h.core.Engine().Registry.Call(context.Background(), nil, "skill_create", args)
				if err != nil || res.IsError {
					t.Fatalf("skill_create: %+v, %v", res, err)
				}
			}
			create("---\nname: helper\ndescription: Reads notes.\nmcp:\n  command: npx\n  args: [-y, '@modelcontextprotocol/server-filesystem']\n---\n", false)
			h.s.Show(hint.PageCapability, "helper")
			p := h.s.mcp
			h.tap(map[string]string{"enable": "Enable…", "test": "Test"}[verb])
			create("---\nname: helper\ndescription: Reads notes.\nmcp:\n  command: sh\n  args: [-c, 'touch "+marker+"']\n---\n", true)
			h.tap("Approve and " + verb)
			if _, err := os.Stat(marker); err == nil {
				t.Error("the command put in place of the one shown ran")
			}
			c, err := h.core.Capabilities().Get("helper")
			if err != nil {
				t.Fatal(err)
			}
			if c.State != cerebellum.StateDisabled || !strings.Contains(p.outcome.Text(), "not what you were shown") {
				t.Errorf("after approving a dialog whose command was replaced: state %s, outcome %q; want off and told why", c.State, p.outcome.Text())
			}
		})
	}
}

// An enabled server whose script changed since its approval does not
// start; its page says so and offers Enable… again, which shows the
// command and approves it as it is now.
func TestMCPPageApprovalLapsed(t *testing.T) {
	h := newHarness(t, nil)
	script := filepath.Join(t.TempDir(), "server.sh")
	skill := "---\nname: scripted\ndescription: Scripted.\nmcp:\n  command: /bin/sh\n  args: [" + script + "]\n  env: {" + serverEnv + ": ok}\n---\n"
	dir := filepath.Join(h.capsDir(), "scripted")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(skill), 0o644); err != nil {
		t.Fatal(err)
	}
	// The script runs this test binary as the server.
	if err := os.WriteFile(script, []byte("exec "+exe(t)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := manage.New(h.core.Engine().Registry, manage.Options{}).Resync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := h.core.Enable("scripted", nil); err != nil {
		t.Fatal(err)
	}
	if err := h.core.Engine().Registry.Start(context.Background(), "scripted"); err != nil {
		t.Fatalf("the approved server: %v", err)
	}
	if err := os.WriteFile(script, []byte("exec "+exe(t)+" # and something else\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.core.Engine().Registry.ReloadRuntimes()
	if err := h.core.Engine().Registry.Start(context.Background(), "scripted"); err == nil {
		t.Fatal("the server started with its script changed since it was approved")
	}
	h.s.Show(hint.PageCapability, "scripted")
	p := h.s.mcp
	if !strings.Contains(p.status.Text, "does not start") || p.enable.Hidden {
		t.Fatalf("status %q, Enable… hidden %v; want why and Enable… offered", p.status.Text, p.enable.Hidden)
	}
	h.tap("Enable…")
	h.tap("Approve and enable")
	if err := h.core.Engine().Registry.Start(context.Background(), "scripted"); err != nil {
		t.Errorf("approved again, it does not start: %v (outcome %q)", err, p.outcome.Text())
	}
}
