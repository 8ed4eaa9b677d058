package assistant

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A credential file reached by a path the credential rules do not spell:
// through /proc/self/root or /proc/<pid>/cwd (the kernel's view of the
// same folders), a home given with a trailing slash or a doubled
// separator, or a symbolic link in a granted folder to the key (or to a
// folder above it). fs_read refuses each, and attaching it does too, but
// for a spelling that cleans to the key's own path: attaching the key
// itself is the person's choice (the header of attachread.go).
func TestCredentialReachedByAnotherPathSpelling(t *testing.T) {
	for _, tt := range []struct {
		name   string
		path   func(t *testing.T, home string) string
		direct bool // cleans to the key's own path
	}{
		{"/proc/self/root", func(t *testing.T, home string) string { return "/proc/self/root" + sshKey(home) }, false},
		{"/proc/pid/root", func(t *testing.T, home string) string {
			return "/proc/" + strconv.Itoa(os.Getpid()) + "/root" + sshKey(home)
		}, false},
		{"/proc/thread-self/root", func(t *testing.T, home string) string { return "/proc/thread-self/root" + sshKey(home) }, false},
		{"doubled separator", func(t *testing.T, home string) string { return home + "//.ssh//id_ed25519" }, true},
		{"dot segments", func(t *testing.T, home string) string { return home + "/projects/../.ssh/./id_ed25519" }, true},
		{"symlink in a granted folder to the key", func(t *testing.T, home string) string {
			p := filepath.Join(home, "projects", "key.txt")
			if err := os.Symlink(sshKey(home), p); err != nil {
				t.Skip("symbolic links unsupported here:", err)
			}
			return p
		}, false},
		{"symlink in a granted folder to ~/.ssh", func(t *testing.T, home string) string {
			p := filepath.Join(home, "projects", "sshdir")
			if err := os.Symlink(filepath.Join(home, ".ssh"), p); err != nil {
				t.Skip("symbolic links unsupported here:", err)
			}
			return filepath.Join(p, "id_ed25519")
		}, false},
		{"symlink in a granted folder to /proc/self/root", func(t *testing.T, home string) string {
			p := filepath.Join(home, "projects", "root")
			if err := os.Symlink("/proc/self/root", p); err != nil {
				t.Skip("symbolic links unsupported here:", err)
			}
			return p + sshKey(home)
		}, false},
		{"deep pass entry through a folder link", func(t *testing.T, home string) string {
			write(t, filepath.Join(home, ".password-store", "work", "bank.gpg"), "PRIVATE KEY TOPSECRET")
			p := filepath.Join(home, "projects", "work")
			if err := os.Symlink(filepath.Join(home, ".password-store", "work"), p); err != nil {
				t.Skip("symbolic links unsupported here:", err)
			}
			return filepath.Join(p, "bank.gpg")
		}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, m, home := attackHome(t)
			if _, err := os.Stat(sshKey(home)); err != nil {
				t.Fatalf("the fake home has no key: %v", err)
			}
			p := tt.path(t, home)
			if _, err := os.Stat(p); err != nil {
				t.Skipf("%s does not reach the key here: %v", p, err)
			}
			_, res := callTurn(t, a, m, 0, nil, "fs_read", map[string]any{"path": p})
			if !res.IsError || strings.Contains(res.Text, "PRIVATE KEY") {
				t.Errorf("fs_read of %s: %q (error %v); want a refusal", p, res.Text, res.IsError)
			}
			if tt.direct {
				return
			}
			if f, err := a.ReadAttachment(p); err == nil || strings.Contains(f.Text, "PRIVATE KEY") {
				t.Errorf("ReadAttachment(%s): %q, %v; want a refusal", p, f.Text, err)
			}
		})
	}
}
