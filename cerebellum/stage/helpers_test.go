package stage

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"
)

// treeHash digests every path under root with its type, permissions and
// content (or link target), so any write, removal or mode change shows.
func treeHash(t testing.TB, root string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		info, err := os.Lstat(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%v\x00", filepath.ToSlash(rel), info.Mode())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%s\x00", target)
		case info.Mode().IsRegular():
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%d\x00%s\x00", len(data), data)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("hash %s: %v", root, err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// windows relaxes Unix mode assertions.
const windows = runtime.GOOS == "windows"

// workspace makes tmp/ws/.staging holding an older staging folder, so a
// rejected Stage must leave existing content alone too.
func workspace(t testing.TB) (tmp, parent string) {
	t.Helper()
	tmp = t.TempDir()
	parent = filepath.Join(tmp, "ws", ".staging")
	if err := os.MkdirAll(filepath.Join(parent, "stage-older"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(parent, "stage-older", "SKILL.md"), []byte("older"), 0o644); err != nil {
		t.Fatal(err)
	}
	return tmp, parent
}

// stagedTree lists the files under dir (slash paths, sorted) and fails on
// anything that is not a 0644 or 0755 file or a 0755 folder.
func stagedTree(t testing.TB, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := os.Lstat(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		switch {
		case info.IsDir():
			if perm := info.Mode().Perm(); perm != 0o755 && !windows {
				t.Errorf("folder %s has mode %v, want 0755", rel, perm)
			}
		case info.Mode().IsRegular():
			if m := info.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky); m != 0o644 && m != 0o755 && !windows {
				t.Errorf("file %s has mode %v, want 0644 or 0755", rel, m)
			}
			files = append(files, filepath.ToSlash(rel))
		default:
			t.Errorf("%s is a %v, not a file or folder", rel, info.Mode().Type())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return files
}

// execFiles lists the files under dir whose owner may execute them (none
// on Windows, which has no mode bits).
func execFiles(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	if windows {
		return nil
	}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Mode().Perm()&0o100 != 0 {
			rel, _ := filepath.Rel(dir, path)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}
