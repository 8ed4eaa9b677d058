package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// Landlock governs no chmod, and giving up capabilities does not take
// away an owner's right to change its own files' modes. docs/plugins.md
// treats this as a limit for Wrasse's own files only ("keep your home
// folder closed to other users"), but a command changes the mode of any
// file its user owns, wherever it lies, the home folder itself included:
// it opens ~/.ssh, ~/.bashrc or the home folder to every local user for
// writing, or sets the set-user-ID bit. As root (these tests run as root)
// that is every system file: chmod 0666 /etc/passwd or chmod 4755 on a
// shell makes any local user root. The mode is a plain argument of
// chmod(2), fchmod(2) and fchmodat(2) that seccomp can read: refusing
// write-for-others and set-ID bits keeps chmod +x for builds.
func TestCommandCannotChmodFilesOpenToOthers(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	secret := filepath.Join(f.outside, "id_ed25519")
	if err := os.WriteFile(secret, []byte("-----BEGIN OPENSSH PRIVATE KEY-----\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	shell := filepath.Join(f.outside, "sh")
	if err := os.WriteFile(shell, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(f.outside, 0o700); err != nil {
		t.Fatal(err)
	}
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Temp: f.temp, Network: true})
	for _, tc := range []struct{ name, line, path string }{
		{"a folder outside the grants opened for writing by all", "chmod 0777 " + f.outside, f.outside},
		{"a private key outside the grants opened to all", "chmod 0666 " + secret, secret},
		{"a program outside the grants made set-user-ID", "chmod 4755 " + shell, shell},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, err := os.Stat(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := run(t, p, tc.line)
			after, err := os.Stat(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			if after.Mode() != before.Mode() {
				t.Errorf("a sandboxed shell command ran %q on a path it may not even read: mode %v -> %v (%s); want chmod adding write for others or set-ID bits refused", tc.line, before.Mode(), after.Mode(), out)
			}
		})
	}
}
