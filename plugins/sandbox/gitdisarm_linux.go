package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// DisarmNewRepos looks, once a command has ended, for the repositories
// in or beneath grants (the writable grants its start walked) that were
// not among repos (those there at its start), and moves aside what in
// them the person's own git would run unconfined: settings that run a
// program or name other files (core.fsmonitor, a filter, core.hooksPath,
// include.path…: runsProgram, namesFiles) and hooks other than git's
// samples. A repository a command makes is the command's: its settings
// are not mounted read-only, for they did not exist when its namespace
// was made. Yet the person's git enters it: `git status` in the outer
// repository runs a submodule's core.fsmonitor once the command has
// added it to the index (`git add inner`), and a shell prompt that shows
// git's status runs it as soon as the person changes into it. A clone's
// settings (its remote, its branches) and git's sample hooks run
// nothing and stay. It returns a note for each thing moved, for the
// command's output. What a process the command left running makes after
// this look stays (see docs/plugins.md).
func DisarmNewRepos(w WatchList) []string {
	known := map[string]bool{}
	for _, r := range w.Repos {
		known[r] = true
	}
	var notes []string
	for _, g := range w.Grants {
		found, _ := reposBeneath(g)
		if holdsRepo(g) {
			found = append([]string{g}, found...)
		}
		cut := slices.Contains(w.Cut, g)
		for _, r := range found {
			if known[r] {
				continue
			}
			known[r] = true
			if madeSince(r, w.Started, cut) {
				notes = append(notes, disarmRepo(r, w.Grants)...)
			}
		}
	}
	return notes
}

// madeSince says whether the repository at dir was made after started
// (Unix nanoseconds), by its .git's (or bare folder's) birth time, which
// no command can set. Where the file system keeps none, a repository not
// found at the start counts as made since, unless the start's walk of
// its grant was cut short (cut): then it may be the person's, which that
// walk did not reach.
func madeSince(dir string, started int64, cut bool) bool {
	path := filepath.Join(dir, ".git")
	if _, err := os.Lstat(path); err != nil {
		path = dir
	}
	var st unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, path, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_BTIME, &st); err == nil && st.Mask&unix.STATX_BTIME != 0 && started > 0 {
		// The clock the file system stamps with may lag the one read for
		// started by a tick.
		return st.Btime.Sec*1e9+int64(st.Btime.Nsec) >= started-int64(bornSlack)
	}
	return !cut
}

// bornSlack is how much earlier than the plan a git folder may have been
// stamped and still count as the command's: file systems stamp with the
// kernel's coarse clock, a tick behind.
const bornSlack = 50 * time.Millisecond

// disarmRepo moves aside the settings and hooks the person's git would
// run in the repository at dir, a folder holding .git or a bare one, when
// its git folder lies in one of grants (a .git file or link may name one
// outside, which the command could not write).
func disarmRepo(dir string, grants []string) []string {
	gitDir := filepath.Join(dir, ".git")
	fi, err := os.Lstat(gitDir)
	switch {
	case errors.Is(err, os.ErrNotExist) && isBareRepo(dir):
		gitDir = dir
	case err != nil:
		return nil
	case fi.Mode().IsRegular():
		// A worktree's or submodule's .git file: "gitdir: PATH".
		b, err := readRegular(gitDir, 4096)
		if err != nil {
			return nil
		}
		target, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
		if !ok {
			return nil
		}
		target = strings.TrimSpace(target)
		if !filepath.IsAbs(target) {
			target = filepath.Join(dir, target)
		}
		gitDir = target
	case fi.Mode()&os.ModeSymlink != 0:
		real, err := filepath.EvalSymlinks(gitDir)
		if err != nil {
			return nil
		}
		gitDir = real
	}
	gitDir = filepath.Clean(gitDir)
	if !slices.ContainsFunc(grants, func(g string) bool { return within(g, gitDir) }) {
		return nil
	}
	fd, err := openNoLinks(gitDir)
	if err != nil {
		if errors.Is(err, errLinkOnPath) {
			return []string{fmt.Sprintf("the repository in %s, which the command made, could not be looked at (%v): look at its settings and hooks before running git there", dir, err)}
		}
		return nil
	}
	defer func() { _ = unix.Close(fd) }()
	var notes []string
	for _, name := range []string{"config", "config.worktree"} {
		if why := riskySettings(filepath.Join(gitDir, name)); why != "" {
			notes = append(notes, moveNote(fd, gitDir, name, "settings the command wrote that your git would run or follow ("+why+")"))
		}
	}
	if why := ranHooks(filepath.Join(gitDir, "hooks")); why != "" {
		notes = append(notes, moveNote(fd, gitDir, "hooks", "hooks the command made ("+why+")"))
		_ = unix.Mkdirat(fd, "hooks", 0o755)
	}
	return append(notes, moveCommondir(fd, gitDir)...)
}

// moveNote moves name aside in the git folder open as fd (named gitDir)
// and says so.
func moveNote(fd int, gitDir, name, what string) string {
	path := filepath.Join(gitDir, name)
	to, err := moveAside(fd, name)
	if err != nil {
		return fmt.Sprintf("%s holds %s and could not be moved away (%v): remove it before running git there", path, what, err)
	}
	return fmt.Sprintf("moved %s, in a repository the command made, to %s: it holds %s; rename it back only if you trust it", path, filepath.Join(gitDir, to), what)
}

// riskySettings says which setting in the settings file path runs a
// program or names files git reads as settings or hooks ("" for none):
// the first few keys, for the note.
func riskySettings(path string) string {
	b, err := readRegular(path, maxGitConfigSize)
	if errors.Is(err, errNotRegular) {
		return "not a regular file"
	}
	if err != nil {
		return ""
	}
	entries, perr := parseGitConfig(b)
	var keys []string
	for _, e := range entries {
		if runsProgram(e) || namesFiles(e) {
			k := e.Section + "."
			if e.Subsection != "" {
				k += e.Subsection + "."
			}
			if k += e.Key; !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	if perr != nil && len(keys) == 0 {
		// git refuses the file whole; what lies past the bad line is
		// unknown here and may be read by another git.
		return "a line git refuses"
	}
	if len(keys) > 3 {
		keys = append(keys[:3], "…")
	}
	return strings.Join(keys, ", ")
}

// namesFiles: a setting that makes git read other files as settings or
// run hooks from elsewhere.
func namesFiles(e gitEntry) bool {
	switch {
	case e.Key == "path" && (e.Section == "include" && e.Subsection == "" || e.Section == "includeif"):
		return true
	case e.Section == "core" && e.Subsection == "" && (e.Key == "hookspath" || e.Key == "worktree"):
		return true
	}
	return false
}

// ranHooks says which entries of the hooks folder path git could run
// ("" for none): anything but git's own *.sample files. A hooks folder
// that is a link leads to what the command chose.
func ranHooks(path string) string {
	fi, err := os.Lstat(path)
	if err != nil {
		return ""
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return "the hooks folder is a link"
	}
	if !fi.IsDir() {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer func() { _ = f.Close() }()
	entries, _ := f.ReadDir(maxHookEntries + 1)
	if len(entries) > maxHookEntries {
		return fmt.Sprintf("more than %d entries", maxHookEntries)
	}
	var names []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".sample") {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	if len(names) > 3 {
		names = append(names[:3], "…")
	}
	return strings.Join(names, ", ")
}
