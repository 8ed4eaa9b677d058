package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// core.hooksPath moves a repository's hooks out of .git/hooks: husky (most
// JavaScript projects) sets it to .husky/_, a folder of the working tree
// that husky's own .gitignore (`*`) hides from git status. The namespace
// makes .git/hooks read-only, but the folder git actually runs hooks from
// lies in the grant, writable: a command adds a line there and the
// person's next `git commit`, unconfined, runs it, with nothing in
// `git status` or `git diff` to show it.
func TestMountNamespaceKeepsHooksPathFolder(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	for _, tc := range []struct{ name, hooksPath, hookDir string }{
		{"husky_relative", ".husky/_", ".husky/_"},
		{"githooks_absolute", "", ".githooks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			repo := f.granted
			git(t, repo, "init", "-q")
			hooks := filepath.Join(repo, tc.hookDir)
			if err := os.MkdirAll(hooks, 0o755); err != nil {
				t.Fatal(err)
			}
			hooksPath := tc.hooksPath
			if hooksPath == "" {
				hooksPath = hooks
			}
			git(t, repo, "config", "core.hooksPath", hooksPath)
			if err := os.WriteFile(filepath.Join(hooks, ".gitignore"), []byte("*\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			hook := filepath.Join(hooks, "pre-commit")
			if err := os.WriteFile(hook, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(repo, "a"), []byte("a\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			git(t, repo, "add", "a")
			git(t, repo, "commit", "-qm", "first")
			status := git(t, repo, "status", "--porcelain")

			pwned := filepath.Join(f.outside, "pwned")
			p := f.commandPolicy()
			for _, line := range []string{
				"printf 'touch " + pwned + "\\n' >> " + hook,
				"printf '#!/bin/sh\\ntouch " + pwned + "\\n' > " + filepath.Join(hooks, "post-commit") + " && chmod +x " + filepath.Join(hooks, "post-commit"),
			} {
				out, _ := runIn(t, p, repo, line, nil)
				if strings.Contains(out, "no mount namespace") {
					t.Fatalf("the sandbox ran without its mount namespace: %s", out)
				}
			}
			after := git(t, repo, "status", "--porcelain")
			// The person commits, outside any sandbox.
			if err := os.WriteFile(filepath.Join(repo, "b"), []byte("b\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			git(t, repo, "add", "b")
			git(t, repo, "commit", "-qm", "second")
			if _, err := os.Stat(pwned); err == nil {
				t.Errorf("a sandboxed command changed the hooks in %s (core.hooksPath %s), and the person's git commit ran them unconfined; git status before %q, after %q", hooks, hooksPath, status, after)
			}
		})
	}
}
