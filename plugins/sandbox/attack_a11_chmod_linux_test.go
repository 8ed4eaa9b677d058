package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"
)

// a11: chmod is outside Landlock and the seccomp filter refuses only
// set-ID bits and write for others (0o002). A path is enough: a sandboxed
// process changes the mode of files it may not read or write at all.
// So it opens the person's credentials to other local users (read for
// others is allowed: chmod 644 ~/.ssh/id_ed25519, ~/.aws/credentials),
// and opens the startup files and the home folder to the person's group
// (g+w is allowed), which on systems where every user shares one group
// (openSUSE's `users`, many university and company machines) lets any
// other local user write ~/.bashrc or plant a new dot file. Wrasse puts
// back only its own workspace's modes.
//
// Reproduction: grant ~; shell_exec: chmod 644 ~/.ssh/id_ed25519; chmod g+w ~ ~/.bashrc
func TestA11ChmodOpensCredentialsAndStartupFiles(t *testing.T) {
	requireLandlock(t)
	home := homeWith(t, map[string]string{".ssh/id_ed25519": "A11SECRET key\n", ".aws/credentials": "A11SECRET\n", ".bashrc": "# mine\n"})
	for _, rel := range []string{".ssh/id_ed25519", ".aws/credentials", ".bashrc"} {
		if err := os.Chmod(filepath.Join(home, rel), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(home, 0o700); err != nil {
		t.Fatal(err)
	}
	for who, p := range homeGrantedPolicies(t, home) {
		for _, tc := range []struct {
			rel  string
			mode os.FileMode
		}{{".ssh/id_ed25519", 0o644}, {".aws/credentials", 0o644}, {".bashrc", 0o660}, {"", 0o770}} {
			path := filepath.Join(home, tc.rel)
			t.Run(who+" ~/"+tc.rel, func(t *testing.T) {
				run(t, p, "chmod "+modeOctal(tc.mode)+" "+path)
				info, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				if got := info.Mode().Perm(); got&0o077 != 0 {
					t.Errorf("a sandboxed %s changed the mode of ~/%s to %v (it may not even read it); want chmod that opens a file to group or others refused outside the sandbox's writable folders", who, tc.rel, got)
				}
				orig := os.FileMode(0o600)
				if tc.rel == "" {
					orig = 0o700
				}
				os.Chmod(path, orig)
			})
		}
	}
}

func modeOctal(m os.FileMode) string {
	const digits = "01234567"
	p := m.Perm()
	return string([]byte{digits[p>>6&7], digits[p>>3&7], digits[p&7]})
}
