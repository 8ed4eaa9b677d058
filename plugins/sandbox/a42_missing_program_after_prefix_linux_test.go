//go:build linux

package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// a42: a program setting naming a program that does not exist yet was
// made empty first (settingNameMount) only when it was the value's first
// word (programWord.first): `./tools/strip.sh` was, but in `exec
// ./tools/strip.sh`, `env ./tools/strip.sh` or `LC_ALL=C ./tools/strip.sh`
// the first word is the prefix, so a missing program stayed the
// command's to make, and the person's next git add ran it unconfined.
// Each simple command's program, past reserved words, assignments and
// prefixes with their options, is now first: made empty before the
// command starts.
func TestA42MissingProgramAfterPrefix(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	for _, clean := range []string{"exec ./tools/strip.sh", "env ./tools/strip.sh", "LC_ALL=C ./tools/strip.sh"} {
		t.Run(clean, func(t *testing.T) {
			f := newFixture(t)
			app := newRepo(t, filepath.Join(f.granted, "app"))
			marker := filepath.Join(f.outside, "ran-unconfined")
			git(t, app, "config", "filter.strip.clean", clean)
			if err := os.WriteFile(filepath.Join(app, ".gitattributes"), []byte("*.txt filter=strip\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			git(t, app, "add", "-A")
			git(t, app, "commit", "-q", "-m", "setup")
			out, _ := runIn(t, f.commandPolicy(), app, "mkdir -p tools && printf '#!/bin/sh\\ntouch "+marker+"\\ncat\\n' > tools/strip.sh && chmod +x tools/strip.sh && echo A42-WROTE", nil)
			if strings.Contains(out, "no mount namespace") {
				t.Fatalf("no mount namespace: %s", out)
			}
			if err := os.WriteFile(filepath.Join(app, "x.txt"), []byte("x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			got := gitOK(app, "add", "x.txt")
			if _, err := os.Stat(marker); err == nil {
				t.Errorf("%q: the command made the missing program, and the person's git add ran it unconfined: command: %s\nperson's git: %s", clean, out, got)
			}
		})
	}
}
