package assistant

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

const sandboxProbeSkill = `---
name: probe
description: A workspace plugin for the sandbox report.
permissions: [files]
tools:
  - name: probe_run
    description: Run.
---
`

const sandboxProbeSrc = `package probe

import (
	"context"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("probe_run", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) { return sdk.Text("ok"), nil })
	return p, nil
}
`

const sandboxGuideSkill = "---\nname: howto\ndescription: A guide.\n---\nRead me.\n"

// openSandboxTest opens a workspace holding a plugin and a guide, with or
// without a plugin process (its command line is never run here).
func openSandboxTest(t *testing.T, child []string) *App {
	t.Helper()
	ws := t.TempDir()
	caps := cerebellum.CapabilitiesDir(ws)
	for path, text := range map[string]string{
		"probe/SKILL.md": sandboxProbeSkill, "probe/plugin/main.go": sandboxProbeSrc, "howto/SKILL.md": sandboxGuideSkill,
	} {
		p := filepath.Join(caps, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, err := Open(Options{Workspace: ws, Retries: -1, PluginChild: child})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

func TestSandboxInfo(t *testing.T) {
	st := sandbox.Expect(false)
	cases := []struct {
		name      string
		child     []string
		capName   string
		inProcess bool
		sandboxed bool
		commands  bool
		has       []string
	}{
		{name: "guide", capName: "howto", has: []string{"no code"}},
		{name: "built-in", child: []string{"/nonexistent/wrasse", "__plugin"}, capName: "filesystem", inProcess: true,
			has: []string{"runs inside Wrasse, not sandboxed", "ships with Wrasse"}},
		{name: "built-in shell", child: []string{"/nonexistent/wrasse", "__plugin"}, capName: "shell", inProcess: true, commands: true,
			has: []string{"runs inside Wrasse", "commands it runs:"}},
		{name: "shell without a launcher", capName: "shell", inProcess: true,
			has: []string{"commands it runs are not sandboxed"}},
		{name: "workspace plugin in a plugin process", child: []string{"/nonexistent/wrasse", "__plugin"}, capName: "probe", sandboxed: true,
			has: []string{"runs in a process of its own", st.String()}},
		{name: "workspace plugin without a plugin process", capName: "probe", inProcess: true,
			has: []string{"not sandboxed: runs inside Wrasse"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := openSandboxTest(t, tc.child)
			info, err := a.Sandbox(tc.capName)
			if err != nil {
				t.Fatal(err)
			}
			if info.InProcess != tc.inProcess || info.Sandboxed != tc.sandboxed || info.Commands != tc.commands {
				t.Fatalf("%+v; want inProcess=%v sandboxed=%v commands=%v", info, tc.inProcess, tc.sandboxed, tc.commands)
			}
			for _, h := range tc.has {
				if !strings.Contains(info.Summary, h) {
					t.Errorf("summary %q does not say %q", info.Summary, h)
				}
			}
			if tc.sandboxed {
				// What the kernel cannot enforce is said, and only that.
				if len(info.Gaps) != len(st.Gaps()) {
					t.Errorf("gaps %q; the kernel's are %q", info.Gaps, st.Gaps())
				}
				if st.Files && (len(info.Enforced) == 0 || !strings.Contains(info.Enforced[0], "only the folders granted")) {
					t.Errorf("enforced %q does not say the file rule", info.Enforced)
				}
			}
			if !tc.sandboxed && info.Code && !strings.Contains(tc.capName, "shell") && len(info.Enforced) > 0 {
				t.Errorf("enforced %q for code that is not sandboxed", info.Enforced)
			}
		})
	}
	a := openSandboxTest(t, nil)
	if _, err := a.Sandbox("nope"); !errors.Is(err, cerebellum.ErrNotFound) {
		t.Fatalf("unknown capability: %v", err)
	}
}

// Wrasse's executable starts every plugin process and sandbox before they
// are confined, so every sandbox gets it read-only wherever it lies.
func TestProtectedPathsKeepTheExecutableReadOnly(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("no executable path here: %v", err)
	}
	p := ProtectedPaths(t.TempDir())
	found := false
	for _, r := range p.ReadOnly {
		found = found || r == exe
	}
	if !found {
		t.Errorf("ProtectedPaths.ReadOnly = %q; want the executable %s among them", p.ReadOnly, exe)
	}
}
