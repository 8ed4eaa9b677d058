//go:build linux

package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"
)

// a40: settings in the person's own ~/.gitconfig ($GIT_CONFIG_GLOBAL
// here) that name a work-tree path: core.hooksPath = .githooks, set
// once for every project that keeps its hooks there. The person's git
// runs the hooks of whatever repository it is in.
func TestA40GlobalRelativeHooksPath(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	for _, c := range []struct {
		name   string
		before func(t *testing.T, f fixture)
		line   string
		dir    string
	}{{
		// A repository of the person's, there at the start, without a
		// .githooks folder yet.
		name: "a person's repository",
		before: func(t *testing.T, f fixture) {
			app := newRepo(t, filepath.Join(f.granted, "app"))
			git(t, app, "commit", "-q", "--allow-empty", "-m", "x")
		},
		line: "mkdir -p app/.githooks && cp %S app/.githooks/pre-commit",
		dir:  "app",
	}, {
		// A repository the command makes: DisarmNewRepos looks at its
		// .git/hooks and settings, not at the work-tree folder the
		// person's global settings name.
		name: "a repository the command made",
		line: a40g + " init -q inner && mkdir -p inner/.githooks && cp %S inner/.githooks/pre-commit",
		dir:  "inner",
	}} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			global := filepath.Join(f.outside, "gitconfig")
			if err := os.WriteFile(global, []byte("[core]\n\thooksPath = .githooks\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Setenv("GIT_CONFIG_GLOBAL", global)
			if c.before != nil {
				c.before(t, f)
			}
			marker, script := plantScript(t, f)
			out, _ := runIn(t, f.commandPolicy(), f.granted, "export HOME="+f.temp+"; unset GIT_CONFIG_GLOBAL; "+a40Replace(c.line, marker, script), nil)
			got := gitOK(filepath.Join(f.granted, c.dir), "commit", "-q", "--allow-empty", "-m", "mine")
			t.Logf("command: %s\nperson: %s", out, got)
			if a40Ran(marker) {
				t.Errorf("%s: the person's git commit ran a hook the command put in the folder the person's global core.hooksPath names: %s\nperson's git: %s", c.name, out, got)
			}
		})
	}
}
