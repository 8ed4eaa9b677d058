package sandbox

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The repository memory (Policy.RepoMemory): the walk beneath a grant
// reads at most maxWalkEntries entries, and a command can make that many
// files, so that later commands' walks stop before the person's
// repositories. What earlier walks found is kept in a file no sandbox
// reaches, and each launcher protects it too.

// Bounds of the memory: the repositories it keeps in all and beneath
// each grant (so that thousands a command makes in one grant cannot keep
// another grant's from being remembered), and the size of its file.
const (
	maxRemembered         = 16384
	maxRememberedPerGrant = 4096
	maxMemorySize         = 4 << 20
)

// readRepoMemory is the repositories kept in the memory file path (none
// when path is "" or the file is missing or unreadable): absolute, clean
// paths, one a line, oldest first.
func readRepoMemory(path string) []string {
	if path == "" {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer func() { _ = f.Close() }()
	b, err := io.ReadAll(io.LimitReader(f, maxMemorySize))
	if err != nil {
		return nil
	}
	var out []string
	for line := range strings.SplitSeq(string(b), "\n") {
		if filepath.IsAbs(line) && filepath.Clean(line) == line && len(out) < maxRemembered {
			out = append(out, line)
		}
	}
	return out
}

// holdsRepo: dir is a folder (not a link) holding a .git folder or file.
func holdsRepo(dir string) bool {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	g, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil && (g.IsDir() || g.Mode().IsRegular() || g.Mode()&os.ModeSymlink != 0) || isBareRepo(dir) || gitFolderLeft(dir)
}

// rememberRepos writes the memory file path anew when what it should hold
// changed: the repositories remembered that still hold one (stillRepo), in the order
// they were first found, then those found now that are new, at most
// maxRemembered and maxMemorySize bytes in all, at most
// maxRememberedPerGrant of those found now beneath each of the writable
// grants. Oldest first: a command
// can make thousands of repositories, which must neither push out nor
// come before the person's, there before them. Written to a temporary
// file beside and renamed over, so a launcher reading it at the same time
// sees the old list or the new one. Errors are dropped: the memory only
// ever adds protection.
func rememberRepos(path string, found, remembered, writable []string, stillRepo func(string) bool) {
	if path == "" {
		return
	}
	var keep []string
	size := 0
	seen := map[string]bool{}
	beneath := map[string]int{} // a grant's entries in keep
	grantOf := func(r string) string {
		for _, w := range writable {
			if within(w, r) {
				return w
			}
		}
		return ""
	}
	add := func(r string, found bool) {
		g := grantOf(r)
		if seen[r] || len(keep) >= maxRemembered || size+len(r)+1 > maxMemorySize || found && beneath[g] >= maxRememberedPerGrant {
			return
		}
		seen[r] = true
		keep = append(keep, r)
		size += len(r) + 1
		beneath[g]++
	}
	for _, r := range remembered {
		if stillRepo(r) {
			add(r, false)
		}
	}
	for _, r := range found {
		add(r, true)
	}
	if slices.Equal(keep, remembered) {
		return
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, ".sandbox-repos-*")
	if err != nil {
		return
	}
	_, werr := io.WriteString(tmp, strings.Join(keep, "\n")+"\n")
	if err := tmp.Close(); werr != nil || err != nil {
		_ = os.Remove(tmp.Name())
		return
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		_ = os.Remove(tmp.Name())
	}
}
