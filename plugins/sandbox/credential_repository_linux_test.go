package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// pass keeps its store in a git repository, ~/.password-store, which is a
// credential folder: no sandbox reads it, and in the namespace it is a
// read-only mount of itself, so its modes cannot be changed (Landlock
// governs no chmod; the filter refuses only write-for-others and set-ID
// bits, not read-for-others). For a command started in it (shell_exec's
// cwd), the namespace pins each folder between the granted home folder and
// that .git with a writable mount of itself, and a path is mounted once:
// the pin takes the place of the store's read-only mount, and chmod 644
// opens the entries to every local user.
func TestCredentialRepositoryKeepsReadOnlyMount(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	home := homeWith(t, map[string]string{
		".bashrc":                  "# person's\n",
		".password-store/bank.gpg": "-----BEGIN PGP MESSAGE-----\n",
	})
	t.Setenv("HOME", home)
	store := filepath.Join(home, ".password-store")
	git(t, store, "init", "-q")
	entry := filepath.Join(store, "bank.gpg")
	f := newFixture(t)
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{home}, Protected: f.protected(), Home: home, Temp: f.temp})
	for _, dir := range []string{home, store} {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			for path, mode := range map[string]os.FileMode{entry: 0o600, store: 0o700} {
				if err := os.Chmod(path, mode); err != nil {
					t.Fatal(err)
				}
			}
			line := "chmod 644 " + entry + "; chmod 755 " + store
			out, _ := runIn(t, p, dir, line, nil)
			for path, mode := range map[string]os.FileMode{entry: 0o600, store: 0o700} {
				fi, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				if fi.Mode().Perm() != mode {
					t.Errorf("`%s` started in %s changed %s to %v, want %v: %s", line, dir, path, fi.Mode().Perm(), mode, out)
				}
			}
		})
	}
}
