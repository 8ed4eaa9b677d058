package sandbox_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Builds in a repository whose folder the mount namespace pins (inside a
// grant, with a submodule and a worktree mounted) keep working: go build,
// npm, a Python virtual environment, each where installed.
func TestMountNamespaceKeepsBuildsInRepository(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := newRepo(t, filepath.Join(f.granted, "code", "app"))
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "first")
	git(t, repo, "worktree", "add", "-q", filepath.Join(f.granted, "code", "wt"))
	p := f.commandPolicy()
	for _, tc := range []struct{ tool, line string }{
		{"go", "go mod init example.com/x && printf 'package main\\n\\nfunc main() { println(\"built\") }\\n' > m.go && go build -o m . && ./m"},
		{"npm", "npm init -y >/dev/null && npm pack --dry-run 2>&1 | grep -q 'name:' && echo built"},
		{"/usr/bin/python3", "/usr/bin/python3 -m venv --without-pip v && v/bin/python -c 'print(\"built\")'"},
	} {
		t.Run(filepath.Base(tc.tool), func(t *testing.T) {
			if _, err := exec.LookPath(tc.tool); err != nil {
				t.Skip("no " + tc.tool)
			}
			dir := filepath.Join(repo, filepath.Base(tc.tool))
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			out, ok := runIn(t, p, dir, "export HOME="+f.temp+" TMPDIR="+f.temp+"; "+tc.line, nil)
			if !ok || !strings.Contains(out, "built") || strings.Contains(out, "no mount namespace") {
				t.Errorf("`%s`: succeeded=%v: %s", tc.line, ok, out)
			}
		})
	}
}
