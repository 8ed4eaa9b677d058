//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Hooks folders that exist 1,900 folders deep cost the kernel about 1.8
// million steps each to resolve: past a start's budget for the names
// settings give (maxSettingNameWork), the plan is refused, and says which
// repository's settings to look at, in bounded time; nothing is left
// open (a plan with no mounts would run the command unprotected).
func TestSettingNamesPastTheBudgetRefuseTheStart(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("GIT_CONFIG_GLOBAL", "")
	t.Setenv("GIT_CONFIG_SYSTEM", "")
	grant := t.TempDir()
	repo := filepath.Join(grant, "x")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const deep = 1900
	cfg := "[core]\n"
	for j := range 4 {
		first := fmt.Sprintf("d%d", j)
		cfg += "\thooksPath = " + first + strings.Repeat("/a", deep) + "\n"
		// Made a folder at a time (mkdirat), as mkdir -p does past
		// PATH_MAX.
		fd, err := unix.Open(repo, unix.O_RDONLY|unix.O_DIRECTORY, 0)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i <= deep; i++ {
			name := "a"
			if i == 0 {
				name = first
			}
			if err := unix.Mkdirat(fd, name, 0o755); err != nil {
				t.Fatal(err)
			}
			next, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY, 0)
			if err != nil {
				t.Fatal(err)
			}
			unix.Close(fd)
			fd = next
		}
		unix.Close(fd)
	}
	if err := os.WriteFile(filepath.Join(repo, ".git", "config"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	pl := mountPlan(Policy{ReadWrite: []string{grant}}, grant)
	took := time.Since(start)
	if pl.refused == "" || len(pl.mounts) != 0 {
		t.Fatalf("four hooks folders 1,900 folders deep, past the start's budget: refused %q, %d mounts; want refused, none", pl.refused, len(pl.mounts))
	}
	if !strings.Contains(pl.refused, repo) || !strings.Contains(pl.refused, "core.hooksPath") {
		t.Errorf("the refusal does not say which repository's settings to look at: %.400s", pl.refused)
	}
	t.Logf("refused after %v: %.300s", took, pl.refused)
}
