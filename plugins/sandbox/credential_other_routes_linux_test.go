package sandbox_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// The read-only mount covers a credential's path, not its inode: other
// routes to the same file must not reach it either. A hard link into a
// granted folder (Landlock refuses linking a file the command may not
// read), a descriptor opened with O_PATH (which Landlock lets through)
// and chmod through /proc/self/fd, the file reached through another
// process's /proc/PID/root (the test's own process, outside the
// sandbox), and .git/config linked out of its mount.
func TestMountNamespaceCredentialOtherRoutes(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	home, key := credentialHome(t)
	f := newFixture(t)
	repo := newRepo(t, filepath.Join(home, "repo"))
	pid := strconv.Itoa(os.Getpid())
	lines := []string{
		"ln " + key + " k && chmod 644 k",
		"ln .git/config cfg && echo '[core]' >> cfg",
		"chmod 644 /proc/" + pid + "/root" + key,
		"cat /proc/" + pid + "/root" + key,
		"cat /proc/" + pid + "/root" + filepath.Join(f.ws, "wrasse.db"),
	}
	// The system's python: a version manager's shim in the home
	// folder may not run in the sandbox.
	if py, err := exec.LookPath("/usr/bin/python3"); err == nil {
		lines = append(lines, py+` -c 'import os,sys; fd=os.open(sys.argv[1], os.O_PATH); os.chmod("/proc/self/fd/%d" % fd, 0o644)' `+key)
	}
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{home}, Protected: f.protected(), Home: home, Temp: f.temp})
	for _, line := range lines {
		out, ok := runIn(t, p, repo, line, nil)
		if ok || strings.Contains(out, "BEGIN OPENSSH") || strings.Contains(out, "SECRET-KEY") {
			t.Errorf("`%s` succeeded=%v: %s", line, ok, out)
		}
	}
	if fi, err := os.Stat(key); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the key's mode is %v (%v), want 0600", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, ".git", "config")); strings.Count(string(b), "[core]") != 1 {
		t.Errorf(".git/config changed: %s", b)
	}
}
