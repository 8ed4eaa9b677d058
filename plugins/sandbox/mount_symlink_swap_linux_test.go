package sandbox_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

// The launcher mounts each path of its plan on itself (mount(path, path)),
// before Landlock. The kernel looks the two names up one after the other:
// the target first, then the source. A process that can write in the
// granted repository (an MCP server, a command's leftover setsid child, a
// plugin's own process) flips .git/worktrees, which the plan lists entry
// by entry, between a folder of plain files and one whose same names are
// links to a file the sandbox may not read. When the flip falls between
// the two look-ups, the unreadable file is mounted over the plain one,
// inside the granted folder, where Landlock (which follows the mount to its
// mount point) lets the command read it.
func TestMountNamespaceSwappedLinkMountsNoCredential(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	names := ".git/worktrees/*/commondir .git/wtB/*/commondir .git/worktrees/*/config.worktree .git/wtB/*/config.worktree"
	for _, tc := range []struct {
		name   string
		target func(f fixture) string // the file the links name
		line   string
		leaked func(target, out string) bool
	}{
		{"read Wrasse's data", func(f fixture) string { return filepath.Join(f.ws, "wrasse.db") },
			"cat " + names + " 2>/dev/null | grep -m1 SECRET-KEY; true",
			func(_, out string) bool { return strings.Contains(out, "SECRET-KEY") }},
		// The read-only step after the bind fails when the name is a link
		// again by then: the mount stays writable (a ~/.bashrc would do).
		{"write a file outside the grants", func(f fixture) string { return filepath.Join(f.outside, "o.txt") },
			"for x in " + names + "; do [ -L \"$x\" ] || echo PWNED >> \"$x\"; done 2>/dev/null; true",
			func(target, _ string) bool { b, _ := os.ReadFile(target); return strings.Contains(string(b), "PWNED") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			target := tc.target(f)
			p := f.commandPolicy()
			if out, _ := runIn(t, p, f.granted, "cat "+target+"; echo PWNED >> "+target, nil); tc.leaked(target, out) {
				t.Fatalf("the sandbox reaches %s without any trick: %s", target, out)
			}
			swapLinksDuringMounts(t, f.granted, target, func() {
				for try := range 20 {
					out, _ := runIn(t, p, f.granted, tc.line, nil)
					if tc.leaked(target, out) {
						t.Fatalf("launch %d: a link swapped during the launcher's mounts put %s in the granted repository, and the command reached it: %.300s", try+1, target, out)
					}
				}
			})
		})
	}
}

// The same race on a folder the launcher pins (a submodule's git folder,
// .git/modules/NAME: mounted on itself, writable): the whole folder the
// link names lands in the grant, writable with no read-only step to fail.
// A home folder there would give the command ~/.bashrc and ~/.ssh.
func TestMountNamespaceSwappedLinkMountsNoFolder(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	git(t, f.granted, "init", "-q")
	dotgit := filepath.Join(f.granted, ".git")
	real, links := filepath.Join(dotgit, "modules"), filepath.Join(dotgit, "modB")
	for i := range 1000 {
		d := filepath.Join(real, fmt.Sprintf("m%d", i))
		if err := os.MkdirAll(filepath.Join(d, "hooks"), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"HEAD", "config"} {
			if err := os.WriteFile(filepath.Join(d, name), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.MkdirAll(links, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(f.outside, filepath.Join(links, fmt.Sprintf("m%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	target := filepath.Join(f.outside, "o.txt")
	p := f.commandPolicy()
	line := "for d in .git/modules/* .git/modB/*; do [ -L \"$d\" ] || echo PWNED >> \"$d/o.txt\"; done 2>/dev/null; true"
	exchangeDuring(t, real, links, func() {
		for try := range 40 {
			out, _ := runIn(t, p, f.granted, line, nil)
			if b, _ := os.ReadFile(target); strings.Contains(string(b), "PWNED") {
				t.Fatalf("launch %d: a link swapped during the launcher's mounts put the folder %s, writable, in the granted repository: %.300s", try+1, f.outside, out)
			}
		}
	})
}

// swapLinksDuringMounts makes dir a repository whose .git/worktrees holds
// 1000 entries of plain commondir and config.worktree files, and
// .git/wtB the same names as links to target, and exchanges the two
// folders without pause while during runs.
func swapLinksDuringMounts(t *testing.T, dir, target string, during func()) {
	t.Helper()
	git(t, dir, "init", "-q")
	dotgit := filepath.Join(dir, ".git")
	plain, links := filepath.Join(dotgit, "worktrees"), filepath.Join(dotgit, "wtB")
	for i := range 1000 {
		for _, d := range []string{plain, links} {
			if err := os.MkdirAll(filepath.Join(d, fmt.Sprintf("w%d", i)), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for _, name := range []string{"commondir", "config.worktree"} {
			if err := os.WriteFile(filepath.Join(plain, fmt.Sprintf("w%d", i), name), []byte("plain\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, filepath.Join(links, fmt.Sprintf("w%d", i), name)); err != nil {
				t.Fatal(err)
			}
		}
	}
	exchangeDuring(t, plain, links, during)
}

// exchangeDuring exchanges the folders a and b (renameat2 RENAME_EXCHANGE,
// as any process that may write beside them can) without pause while
// during runs.
func exchangeDuring(t *testing.T, a, b string, during func()) {
	t.Helper()
	if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
		t.Skipf("renameat2 RENAME_EXCHANGE: %v", err)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			_ = unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
		}
	}()
	defer func() { stop.Store(true); wg.Wait() }()
	during()
}
