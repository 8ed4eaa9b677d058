package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// rebaseMounts are the folders of a rebase, cherry-pick or revert
// stopped in git folder gitDir or common (rebase-merge, rebase-apply,
// sequencer), read-only: a rebase's todo list takes `exec` lines, shell
// commands the person's `git rebase --continue` runs unconfined, and a
// cherry-pick's sequencer/opts names the merge strategy the rest of the
// picks run as a program (`strategy = x/evil` runs the work tree's
// git-merge-x/evil: a39). A rebase or cherry-pick the command starts
// itself makes them while it runs, and is the command's own work.
func rebaseMounts(gitDir, common string, res *resolver) []mountTarget {
	var out []mountTarget
	for _, dir := range slices.Compact([]string{gitDir, common}) {
		for _, name := range []string{"rebase-merge", "rebase-apply", "sequencer"} {
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
	if pe.names != nil && pe.names.refused != "" {
		return nil
	}
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
		if m, ok := settingNameMount(inc, roots, false, pe); ok {
			out = append(out, m)
		}
	}
	for _, h := range s.hooksPaths {
		if !filepath.IsAbs(h) {
			h = filepath.Join(base, h)
		}
		if m, ok := settingNameMount(h, roots, true, pe); ok {
			out = append(out, m)
			out = append(out, hookLinkMounts(m.path, roots, pe)...)
		}
	}
	for _, p := range s.programs {
		if !filepath.IsAbs(p.path) {
			p.path = filepath.Join(base, p.path)
		}
		out = append(out, programMounts(p, roots, pe)...)
	}
	return out
}

// programMounts are the read-only mounts of a file a setting that runs
// a program names (a filter's ./tools/strip.sh, a textconv script) when
// the command could write it, and of each link on the way to it
// (linksOnTheWay): the settings are read-only, and what they run must be
// too, or a command rewrites it for the person's next git add (a39). The
// program itself, not there yet in the repository's folders, is made
// empty first (settingNameMount), so that no command can make it; the
// value's other words are mounted only when there (a word with a slash
// may be no file at all: sed's s/a/b/).
func programMounts(p settingProgram, roots []string, pe *planEnv) []mountTarget {
	path := filepath.Clean(p.path)
	real, err := pe.res.evalMetered(path)
	switch {
	case err == nil:
		// A folder is no program (`!cd sub/dir && make` in an alias), and
		// a read-only one would take the command's work there away.
		if fi, err := os.Stat(real); err != nil || !fi.Mode().IsRegular() || !pe.mayWrite(real) {
			return nil
		}
		return append(linkMounts(linksOnTheWay(path, pe), pe), mountTarget{path: real, readOnly: true})
	case p.first:
		if m, ok := settingNameMount(path, roots, false, pe); ok {
			return append(linkMounts(linksOnTheWay(path, pe), pe), m)
		}
	}
	return nil
}

// maxLinkHops bounds the links followed from a setting's program or a
// hook's link to the file it leads to: npm's node_modules/.bin/TOOL is
// one, a person's chains a few more.
const maxLinkHops = 8

// linksOnTheWay are the links from path, absolute and clean, to what it
// leads to, each under its folder's real name, at most maxLinkHops: a
// link on the way (node_modules/.bin/tool -> ../pkg/tool.js) is a file
// the command could replace with a script of its own, which the person's
// git then runs, the file it led to left read-only and unused (a40).
// Links in the folders above them are resolved, not kept.
func linksOnTheWay(path string, pe *planEnv) []string {
	var out []string
	for range maxLinkHops {
		dir, err := pe.res.evalMetered(filepath.Dir(path))
		if err != nil {
			return out
		}
		p := filepath.Join(dir, filepath.Base(path))
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return out
		}
		target, err := os.Readlink(p)
		if err != nil {
			return out
		}
		out = append(out, p)
		if !filepath.IsAbs(target) {
			target = filepath.Join(dir, target)
		}
		path = filepath.Clean(target)
	}
	return out
}

