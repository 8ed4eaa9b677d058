package sandbox_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Each command's launcher starts a watcher beside it with the git folders
// in which no commondir may appear (one a submodule). A command may make
// thousands of submodule folders with long names in .git/modules: handed
// as arguments, the list passes the kernel's bound on a command line
// (E2BIG), the watcher never starts, and a commondir the command makes
// stays for the person's git. Every later command must still start, with
// its watcher.
func TestMountNamespaceWatcherStartsWhateverTheGitFolders(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	git(t, f.granted, "init", "-q")
	deep := filepath.Join(f.granted, ".git", "modules")
	for _, c := range "abcdefgh" {
		deep = filepath.Join(deep, strings.Repeat(string(c), 250))
	}
	const n = 2000 // about 2 KiB a path: 4 MiB in all, past ARG_MAX
	for i := range n {
		m := filepath.Join(deep, fmt.Sprintf("m%d", i))
		if err := os.MkdirAll(m, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(m, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := f.commandPolicy()
	out, ok := runIn(t, p, f.granted, "echo ran", nil)
	if !ok || !strings.Contains(out, "ran") || strings.Contains(out, "watcher") {
		t.Fatalf("a command in a repository with %d long-named submodule folders: succeeded=%v: %.600s", n, ok, out)
	}
}
