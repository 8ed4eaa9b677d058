//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// The start's walks of .git/modules list at most maxModuleFoldersPerStart
// folders: a command that plants one HEAD in .git/modules/x and fills
// x/objects with empty folders (each listed and looked at in turn) made
// every later start pay for all of them (a36: 100,000 cost 1.5–3.6 s).
// Past the bound the walk stops and .git/modules is read-only whole.
func TestModulesWalkFoldersBounded(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("GIT_CONFIG_GLOBAL", "")
	t.Setenv("GIT_CONFIG_SYSTEM", "")
	grant := t.TempDir()
	repo := filepath.Join(grant, "x")
	x := filepath.Join(repo, ".git", "modules", "x")
	if err := os.MkdirAll(x, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{filepath.Join(repo, ".git", "HEAD"), filepath.Join(x, "HEAD")} {
		if err := os.WriteFile(f, []byte("ref: refs/heads/main\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a36Folders(t, filepath.Join(x, "objects"), maxModuleFoldersPerStart+10)
	pl := mountPlan(Policy{ReadWrite: []string{grant}}, grant)
	modules := filepath.Join(repo, ".git", "modules")
	closed := slices.ContainsFunc(pl.mounts, func(m mountTarget) bool { return m.path == modules && m.readOnly })
	if !closed {
		t.Errorf("a planted git folder with %d folders in its objects: %s is not read-only whole (notes: %q)", maxModuleFoldersPerStart+10, modules, pl.notes)
	}
	if !slices.ContainsFunc(pl.notes, func(n string) bool { return strings.Contains(n, modules) }) {
		t.Errorf("the notes do not say why %s is read-only: %q", modules, pl.notes)
	}
}

// a36Folders makes n empty folders in dir, named 0 … n-1 (mkdirat).
func a36Folders(t testing.TB, dir string, n int) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	for i := range n {
		if err := unix.Mkdirat(fd, strconv.Itoa(i), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}