// linkMounts are the mounts of links, those the command could change:
// mountPlan pins a link itself when its path is one (mountTarget.link),
// and mounts what it leads to read-only, as the file it ends at is.
func linkMounts(links []string, pe *planEnv) []mountTarget {
	var out []mountTarget
	for _, l := range links {
		if pe.mayWrite(l) {
			out = append(out, mountTarget{path: l, readOnly: true})
		}
	}
	return out
}

// maxHookEntries bounds the entries of a hooks folder looked at for
// links: git's own are a dozen samples, a person's a few hooks.
const maxHookEntries = 256

// hookLinkMounts are the read-only mounts of the files the links in hooks
// folder dir lead to, where the command could write them: a hook linked
// in from the work tree (`ln -s ../../tools/hooks/pre-commit
// .git/hooks/pre-commit`, what many projects' setup scripts do) is run by
// the person's git commit, and the hooks folder's own read-only mount
// does not reach what its links lead to (a39). A link leading nowhere
// yet, in the repository's folders, gets an empty file made there
// (settingNameMount), so that no command can make one; past
// maxHookEntries the rest are not looked at, and the output says so.
func hookLinkMounts(dir string, roots []string, pe *planEnv) []mountTarget {
	f, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer f.Close()
	entries, _ := f.ReadDir(maxHookEntries + 1)
	if len(entries) > maxHookEntries {
		entries = entries[:maxHookEntries]
		if pe.names != nil {
			pe.names.notes = append(pe.names.notes, fmt.Sprintf("the hooks folder %s holds more than %d entries: links among those past them are not kept from the command", dir, maxHookEntries))
		}
	}
	slices.SortFunc(entries, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	var out []mountTarget
	for _, e := range entries {
		if e.Type()&fs.ModeSymlink == 0 {
			continue
		}
		link := filepath.Join(dir, e.Name())
		// The hook's own link is in the read-only hooks folder; those
		// it leads through are not.
		var on []mountTarget
		if links := linksOnTheWay(link, pe); len(links) > 1 {
			on = linkMounts(links[1:], pe)
		}
		if real, err := pe.res.evalMetered(link); err == nil {
			if pe.mayWrite(real) {
				out = append(out, on...)
				out = append(out, mountTarget{path: real, readOnly: true})
			}
			continue
		}
		if m, ok := settingNameMount(link, roots, false, pe); ok {
			out = append(out, on...)
			out = append(out, m)
		}
	}
	return out
}

// settingNames is what the plan met resolving the names settings give:
// notes for the command's output, and why the command must not start.
type settingNames struct {
	notes []string
	// closed are the folders made read-only whole for a name not there
	// below them, each with its note.
	closed map[string]bool
	// refused: a name the plan could not keep from the command within a
	// start's bounds (maxSettingNameWork), which it says.
	refused string
}

// maxMadeFolders bounds the folders made for a name settings give that
// is not there yet (makeMissing): a person's hooks folder or included
// file lies a few folders below one that exists (.husky/_), a command's
// thousands, each costing the kernel a step for every folder above it.
const maxMadeFolders = 64

// settingNameMount is the read-only mount of name, an included file (a
// hooks folder when dir) that settings give, resolved on the plan's
// budget for such names (resolver.walkMetered): what it leads to when it
// is there. One not there, in the repository's folders (roots) and where
// the command could make it, is made first (makeInside), so that no
// command can make it; one more than maxMadeFolders below the deepest
// folder there is not made: that folder is read-only whole instead, so
// nothing can be made in it and the name stays missing.
//
// Past the budget, or where that folder holds a writable grant (which a
// read-only mount would take away), nothing here would keep the name
// from the command: the plan is refused and the command does not start.
// Making the repository's folders read-only would not do: a link a
// command planted on the way leads anywhere, and an absolute name lies
// anywhere, so only its resolution says what to keep; and leaving it
// open lets the command put a hook or setting there that the person's
// own git runs. Only a command's settings reach the budget (a person's
// names cost a few dozen steps each), and the note says which
// repository to look at.
func settingNameMount(name string, roots []string, dir bool, pe *planEnv) (mountTarget, bool) {
	if abs, err := filepath.Abs(name); err == nil {
		name = abs
	}
	name = filepath.Clean(name)
	real, at, err := pe.res.walkMetered(name)
	refuse := func(why string) (mountTarget, bool) {
		if pe.names != nil && pe.names.refused == "" {
			pe.names.refused = fmt.Sprintf("the git settings of the repository in %s name %.200s…, which the launcher cannot keep from the command: %s. A command may have written them: look at that repository's .git/config and what it includes (core.hooksPath, include.path), and remove what you did not set", roots[len(roots)-1], name, why)
		}
		return mountTarget{}, false
	}
	switch {
	case err == nil:
		return mountTarget{path: real, readOnly: true}, true
	case errors.Is(err, errOverBudget):
		return refuse(fmt.Sprintf("resolving the names settings give took more than a start's %d folder steps", maxSettingNameWork))
	case errors.Is(err, syscall.ENAMETOOLONG):
		// Something is there whose name is too long to look at.
		return refuse("it runs past the longest name the system looks up")
	case !errors.Is(err, fs.ErrNotExist):
		// A file on the way, a loop: git finds nothing there either.
		return mountTarget{}, false
	}
	rest := strings.Trim(name[at:], "/")
	c := filepath.Join(real, rest)
	if !slices.ContainsFunc(roots, func(r string) bool { return within(pe.res.clean(r), c) }) || !pe.mayWrite(c) {
		return mountTarget{}, false
	}
	if strings.Count(rest, "/") < maxMadeFolders && len(c) < maxGitPath {
		if real, ok := makeInside(c, roots, dir, pe); ok {
			return mountTarget{path: real, readOnly: true}, true
		}
		return mountTarget{}, false
	}
	first, _, _ := strings.Cut(rest, "/")
	if _, err := os.Lstat(filepath.Join(real, first)); err == nil {
		// A link leading nowhere yet: what it would lead to lies
		// elsewhere, and real read-only does not keep it missing.
		return refuse(fmt.Sprintf("it runs through %s, a link to what is not there, and lies %d folders below it", filepath.Join(real, first), strings.Count(rest, "/")))
	}
	if pe.holdsGrant == nil || pe.holdsGrant(real) {
		return refuse(fmt.Sprintf("it lies %d folders below %s, which would have to be read-only and is (or holds) a folder the command may write", strings.Count(rest, "/")+1, real))
	}
	if pe.names != nil && !pe.names.closed[real] {
		if pe.names.closed == nil {
			pe.names.closed = map[string]bool{}
		}
		pe.names.closed[real] = true
		pe.names.notes = append(pe.names.notes, fmt.Sprintf("the git settings of the repository in %s name a hooks folder or included file more than %d folders below %s, where none is yet: %s is read-only for this command, so that nothing can be made there", roots[len(roots)-1], maxMadeFolders, real, real))
	}
	return mountTarget{path: real, readOnly: true}, true
}

// makeInside makes path (a folder when dir, else an empty file, with the
// folders above it) when it does not exist and, its links resolved, lies
// in one of roots: a name a repository's settings give is made only in
// that repository's own folders, not wherever a link a command planted
// on the way leads.
func makeInside(path string, roots []string, dir bool, pe *planEnv) (string, bool) {
	c := pe.res.clean(path)
	if _, err := os.Lstat(c); !errors.Is(err, os.ErrNotExist) {
		return "", false
	}
	if !slices.ContainsFunc(roots, func(r string) bool { return within(pe.res.clean(r), c) }) || !pe.mayWrite(c) {
		return "", false
	}
	ok := makeMissing(c, dir)
	pe.res.changed()
	if !ok {
		return "", false
	}
	return c, true
}
