package sandbox_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// chmod is outside Landlock: a process may change the mode of any file
// its user owns, even one it may not open. Write for the group on
// ~/.bashrc or the home folder hands the person's shell to everyone in a
// shared group (openSUSE puts every user in "users"), so the filter
// refuses group write as it does write for others.
//
// Not covered (docs/plugins.md, "What is not enforced"): chmod 644 of a
// credential file the sandbox cannot read opens it to other local users
// (not to the sandbox): the filter cannot see the path, and refusing
// read for others would refuse the chmod 644 builds need.
//
// Reproduction: grant ~; shell_exec: chmod 660 ~/.bashrc; chmod 770 ~
func TestChmodRefusesGroupWrite(t *testing.T) {
	requireLandlock(t)
	home := homeWith(t, map[string]string{".bashrc": "# mine\n"})
	if err := os.Chmod(filepath.Join(home, ".bashrc"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(home, 0o700); err != nil {
		t.Fatal(err)
	}
	for who, p := range homeGrantedPolicies(t, home) {
		for _, tc := range []struct {
			rel  string
			mode os.FileMode
			orig os.FileMode
		}{{".bashrc", 0o660, 0o600}, {".bashrc", 0o620, 0o600}, {"", 0o770, 0o700}, {"", 0o730, 0o700}} {
			path := filepath.Join(home, tc.rel)
			t.Run(fmt.Sprintf("%s ~/%s %s", who, tc.rel, modeOctal(tc.mode)), func(t *testing.T) {
				run(t, p, "chmod "+modeOctal(tc.mode)+" "+path)
				info, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				if got := info.Mode().Perm(); got&0o022 != 0 {
					t.Errorf("a sandboxed %s made ~/%s writable to the group: %v; want chmod with group or other write refused (EPERM)", who, tc.rel, got)
				}
				_ = os.Chmod(path, tc.orig)
			})
		}
	}
}

func modeOctal(m os.FileMode) string {
	const digits = "01234567"
	p := m.Perm()
	return string([]byte{digits[p>>6&7], digits[p>>3&7], digits[p&7]})
}
