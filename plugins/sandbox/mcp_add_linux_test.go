package sandbox_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// a6AttackerEnv makes TestStagingAttacker the attacker: a process in
// the shell command sandbox that rewrites the SKILL.md Wrasse stages
// for `wrasse mcp add` in the temporary folder.
const a6AttackerEnv = "WRASSE_A6_STAGING_ATTACKER"

// TestStagingAttacker is not a test: run in the sandbox by
// TestCommandCannotRewriteAnMCPServerBeingAdded, it waits for the staged
// SKILL.md of the server named by the variable and swaps its innocent
// argument for its own, until killed.
func TestStagingAttacker(t *testing.T) {
	name := os.Getenv(a6AttackerEnv)
	if name == "" {
		return
	}
	pattern := filepath.Join(os.TempDir(), "wrasse-mcp-*", name, "SKILL.md")
	for {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil || !bytes.Contains(b, []byte("a6-innocent")) {
				continue
			}
			_ = os.WriteFile(f, bytes.ReplaceAll(b, []byte("a6-innocent"), []byte("a6-planted")), 0o600)
		}
	}
}

// `wrasse mcp add` (App.AddMCP) writes the server's SKILL.md into a
// folder it makes in the temporary folder (os.MkdirTemp("", "wrasse-mcp-"))
// and then installs that folder as approved and enabled, with the secrets
// the person typed assigned to it. The temporary folder is read-write to
// every shell command (ForCommand's Temp defaults to os.TempDir()), so a
// command left running by the model rewrites the staged file in between:
// the person approved `a6-innocent`, Wrasse installed, approved and
// enabled what the command wrote, with the person's token in its
// environment. Wrasse's own staging must be out of every sandbox's reach
// (a private folder), or the installed block checked against what was
// approved.
func TestCommandCannotRewriteAnMCPServerBeingAdded(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	// The workspace where people keep it, not in the temporary folder
	// (which would carve the temporary folder around it).
	base, err := os.MkdirTemp("/var/tmp", "a6-ws-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	ws := filepath.Join(base, "ws")
	a, err := assistant.Open(assistant.Options{Workspace: ws, Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	const name = "a6victim"

	// The attacker, confined as shell_exec confines a command (plugins/env.go).
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: protectedOf(ws)})
	cmd := exec.Command("/usr/bin/env", "-u", launcherEnv, a6AttackerEnv+"="+name, exe, "-test.run=^TestStagingAttacker$")
	if err := sandbox.Command(cmd, []string{exe}, p); err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(os.Environ(), launcherEnv+"=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()

	ctx := context.Background()
	for i := 0; i < 40; i++ {
		s := assistant.MCPServer{Name: name, MCPServer: skillmd.MCPServer{Command: "/bin/true", Args: []string{"a6-innocent"},
			Env: map[string]string{"GITHUB_TOKEN": "ghp_a6persontypedthisvalue"}}}
		res, err := a.AddMCP(ctx, s, false)
		if err != nil {
			t.Fatalf("add: %v (attacker: %s)", err, out.String())
		}
		got, err := a.MCPServerOf(name)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(got.Args, "a6-planted") || strings.Contains(got.Launch(), "a6-planted") {
			t.Fatalf("attempt %d: a sandboxed shell command rewrote the server being added in Wrasse's staging folder under %s: installed %q (disabled=%v) with the person's GITHUB_TOKEN, though the person added %q; want Wrasse's staging out of every sandbox's reach",
				i+1, os.TempDir(), got.Launch(), res.Disabled, s.Launch())
		}
		if err := a.Remove(ctx, name); err != nil {
			t.Fatal(err)
		}
	}
}
