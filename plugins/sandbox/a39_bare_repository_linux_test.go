//go:build linux

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

// A grant that is itself a bare repository, and a command started in
// it: its hooks and config are read-only too, and a push into it from
// the command still works (objects and refs stay writable).
func TestBareRepositoryGrantKeepsHooksReadOnly(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	git(t, f.granted, "init", "-q", "--bare", f.granted)
	p := f.commandPolicy()
	out, _ := runIn(t, p, f.granted, "echo x > hooks/post-receive; echo y >> config; echo tried", nil)
	if b, err := os.ReadFile(filepath.Join(f.granted, "config")); err != nil || strings.Contains(string(b), "y\n") {
		t.Errorf("a command wrote the config of the bare repository it was granted (%v): %s", err, out)
	}
	if _, err := os.Stat(filepath.Join(f.granted, "hooks", "post-receive")); err == nil {
		t.Errorf("a command made a hook in the bare repository it was granted: %s", out)
	}
	work := filepath.Join(f.granted, "..", "work-"+filepath.Base(f.granted))
	git(t, f.outside, "init", "-q", work)
	if err := os.WriteFile(filepath.Join(work, "f"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, work, "add", "f")
	git(t, work, "commit", "-qm", "a")
	git(t, work, "push", "-q", f.granted, "HEAD:refs/heads/main")
	if out, ok := runIn(t, p, f.granted, "export HOME="+f.temp+"; git update-ref refs/heads/copy refs/heads/main && echo moved", nil); !ok || !strings.Contains(out, "moved") {
		t.Errorf("a command could not update a ref of the bare repository it was granted: %s", out)
	}
}
