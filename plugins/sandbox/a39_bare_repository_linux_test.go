//go:build attack && linux

package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// a39: the namespace protects the repositories it finds by a `.git` entry
// (at or above the working folder, and beneath each grant). A bare
// repository has none: mirror.git holds HEAD, config, hooks and objects
// itself (git clone --mirror, git init --bare: the local remote people
// push to, a backup of a project). In a grant its hooks and config are
// the command's to write, and the person's own `git push mirror`, from a
// repository anywhere, runs receive-pack in it, with its hooks
// (pre-receive, update, post-receive), unconfined.
func TestA39BareRepositoryHooksRunUnconfined(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	bare := filepath.Join(f.granted, "mirror.git")
	git(t, f.granted, "init", "-q", "--bare", bare)
	work := filepath.Join(f.outside, "work")
	git(t, f.outside, "init", "-q", work)
	if err := os.WriteFile(filepath.Join(work, "f"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, work, "add", "f")
	git(t, work, "commit", "-qm", "a")
	git(t, work, "remote", "add", "mirror", bare)
	git(t, work, "push", "-q", "mirror", "main")

	pwned := filepath.Join(f.outside, "pwned")
	line := "printf '#!/bin/sh\\ntouch " + pwned + "\\n' > mirror.git/hooks/post-receive && chmod +x mirror.git/hooks/post-receive"
	out, ok := runIn(t, f.commandPolicy(), f.granted, line, nil)
	if strings.Contains(out, "no mount namespace") {
		t.Fatalf("the sandbox ran without its mount namespace: %s", out)
	}
	// The person, unconfined, pushes a new commit to the mirror.
	if err := os.WriteFile(filepath.Join(work, "f"), []byte("b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, work, "commit", "-qam", "b")
	git(t, work, "push", "-q", "mirror", "main")
	if _, err := os.Stat(pwned); err == nil {
		t.Errorf("`%s` (succeeded=%v, output %q) wrote a hook of the bare repository %s in the grant, and the person's git push to it ran the hook unconfined (it made %s outside every grant)", line, ok, out, bare, pwned)
	}
}
