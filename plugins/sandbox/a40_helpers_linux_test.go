//go:build linux

package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// a40g is git as a sandboxed command runs it.
const a40g = "git -c user.name=c -c user.email=c@x -c init.defaultBranch=main"

// a40Outer makes the grant a repository of the person's, with a commit.
func a40Outer(t *testing.T, f fixture) {
	t.Helper()
	git(t, f.granted, "init", "-q")
	git(t, f.granted, "commit", "-q", "--allow-empty", "-m", "first")
}

// a40Run runs line as a sandboxed command in the grant (HOME in the
// sandbox's temp) and fails the test unless it ran to its end in the
// mount namespace.
func a40Run(t *testing.T, f fixture, line string) string {
	t.Helper()
	out, ok := runIn(t, f.commandPolicy(), f.granted, "export HOME="+f.temp+"; "+line+" && echo A40-DONE", nil)
	if !ok || !strings.Contains(out, "A40-DONE") {
		t.Fatalf("the command failed: %s", out)
	}
	if strings.Contains(out, "no mount namespace") {
		t.Fatalf("the sandbox ran without its mount namespace: %s", out)
	}
	return out
}

// a40Ran: the marker exists, so the person's git ran what the command planted.
func a40Ran(marker string) bool {
	_, err := os.Stat(marker)
	return err == nil
}

// a40Replace puts the marker's path for %M and the script's for %S.
func a40Replace(line, marker, script string) string {
	return strings.NewReplacer("%M", marker, "%S", script).Replace(line)
}

// pickConflictHistory makes a repository at repo whose main branch
// conflicts with the first of the two commits on branch side (b1 changes
// f, c2 adds g): a cherry-pick of side~1 stops at a conflict.
func pickConflictHistory(t *testing.T, repo string) {
	t.Helper()
	git(t, repo, "init", "-q")
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("f", "a\n")
	git(t, repo, "add", "f")
	git(t, repo, "commit", "-qm", "base")
	git(t, repo, "checkout", "-qb", "side")
	write("f", "b\n")
	git(t, repo, "commit", "-qam", "b1")
	write("g", "c\n")
	git(t, repo, "add", "g")
	git(t, repo, "commit", "-qm", "c2")
	git(t, repo, "checkout", "-q", "main")
	write("f", "x\n")
	git(t, repo, "commit", "-qam", "x")
}

// appWithSrc makes the person's repository app in the grant, with a
// committed src/main.c: a work tree whose src a command makes a git
// folder of.
func appWithSrc(t *testing.T, f fixture) string {
	t.Helper()
	app := newRepo(t, filepath.Join(f.granted, "app"))
	if err := os.MkdirAll(filepath.Join(app, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(app, "src", "main.c"), []byte("int main(){}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, app, "add", "-A")
	git(t, app, "commit", "-q", "-m", "setup")
	return app
}

// signedCommitAtG is a command line that makes, in the bare repository
// at $G, a commit with a gpgsig header on refs/heads/main: the person's
// git log there with log.showSignature runs gpg.program for it, with no
// work tree, terminal or pager needed.
const signedCommitAtG = `T=$(` + a40g + ` -C $G mktree </dev/null) && ` +
	`C=$(printf 'tree %s\nauthor a <a@x> 1 +0000\ncommitter a <a@x> 1 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n x\n -----END PGP SIGNATURE-----\n\nmsg\n' $T | ` + a40g + ` -C $G hash-object -t commit -w --stdin) && ` +
	a40g + ` -C $G update-ref refs/heads/main $C`
