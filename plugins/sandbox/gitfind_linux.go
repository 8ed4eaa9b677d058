package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
)

// rebaseMounts are the folders of a rebase stopped in git folder gitDir
// or common (rebase-merge, rebase-apply), read-only: their todo list
// takes `exec` lines, shell commands the person's `git rebase
// --continue` runs unconfined. A rebase the command starts itself makes
// them while it runs, and is the command's own work.
func rebaseMounts(gitDir, common string, res *resolver) []mountTarget {
	var out []mountTarget
	for _, dir := range slices.Compact([]string{gitDir, common}) {
		for _, name := range []string{"rebase-merge", "rebase-apply"} {
			if real, ok := res.existing(filepath.Join(dir, name)); ok {
				out = append(out, mountTarget{path: real, readOnly: true})
			}
		}
	}
	return out
}

// gitSettingMounts are the read-only mounts of what a repository's
// settings name beyond its own files (git folder gitDir, shared part
// common, work tree worktree or "" for none): the files included by
// include.path and includeIf.*.path (a project's tracked .gitconfig that
// .git/config includes), and each core.hooksPath folder (husky's
// git-ignored .husky/_), read from the repository's config and
// config.worktree and from the person's own settings (personGitConfigs,
// found from the launcher's HOME, the command's environment as Wrasse
// set it), whose relative hooksPath is relative to the work tree, where
// git runs hooks (the git folder in a bare repository). An included
// file or hooks folder not there yet, in the repository's folders, is
// made first (empty), as the hooks folder is, so that no command can make
// one; elsewhere one not there is left as it is. Paths are returned with
// their links resolved: the mount is of what git reaches.
func gitSettingMounts(gitDir, common, worktree string, pe *planEnv) []mountTarget {
	home := os.Getenv("HOME")
	configs := append(personGitConfigs(home, os.Getenv), filepath.Join(common, "config"), filepath.Join(common, "config.worktree"))
	if gitDir != common {
		configs = append(configs, filepath.Join(gitDir, "config.worktree"))
	}
	s := pe.settings.settings(home, configs...)
	roots := []string{gitDir, common}
	base := gitDir
	if worktree != "" {
		roots = append(roots, worktree)
		base = worktree
	}
	var out []mountTarget
	for _, inc := range s.included {
		if real, ok := pe.res.existing(inc); ok {
			out = append(out, mountTarget{path: real, readOnly: true})
		} else if real, ok := makeInside(inc, roots, false, pe); ok {
			out = append(out, mountTarget{path: real, readOnly: true})
		}
	}
	for _, h := range s.hooksPaths {
		if !filepath.IsAbs(h) {
			h = filepath.Join(base, h)
		}
		if real, ok := pe.res.existing(h); ok {
			out = append(out, mountTarget{path: real, readOnly: true})
		} else if real, ok := makeInside(h, roots, true, pe); ok {
			out = append(out, mountTarget{path: real, readOnly: true})
		}
	}
	return out
}

// makeInside makes path (a folder when dir, else an empty file, with the
// folders above it) when it does not exist and, its links resolved, lies
// in one of roots: a name a repository's settings give is made only in
// that repository's own folders, not wherever a link a command planted
// on the way leads.
func makeInside(path string, roots []string, dir bool, pe *planEnv) (string, bool) {
	c := Clean(path)
	if _, err := os.Lstat(c); !errors.Is(err, os.ErrNotExist) {
		return "", false
	}
	if !slices.ContainsFunc(roots, func(r string) bool { return within(Clean(r), c) }) || !pe.mayWrite(c) {
		return "", false
	}
	ok := makeMissing(c, dir)
	pe.res.changed()
	if !ok {
		return "", false
	}
	return c, true
}
