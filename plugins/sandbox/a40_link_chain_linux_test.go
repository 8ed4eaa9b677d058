//go:build linux

package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// a40: programMount and hookLinkMounts resolved a path through its links
// and mounted only the file it ends at; a link on the way that is itself
// a file in the work tree (npm's node_modules/.bin/TOOL ->
// ../PKG/bin/tool.js, a tools/pre-commit link a setup script made) was
// not, and the command replaced it with a script of its own, which the
// person's git then ran. Each link on the way is pinned now
// (linksOnTheWay).
func TestA40LinkOnTheWayToSettingScript(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	for _, c := range []struct {
		name     string
		clean    string // filter.strip.clean ("" for none)
		hookLink string // what .git/hooks/pre-commit links to ("" for none)
	}{{
		name:  "a filter's program that is a link",
		clean: "./bin/tool",
	}, {
		name:     "a hook linked to a link",
		hookLink: "../../bin/tool",
	}} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			app := newRepo(t, filepath.Join(f.granted, "app"))
			marker := filepath.Join(f.outside, "ran-unconfined")
			for _, d := range []string{"bin", "pkg"} {
				if err := os.MkdirAll(filepath.Join(app, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(app, "pkg", "tool.sh"), []byte("#!/bin/sh\ncat\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("../pkg/tool.sh", filepath.Join(app, "bin", "tool")); err != nil {
				t.Fatal(err)
			}
			if c.clean != "" {
				git(t, app, "config", "filter.strip.clean", c.clean)
				if err := os.WriteFile(filepath.Join(app, ".gitattributes"), []byte("*.txt filter=strip\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if c.hookLink != "" {
				if err := os.Symlink(c.hookLink, filepath.Join(app, ".git", "hooks", "pre-commit")); err != nil {
					t.Fatal(err)
				}
			}
			git(t, app, "add", "-A")
			git(t, app, "commit", "-q", "-m", "setup")
			out, _ := runIn(t, f.commandPolicy(), app, "echo x >> pkg/tool.sh; rm -f bin/tool && printf '#!/bin/sh\\ntouch "+marker+"\\ncat\\n' > bin/tool && chmod +x bin/tool", nil)
			if strings.Contains(out, "no mount namespace") {
				t.Fatalf("no mount namespace: %s", out)
			}
			if err := os.WriteFile(filepath.Join(app, "x.txt"), []byte("x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			got := gitOK(app, "add", "x.txt") + gitOK(app, "commit", "-q", "-m", "mine")
			if _, err := os.Stat(marker); err == nil {
				t.Errorf("%s: the person's git ran the script the command put in place of a link on the way: %s\nperson's git: %s", c.name, out, got)
			}
		})
	}
}
