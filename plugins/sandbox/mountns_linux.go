package sandbox

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// shmSize bounds the sandbox's own /dev/shm: room for POSIX shared memory
// (Python's multiprocessing, browsers under test), not for filling memory.
const shmSize = "size=256m"

// MountNamespace is the launcher's part of the mount namespace Command
// asked for (p.MountNS), before Restrict: Landlock rules attach to the
// files they name, so they must see the mounts. cwd is the command's
// working folder. It
//
//   - makes every mount private, so nothing here reaches the person's
//     mounts, and nothing of theirs arrives here;
//   - mounts a fresh tmpfs on /dev/shm: what the person's programs keep
//     there (pass decrypts into it) is out of sight, and what the command
//     leaves there goes with it;
//   - for the repository of each writable grant and of cwd (gitMounts),
//     and each one found beneath a writable grant (reposBeneath), pins
//     its .git (a mount point cannot be renamed or removed, so no other
//     .git takes its place) and makes its config, config.worktree and
//     hooks read-only: git hooks and settings such as core.fsmonitor are
//     code the person's own git later runs unconfined;
//   - moves away a commondir found in one of their main git folders
//     (MoveCommondirs), before anything is mounted; Main's watcher does
//     it again once the command ends;
//   - makes every existing path the policy keeps unreadable or read-only
//     (credential files, the home folder's settings, the workspace's
//     files) a read-only mount of itself: chmod, chgrp, truncate or a
//     rename through it are refused (EROFS, EBUSY) before they reach the
//     file, which Landlock does not govern for chmod and chgrp.
//
// Paths that contain a writable grant are left as they are: a read-only
// mount would take the grant away.
//
// It reports whether everything was mounted and, if not, why, with what
// it changed or could not cover (MountResult); or, mounting nothing, that
// the command must not start (MountResult.Refused): a repository's
// settings name what it cannot keep from the command (settingNameMount). A process
// that is not in a mount namespace of its own (no MountNS, or the same
// namespace as its parent) mounts nothing: changing the propagation of
// the person's own mounts is never an option.
func MountNamespace(p Policy, cwd string) MountResult {
	if !p.MountNS {
		return MountResult{Why: p.MountNSRefused}
	}
	if err := ownMountNamespace(p.ParentMountNS); err != nil {
		return MountResult{Why: err.Error()}
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		// AppArmor's restriction of unprivileged user namespaces (Ubuntu
		// 24.04) lets the clone through and refuses its capabilities.
		return MountResult{Why: fmt.Sprintf("mounts are refused in the namespace: %v", err)}
	}
	plan := mountPlan(p, cwd)
	if plan.refused != "" {
		return MountResult{Refused: plan.refused}
	}
	// Before anything is mounted or runs: a commondir an earlier
	// command's leftover process made since that command's end. The plan
	// followed it (a git folder kept apart is read as a worktree's of the
	// folder it names), so it is made again once it is gone.
	moved := MoveCommondirs(plan.gitDirs)
	if len(moved) > 0 {
		plan = mountPlan(p, cwd)
		if plan.refused != "" {
			return MountResult{Refused: plan.refused, Notes: moved}
		}
	}
	res := MountResult{Notes: append(plan.notes, moved...), GitDirs: plan.gitDirs, Grants: plan.grants, Repos: plan.repos, Cut: plan.cut, Started: plan.started, NoSequencer: plan.noSequencer}
	var failed []string
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if err := unix.Mount("tmpfs", "/dev/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777,"+shmSize); err != nil {
			failed = append(failed, fmt.Sprintf("/dev/shm: %v", err))
		}
	}
	for _, m := range plan.mounts {
		if err := bindSelf(m.path, m.readOnly, m.link); err != nil {
			failed = append(failed, fmt.Sprintf("%s: %v", m.path, err))
		}
	}
	// The working folder is still the one beneath any mount made at or
	// above it: names relative to it would reach the files past the
	// mounts. Going there again by its path lands on the mounted one.
	if cwd != "" {
		if err := os.Chdir(cwd); err != nil {
			failed = append(failed, fmt.Sprintf("working folder %s: %v", cwd, err))
		}
	}
	if len(failed) > 0 {
		res.Why = "some mounts failed: " + strings.Join(failed, "; ")
		return res
	}
	res.OK = true
	return res
}

// ownMountNamespace is nil when this process's mount namespace is not
// the one of the process that ran Command (parent). Its parent's
// /proc entry is no proof: a process in a user namespace of its own may
// not read it (root's).
func ownMountNamespace(parent string) error {
	self, err := mountNSID()
	if err != nil {
		return err
	}
	if parent == "" || self == parent {
		return errors.New("the sandbox shares the mount namespace of the process that started it")
	}
	return nil
}

// planEnv is what the plan's git functions share: where the launcher may
// make files (mayWrite: inside the writable grants), and the git settings
// read so far.
type planEnv struct {
	mayWrite func(string) bool
	settings *settingsReader
	// extraSettings reads the settings of submodules' git folders, of
	// which a repository may hold thousands, with a budget of its own:
	// they cannot use up the repositories' own. Each repository's
	// submodules read through a share of it (moduleMounts).
	extraSettings *settingsReader
	// done are the git folders, module folders and worktrees listings
	// planned already: many .git files may name one git folder, and many
	// worktrees folders may be links to one.
	done map[string]bool
	// res resolves the plan's paths, each folder once.
	res *resolver
	// extras counts the targets of what a repository may hold thousands
	// of, planned so far (nil: not counted).
	extras *extraCount
	// holdsGrant: path is a writable grant or holds one (nil: unknown).
	holdsGrant func(string) bool
	// names is what the plan met resolving the names settings give (nil:
	// nothing kept).
	names *settingNames
	// ownLeft is what the start may still read of git folders' own
	// folders looking for submodules' (maxOwnEntriesPerStart; nil: no
	// bound but each walk's).
	ownLeft *int
	// foldersLeft is how many more folders the start's walks of
	// .git/modules may list (maxModuleFoldersPerStart; nil: no bound).
	foldersLeft *int
}

// extraCount counts the extra targets (mountTarget.extra) a plan made.
type extraCount struct {
	n int
	// cut: some were left out, past maxPlanTargets.
	cut bool
}

// takeExtras reports whether n more extra targets fit the plan's bound,
// and counts them: a worktrees listing of 4,096 links to one folder is
// 8,192 targets folding into two mounts, which the mount budget never
// counted.
func (pe *planEnv) takeExtras(n int) bool {
	if pe.extras == nil {
		return true
	}
	if pe.extras.n+n > maxPlanTargets {
		pe.extras.cut = true
		return false
	}
	pe.extras.n += n
	return true
}

// extrasLeft reports whether another extra target fits the plan's bound:
// a listing is not read past it.
func (pe *planEnv) extrasLeft() bool {
	if pe.extras == nil || pe.extras.n < maxPlanTargets {
		return true
	}
	pe.extras.cut = true
	return false
}

// once reports whether key is new to the plan, and marks it.
func (pe *planEnv) once(key string) bool {
	if pe.done[key] {
		return false
	}
	pe.done[key] = true
	return true
}

type mountTarget struct {
	path     string
	readOnly bool
	// extra: one of what a repository may hold thousands of (its
	// worktrees' folders, its submodules' git folders), planned after
	// every repository's own mounts.
	extra bool
	// link: path is a link, mounted on itself so that it stays (what it
	// leads to has a mount of its own).
	link bool
	// closed: a folder made read-only whole because the plan's bound on
	// extras cut what lies in it short; planned with the repositories'
	// own mounts, never as an extra, so no bound leaves it out.
	closed bool
}

// plan is what MountNamespace does: the mounts, parents before what lies
// beneath them so that an inner mount stays on top; the git folders in
// which no commondir may appear (gitDirs, see MoveCommondirs); notes for
// the command's output on what the plan could not cover.
type plan struct {
	mounts  []mountTarget
	gitDirs []string
	notes   []string
	// grants are the writable grants walked, repos the repositories in
	// or beneath them at the start, cut the grants whose walk stopped at
	// its bound, started when the plan was made (see WatchList).
	grants, repos, cut []string
	started            int64
	// noSequencer are the main git folders where a single cherry-pick or
	// revert stopped, with no sequencer folder (see WatchList).
	noSequencer []string
	// refused, when not "", says why the command must not start
	// (settingNames).
	refused string
}

// mountPlan is what MountNamespace mounts: the repositories at or above
// each writable grant and the working folder, and those beneath each
// grant (reposBeneath), then the policy's unreadable and read-only paths.
//
// A path is mounted once, under the name links lead to (a repository's
// .git/modules/*/worktrees may all be links to one folder), read-only if
// any reason asks for it: a pin of a folder that the policy also keeps
// read-only (a repository in ~/.password-store) stays read-only. The git
// mounts are bounded in all (maxMounts, less the policy's, which are
// always made): past that a note says the rest is not covered.
func mountPlan(p Policy, cwd string) plan {
	writable := cleanAll(p.ReadWrite)
	// The launcher makes files and moves commondirs only where the command
	// could: a .git link a command plants may lead anywhere.
	res := newResolver()
	mayWrite := func(path string) bool {
		c := res.clean(path)
		return slices.ContainsFunc(writable, func(w string) bool { return within(w, c) })
	}
	holdsGrant := func(path string) bool {
		return slices.ContainsFunc(writable, func(w string) bool { return holdsPath(path, w) })
	}
	ownLeft, foldersLeft := maxOwnEntriesPerStart, maxModuleFoldersPerStart
	pe := &planEnv{mayWrite: mayWrite, holdsGrant: holdsGrant, settings: newSettingsReader(), extraSettings: newSettingsReaderOf(maxSettingsBytes, maxModulesSettingsVisited), done: map[string]bool{}, res: res, extras: &extraCount{}, names: &settingNames{}, ownLeft: &ownLeft, foldersLeft: &foldersLeft}
	// What settings name is resolved on a budget of its own (see
	// settingNames): a command writes them.
	pe.settings.eval, pe.extraSettings.eval = res.evalMetered, res.evalMetered
	policyPaths := slices.Concat(cleanAll(p.NoAccess), cleanAll(p.ReadOnly))
	gitBudget := max(0, maxMounts-len(policyPaths))
	at := map[string]int{} // a mounted path's index in out.mounts
	var out plan
	// add plans the mount of path on itself. A git one (inGrants) is made
	// only inside the writable grants, where the command could change
	// what it protects: a link a command puts in a repository (hooks to
	// ../..) could otherwise make a grant, or anything beyond it,
	// read-only for every later command.
	add := func(path string, ro, inGrants bool) {
		if systemPath(path) {
			return
		}
		if ro && holdsGrant(path) {
			return
		}
		real, err := res.eval(path)
		if err != nil || systemPath(real) || ro && holdsGrant(real) {
			return
		}
		if inGrants && !slices.ContainsFunc(writable, func(w string) bool { return within(w, real) }) {
			return
		}
		// A link in the plan (.git/hooks linked to a tracked folder, a
		// .git linked into .repo/projects) is pinned itself too: what it
		// leads to is mounted, but the command could otherwise put a
		// folder or another link of its own in its place. A path that
		// resolves to itself has no link to look for.
		if real != path {
			if link, ok := linkItself(path, res); ok {
				if _, ok := at[link]; !ok && !systemPath(link) {
					at[link] = len(out.mounts)
					out.mounts = append(out.mounts, mountTarget{path: link, link: true})
				}
			}
		}
		if i, ok := at[real]; ok {
			out.mounts[i].readOnly = out.mounts[i].readOnly || ro
			return
		}
		at[real] = len(out.mounts)
		out.mounts = append(out.mounts, mountTarget{path: real, readOnly: ro})
	}
	// The repositories' sets, in the order they are covered: those the
	// grants and the working folder lie in, those earlier walks found
	// beneath the grants (there before a command could add decoys), then
	// those this walk found.
	var sets []gitSet
	starts := slices.Clone(writable)
	if cwd != "" {
		starts = append(starts, Clean(cwd))
	}
	for _, s := range starts {
		sets = append(sets, gitMounts(s, pe))
	}
	remembered := readRepoMemory(p.RepoMemory)
	// Whether a remembered repository is still one, looked at once for
	// the plan and the memory both.
	holds := map[string]bool{}
	stillRepo := func(r string) bool {
		h, ok := holds[r]
		if !ok {
			h = holdsRepo(r)
			holds[r] = h
		}
		return h
	}
	var found []string
	// core counts the repositories' own mounts planned: past the budget,
	// the repositories left are not looked into (each costs its settings
	// and submodules read), only remembered.
	core := 0
	for _, gs := range sets {
		core += gs.coreMounts()
	}
	out.grants, out.started = writable, time.Now().UnixNano()
	for _, w := range writable {
		repos, note := reposBeneath(w)
		found = append(found, repos...)
		if holdsRepo(w) {
			out.repos = append(out.repos, w)
		}
		out.repos = append(out.repos, repos...)
		if note != "" {
			out.cut = append(out.cut, w)
		}
		// What earlier walks found beneath this grant: a command may
		// have made this walk run out before them.
		var ordered []string
		seen := map[string]bool{}
		for _, r := range remembered {
			if within(w, r) && stillRepo(r) {
				ordered = append(ordered, r)
				seen[r] = true
				out.repos = append(out.repos, r)
			}
		}
		for _, r := range repos {
			if !seen[r] {
				ordered = append(ordered, r)
				seen[r] = true
			}
		}
		for _, r := range ordered {
			if core >= gitBudget {
				break
			}
			gs := repoMounts(r, pe)
			sets = append(sets, gs)
			core += gs.coreMounts()
		}
		if note != "" {
			out.notes = append(out.notes, note)
		}
	}
	if pe.names.refused != "" {
		// Nothing is mounted: the command does not start (settingNames).
		return plan{refused: pe.names.refused}
	}
	out.notes = append(out.notes, pe.names.notes...)
	if pe.settings.over || pe.extraSettings.over {
		out.notes = append(out.notes, fmt.Sprintf("the repositories here hold more git settings (their own and what they include) than a start reads (%d MiB for the repositories, as much for their submodules, %d KiB for one repository's submodules); what the rest name is not kept from the command", maxSettingsBytes>>20, maxModuleShareBytes>>10))
	}
	// Each repository's own mounts first, then what may come in
	// thousands (its worktrees' folders, its submodules' git folders),
	// so that a command that makes thousands of those cannot push another
	// repository's settings past the budget.
	overBudget := false
	pinned := map[string]bool{}
	// targets counts every target gone through, folded into a mount
	// planned before or not: each costs its resolution.
	targets := 0
	for _, extra := range []bool{false, true} {
		for _, gs := range sets {
			for _, g := range gs.mounts {
				if g.extra != extra {
					continue
				}
				if len(out.mounts) >= gitBudget || targets >= 2*maxPlanTargets {
					overBudget = true
					break
				}
				targets++
				// A mount moves with the folder that holds it: each folder
				// between a grant and the mount is pinned too, so the
				// repository's folder cannot be renamed and another put in
				// its place. Each folder is looked at once: the folders
				// above one looked at were looked at with it (a deep
				// folder's thousands of targets share its ancestors).
				for a := range ancestorsInside(g.path, writable) {
					if pinned[a] {
						break
					}
					pinned[a] = true
					add(a, false, true)
				}
				add(g.path, g.readOnly, true)
			}
		}
	}
	watched := map[string]bool{}
	for _, gs := range sets {
		out.notes = append(out.notes, gs.notes...)
		for _, d := range gs.mains {
			if !watched[d] && mayWrite(d) {
				watched[d] = true
				out.gitDirs = append(out.gitDirs, d)
				if stoppedSinglePick(d) {
					out.noSequencer = append(out.noSequencer, d)
				}
			}
		}
	}
	rememberRepos(p.RepoMemory, found, remembered, writable, stillRepo)
	if overBudget {
		out.notes = append(out.notes, fmt.Sprintf("the repositories here hold more than %d git files and folders to keep from the command (submodules, worktrees); those past it are not covered: their settings and hooks may be changed by the command", gitBudget))
	}
	if pe.extras.cut {
		out.notes = append(out.notes, fmt.Sprintf("the repositories here hold more than %d submodules' and worktrees' git files and folders to look at; those past it are not covered: their settings and hooks may be changed by the command", maxPlanTargets))
	}
	for _, x := range policyPaths {
		add(x, true, false)
	}
	slices.SortStableFunc(out.mounts, func(a, b mountTarget) int { return strings.Count(a.path, "/") - strings.Count(b.path, "/") })
	return out
}

// linkItself is path, its folder's links resolved (by res), when path is
// itself a link.
func linkItself(path string, res *resolver) (string, bool) {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return "", false
	}
	dir, err := res.eval(filepath.Dir(path))
	if err != nil {
		return "", false
	}
	return filepath.Join(dir, filepath.Base(path)), true
}

// maxMounts bounds the mounts of one command's namespace: each costs its
// start time, the kernel allows 100,000 (mount-max), and a command can
// make any number of git folders for the next one to protect.
const maxMounts = 8192

// ancestorsInside are the folders above path that lie inside one of the
// writable grants, the grants themselves left out (renaming a grant needs
// its parent, which is not granted, or is pinned as inside another),
// nearest first: a caller that stops early goes no further up.
func ancestorsInside(path string, writable []string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for d := filepath.Dir(path); d != filepath.Dir(d); d = filepath.Dir(d) {
			if slices.ContainsFunc(writable, func(w string) bool { return d != w && holdsPath(w, d) }) && !yield(d) {
				return
			}
		}
	}
}

// systemPath: /proc, /sys and /dev hold no file of the person's; a mount
// there (over /proc/self) would change what the kernel shows.
func systemPath(p string) bool {
	for _, s := range []string{"/proc", "/sys", "/dev"} {
		if holdsPath(s, p) {
			return true
		}
	}
	return p == "/"
}

// gitMounts are the mounts that protect the repository dir lies in (the
// nearest .git at or above it): its .git entry pinned; for a .git folder
// its config, config.worktree and hooks read-only; for a .git file (a
// worktree, a submodule) the file itself read-only (it says where the
// repository is) and the config, config.worktree and hooks of the folders
// it leads to (its own and the shared one, "commondir"). A repository
// without hooks gets an empty hooks folder, as `git init` makes, so that
// none can be added.
//
// A bare repository at or above dir is protected too (bareGitMounts).
//
// A repository inside another (a submodule, a repository checked out in
// another's folder) does not end the search: the ones above it are
// protected too, for a command started in a submodule can reach its
// superproject's .git as well.
func gitMounts(dir string, pe *planEnv) gitSet {
	var out gitSet
	// A grant or working folder in a bare repository (git finds one by
	// the folder itself): the nearest such folder at or above dir.
	for d := dir; ; d = filepath.Dir(d) {
		if isBareRepo(d) {
			out.add(bareGitMounts(d, pe))
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	for d := dir; ; {
		ms, found := nearestGitMounts(d, pe)
		out.add(ms)
		if found == "" || filepath.Dir(found) == found {
			return out
		}
		d = filepath.Dir(found)
	}
}

// stoppedSinglePick: in git folder d a cherry-pick or revert of one
// commit stopped (CHERRY_PICK_HEAD or REVERT_HEAD) and left no sequencer
// folder, which would be read-only (rebaseMounts). One a command makes
// there is taken by the person's --continue as the rest of the picks,
// with their merge strategy (a40): the watcher moves it away.
func stoppedSinglePick(d string) bool {
	if _, err := os.Lstat(filepath.Join(d, "sequencer")); !errors.Is(err, os.ErrNotExist) {
		return false
	}
	for _, head := range []string{"CHERRY_PICK_HEAD", "REVERT_HEAD"} {
		if _, err := os.Lstat(filepath.Join(d, head)); err == nil {
			return true
		}
	}
	return false
}

// repoMounts protects the repository a walk found at dir: a bare one
// (dir is its git folder) or the nearest .git at or above dir.
func repoMounts(dir string, pe *planEnv) gitSet {
	var out gitSet
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	hasDotGit := err == nil
	if isBareRepo(dir) || !hasDotGit && gitFolderLeft(dir) {
		out.add(bareGitMounts(dir, pe))
	}
	// A work tree a command made look bare (HEAD, objects and refs beside
	// its .git) keeps its .git's protection too (a40).
	if hasDotGit || len(out.mounts) == 0 {
		gs, _ := nearestGitMounts(dir, pe)
		out.add(gs)
	}
	return out
}

// gitFolderLeft: what is left of a bare repository's git folder whose
// HEAD, objects or refs a command moved away (so that isBareRepo no
// longer takes it, for one start): its settings and hooks. Remembered
// repositories are protected while this holds (a40).
func gitFolderLeft(dir string) bool {
	c, err := os.Lstat(filepath.Join(dir, "config"))
	if err != nil || !c.Mode().IsRegular() {
		return false
	}
	h, err := os.Lstat(filepath.Join(dir, "hooks"))
	return err == nil && h.IsDir()
}

// bareGitMounts protects the bare repository whose git folder is dir as
// a .git folder is: pinned, its config, hooks and what its settings name
// read-only, its submodules' git folders and worktrees' folders planned,
// and watched for a commondir. It has no work tree.
func bareGitMounts(dir string, pe *planEnv) gitSet {
	out := gitSet{mounts: []mountTarget{{path: dir}}, mains: []string{dir}}
	out.add(gitDirMounts(dir, dir, "", pe))
	out.add(moduleMounts(dir, pe))
	return out
}

// isBareRepo: dir is a bare repository's git folder, as git's
// is_git_directory takes one: a HEAD it takes (isGitDir), objects and
// refs folders.
func isBareRepo(dir string) bool {
	if !isGitDir(dir) {
		return false
	}
	for _, name := range []string{"objects", "refs"} {
		if fi, err := os.Lstat(filepath.Join(dir, name)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// gitSet is what protects some repositories: the mounts, and their main
// git folders (a repository's own .git folder, a submodule's
// .git/modules/NAME): git never makes a commondir file there, and one
// made there sends git to the settings and hooks of the folder it names.
type gitSet struct {
	mounts []mountTarget
	mains  []string
	// notes say what was covered otherwise than by its own mounts.
	notes []string
}

// coreMounts counts the set's mounts that are no extra.
func (g gitSet) coreMounts() int {
	n := 0
	for _, m := range g.mounts {
		if !m.extra {
			n++
		}
	}
	return n
}

func (g *gitSet) add(o gitSet) {
	g.mounts = append(g.mounts, o.mounts...)
	g.mains = append(g.mains, o.mains...)
	g.notes = append(g.notes, o.notes...)
}

// nearestGitMounts are gitMounts for the nearest .git at or above dir
// alone, and the folder that holds it ("" when none). A .git folder is
// protected whatever its HEAD holds: HEAD is no mount, so a command could
// otherwise make it one git takes and this does not, and the next
// command would find no repository there. A .git that is a link (Android's
// repo tool links each project's .git into .repo/projects) leads, resolved
// once, to the folder or file it names, which is protected as a .git
// there would be; the link itself cannot be mounted over.
func nearestGitMounts(dir string, pe *planEnv) (gitSet, string) {
	for d := dir; ; d = filepath.Dir(d) {
		dotgit := filepath.Join(d, ".git")
		if fi, err := os.Lstat(dotgit); err == nil {
			target, mode := dotgit, fi.Mode()
			if mode&os.ModeSymlink != 0 {
				if real, err := pe.res.eval(dotgit); err == nil {
					if ti, err := os.Stat(real); err == nil {
						target, mode = real, ti.Mode()
					}
				}
			}
			var linked []mountTarget // the link itself, pinned (see mountPlan)
			if target != dotgit {
				linked = []mountTarget{{path: dotgit}}
			}
			switch {
			case mode.IsDir():
				out := gitSet{mounts: append(linked, mountTarget{path: target, readOnly: false}), mains: []string{target}}
				out.add(gitDirMounts(target, target, d, pe))
				out.add(moduleMounts(target, pe))
				return out, d
			case mode.IsRegular():
				out := gitSet{mounts: append(linked, mountTarget{path: target, readOnly: true})}
				gitDir, common := worktreeDirs(target)
				if gitDir != "" {
					// Only a linked worktree's folder, common/worktrees/NAME,
					// has a commondir of git's: a git folder kept apart
					// (git init --separate-git-dir, a submodule's) that has
					// one is main, and the commondir a command's.
					if gitDir == common || filepath.Dir(gitDir) != filepath.Join(common, "worktrees") {
						out.mains = append(out.mains, gitDir)
					}
					if gitDir != common {
						// The worktree's own folder says where the shared
						// one is: read-only here, whatever else
						// .git/worktrees holds.
						out.mounts = append(out.mounts, mountTarget{path: filepath.Join(gitDir, "commondir"), readOnly: true})
					}
					out.add(gitDirMounts(gitDir, common, d, pe))
					out.add(moduleMounts(common, pe))
				}
				return out, d
			}
			// A link leading nowhere, or another kind of file: git looks
			// further up, as here.
		}
		if filepath.Dir(d) == d {
			return gitSet{}, ""
		}
	}
}

// gitDirMounts protects a git folder gitDir whose shared part is common,
// of the work tree worktree ("" when unknown). A repository that git
// takes for one (isGitDir) without hooks gets an empty hooks folder.
// Where the repository's settings turn on extensions.worktreeConfig, git
// reads each config.worktree too: one not there yet is made empty (as
// `git config --worktree` would make it), so that it is mounted read-only
// like the rest and no command can make one. What the settings name
// (gitSettingMounts) and a stopped rebase's folders are read-only too.
func gitDirMounts(gitDir, common, worktree string, pe *planEnv) gitSet {
	if !pe.once("git\x00" + gitDir + "\x00" + common) {
		return gitSet{}
	}
	hooks := filepath.Join(common, "hooks")
	if _, err := os.Lstat(hooks); errors.Is(err, os.ErrNotExist) && isGitDir(common) && pe.mayWrite(hooks) {
		_ = mkdirNoLinks(hooks, 0o755)
		pe.res.changed()
	}
	perWorktree := worktreeConfigOn(filepath.Join(common, "config"))
	cfgWorktree := func(dir string) mountTarget {
		path := filepath.Join(dir, "config.worktree")
		if perWorktree {
			if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) && pe.mayWrite(path) {
				_ = createNoLinks(path, 0o644)
				pe.res.changed()
			}
		}
		return mountTarget{path: path, readOnly: true}
	}
	out := gitSet{mounts: []mountTarget{{path: filepath.Join(common, "config"), readOnly: true}, {path: hooks, readOnly: true}, cfgWorktree(common)}}
	if gitDir != common {
		out.mounts = append(out.mounts, cfgWorktree(gitDir))
	}
	// Each worktree's folder says where the shared one is (commondir):
	// pointed elsewhere, git in that worktree reads another config.
	// At most maxModuleEntries of them: a command could make thousands,
	// each a mount for every later command.
	// Listed once, under whichever name comes first.
	listed := false
	if real, err := pe.res.eval(filepath.Join(common, "worktrees")); err == nil {
		listed = !pe.once("worktrees\x00" + real)
	}
	var wts []os.DirEntry
	wtDir := filepath.Join(common, "worktrees")
	cut := false
	if !listed {
		if pe.extrasLeft() {
			var err error
			// An unreadable listing hides its entries as much as the bound.
			wts, err = os.ReadDir(wtDir)
			cut = err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR)
		} else if fi, err := os.Stat(wtDir); err == nil && fi.IsDir() {
			cut = true
		}
	}
	if len(wts) > maxModuleEntries {
		// Those past the ones planned would be left open: a command's
		// 65,536 decoys pushed the person's past what oldestFirst looks at.
		cut = true
	}
	for _, wt := range oldestFirst(wtDir, wts, maxModuleEntries) {
		if !pe.takeExtras(2) {
			cut = true
			break
		}
		dir := filepath.Join(wtDir, wt.Name())
		wtc := cfgWorktree(dir)
		wtc.extra = true
		out.mounts = append(out.mounts, mountTarget{path: filepath.Join(dir, "commondir"), readOnly: true, extra: true}, wtc)
		// A linked worktree's submodules keep their git folders in its
		// own folder (worktrees/NAME/modules). git makes NAME a folder;
		// one that is a link is a command's (the person's are pinned by
		// their mounts), and walking through thousands of links to a
		// long chain cost seconds.
		if wt.IsDir() {
			out.add(moduleMounts(dir, pe))
		}
	}
	if cut {
		out.closeFolder(wtDir, "its worktrees' folders")
	}
	out.mounts = append(out.mounts, rebaseMounts(gitDir, common, pe.res)...)
	if real, ok := pe.res.existing(hooks); ok {
		roots := []string{gitDir, common}
		if worktree != "" {
			roots = append(roots, worktree)
		}
		out.mounts = append(out.mounts, hookLinkMounts(real, roots, pe)...)
	}
	out.mounts = append(out.mounts, gitSettingMounts(gitDir, common, worktree, pe)...)
	return out
}

// oldestFirst are at most n of the entries of folder dir: all when there
// are no more, else the n made first (statx's birth time, which no
// command can set), of the first maxConsidered: a command can add any
// number of entries that sort before the person's by name. Where the file
// system keeps no birth time, the first n by name.
func oldestFirst(dir string, entries []os.DirEntry, n int) []os.DirEntry {
	if len(entries) <= n {
		return entries
	}
	entries = entries[:min(len(entries), maxConsidered)]
	born := make(map[string]int64, len(entries))
	for _, e := range entries {
		var st unix.Statx_t
		err := unix.Statx(unix.AT_FDCWD, filepath.Join(dir, e.Name()), unix.AT_SYMLINK_NOFOLLOW, unix.STATX_BTIME, &st)
		if err != nil || st.Mask&unix.STATX_BTIME == 0 {
			return entries[:n]
		}
		born[e.Name()] = st.Btime.Sec*1e9 + int64(st.Btime.Nsec)
	}
	sorted := slices.Clone(entries)
	slices.SortStableFunc(sorted, func(a, b os.DirEntry) int { return cmp.Compare(born[a.Name()], born[b.Name()]) })
	return sorted[:n]
}

// maxConsidered bounds the entries oldestFirst looks at (one statx each).
const maxConsidered = 65536

// maxPlanTargets bounds the targets (mountTarget) a plan makes of what a
// repository may hold thousands of (its worktrees' folders, its
// submodules' git folders), and, twice over, the targets the plan goes
// through in all, folded into another's mount or not: each costs the
// plan a resolution, and the mount budget (maxMounts) counts only the
// mounts they make.
const maxPlanTargets = 4 * maxMounts

// maxModuleEntries bounds the walk of a repository's .git/modules (a
// submodule's git folder holds a few names besides what is skipped) and
// the worktrees looked at in .git/worktrees.
const maxModuleEntries = 4096

// maxModuleDepth bounds the folders the walk of .git/modules goes down:
// a submodule's name may hold slashes and its own submodules lie in its
// modules folder, a few levels each.
const maxModuleDepth = 40

// Bounds of looking into a git folder's own folders (objects, refs, …)
// for submodules' git folders (moduleMounts): a command can make any
// folder look like a git folder, and a submodule whose path runs through
// one of those names (x/refs/spec) keeps its git folder beneath it. They
// hold files by the thousand (a submodule's loose objects, its refs),
// which are counted but not looked at one by one. One repository's walk
// reads at most maxOwnEntries of their entries, and a start at most
// maxOwnEntriesPerStart in all: past either, its .git/modules is
// read-only whole.
const (
	maxOwnEntries         = 1 << 20
	maxOwnEntriesPerStart = 4 << 20
)

// maxModuleFoldersPerStart bounds the folders all of a start's walks of
// .git/modules list: each costs an open, a listing and a look for a HEAD
// (about 15 µs), and a command can make 100,000 empty folders under one
// planted HEAD (1.5–3.6 s at every start, a minute at the entry bounds:
// a36) or hundreds of repositories of 4,096 entries each. A submodule's
// git folder holds about 270 (objects/00…ff), so the bound covers a
// hundred submodules; past it, what is left is read-only whole.
const maxModuleFoldersPerStart = 32_768

// moduleMounts protect the git folders of a repository's submodules,
// common/modules/NAME (NAME may hold slashes; a submodule's own
// submodules lie in its modules): the person's `git status` in the
// repository runs git in each submodule, with its settings, and a
// submodule's hooks run when the person commits there. Each is pinned
// and gets the mounts of a git folder, whatever its HEAD holds
// (looksLikeGitDir); submodules added later are not covered.
//
// A git folder's own folders (objects, refs, logs, hooks, info, lfs,
// worktrees) are looked into too, for folders only, under a bound of
// their own (maxOwnEntries): a command makes any folder look like a git
// folder with one HEAD, and a submodule at x/refs/spec keeps its git
// folder in modules/x/refs/spec.
func moduleMounts(common string, pe *planEnv) gitSet {
	var out gitSet
	if !pe.once("modules\x00" + common) {
		return out
	}
	// A share of the submodules' budget for this repository's alone: the
	// repository a grant lies in is planned first, and a command can make
	// it one whose submodules would use up what the person's need.
	share := pe.extraSettings.share(maxModuleShareBytes, maxModuleShareVisited)
	pe = &planEnv{mayWrite: pe.mayWrite, holdsGrant: pe.holdsGrant, settings: share, extraSettings: share, done: pe.done, res: pe.res, extras: pe.extras, names: pe.names, ownLeft: pe.ownLeft, foldersLeft: pe.foldersLeft}
	root := filepath.Join(common, "modules")
	w := moduleWalk{root: root, pe: pe, out: &out, ownLeft: maxOwnEntries, buf: make([]byte, 32<<10)}
	if fi, err := os.Lstat(root); err != nil || !fi.IsDir() {
		// A missing root hides nothing; one the walk cannot look at
		// hides what lies in it as much as a bound does.
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			out.closeFolder(root, "its submodules' git folders")
		}
		return out
	}
	w.walk(root, false)
	for i := range out.mounts {
		out.mounts[i].extra = !out.mounts[i].closed
	}
	if w.cut {
		// The walk stopped short of what lies in root, which is then
		// read-only whole (what was planned before keeps its own mounts
		// on top): a bound that runs out leaves nothing open.
		out.closeFolder(root, "its submodules' git folders")
	}
	return out
}

// moduleWalk is one walk of a repository's .git/modules (moduleMounts).
type moduleWalk struct {
	root string
	pe   *planEnv
	out  *gitSet
	// n counts the entries looked at outside a git folder's own folders
	// (bound maxModuleEntries); ownLeft is what this walk may still read
	// in them (the start's own bound is pe.ownLeft).
	n       int
	ownLeft int
	// cut: the walk stopped short, a bound ran out or a folder could not
	// be read.
	cut bool
	buf []byte
}

// ownName: a name a git folder holds for itself, where no submodule's git
// folder lies but where a submodule's path may run through.
func ownName(name string) bool {
	switch name {
	case "objects", "refs", "logs", "hooks", "info", "lfs", "worktrees":
		return true
	}
	return false
}

// walk looks at folder path, and beneath it; own: path is in a git
// folder's own folders, whose entries count against ownLeft. It returns
// false once the walk is cut.
func (w *moduleWalk) walk(path string, own bool) bool {
	if strings.Count(path[len(w.root):], "/") > maxModuleDepth {
		// Every name looked at costs the kernel a step for each folder
		// above it: a folder thousands of levels deep (one mkdir -p) made
		// each start's walk and plan take minutes. Read-only whole,
		// nothing beneath it can take a hook or setting.
		if !w.pe.takeExtras(1) {
			w.cut = true
			return false
		}
		w.out.mounts = append(w.out.mounts, mountTarget{path: path, readOnly: true})
		w.out.notes = append(w.out.notes, fmt.Sprintf("%s lies more than %d folders deep in %s: no submodule's git folder does; it is read-only whole, and what lies beneath it is not looked into", path, maxModuleDepth, w.root))
		return true
	}
	if w.pe.foldersLeft != nil {
		if *w.pe.foldersLeft--; *w.pe.foldersLeft < 0 {
			w.cut = true
			return false
		}
	}
	planned := false
	if looksLikeGitDir(path) {
		pe := w.pe
		// The submodule's work tree is named by its core.worktree.
		sub := gitDirMounts(path, path, pe.settings.settings("", filepath.Join(path, "config")).worktree, pe)
		// Its worktrees listing took its share already.
		n := 1
		for _, m := range sub.mounts {
			if !m.extra {
				n++
			}
		}
		if !pe.takeExtras(n) {
			// Its git folder counts as planned now (gitDirMounts marked
			// it): it is covered by root's read-only mount.
			w.cut = true
			return false
		}
		w.out.mounts = append(w.out.mounts, mountTarget{path: path, readOnly: false})
		w.out.mains = append(w.out.mains, path)
		w.out.add(sub)
		planned = true
	}
	subs, ok := w.folders(path, own)
	if !ok {
		w.cut = true
		return false
	}
	for _, s := range subs {
		// A git folder's own names are looked into as its own folders
		// only in one this walk planned, never in root itself: a HEAD
		// planted in root made root look like a git folder, and a
		// submodule's name is its path, which may hold one of these
		// (vendor/hooks keeps its git folder in modules/vendor/hooks).
		// What lies beneath them stays in that kind.
		if !w.walk(filepath.Join(path, s), own && !planned || planned && path != w.root && ownName(s)) {
			return false
		}
	}
	return true
}

// folders are the names of the folders in folder path, in order, its
// entries counted against the walk's bounds: false when one ran out or
// path could not be read. It is opened with no link followed, and read
// a buffer at a time: a command can put millions of entries in any
// folder, and no listing is read past the bound.
func (w *moduleWalk) folders(path string, own bool) ([]string, bool) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		// A folder the walk cannot read (a name past PATH_MAX, no
		// permission) hides what lies after it as much as a bound does.
		return nil, false
	}
	defer func() { _ = unix.Close(fd) }()
	var subs []string
	for {
		n, err := unix.Getdents(fd, w.buf)
		if err != nil {
			return nil, false
		}
		if n <= 0 {
			break
		}
		for off := 0; off+19 <= n; {
			// struct linux_dirent64: ino 8, off 8, reclen 2, type 1, name.
			reclen := int(binary.NativeEndian.Uint16(w.buf[off+16:]))
			if reclen == 0 || off+reclen > n {
				return nil, false
			}
			typ, name := w.buf[off+18], w.buf[off+19:off+reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			off += reclen
			if string(name) == "." || string(name) == ".." {
				continue
			}
			if !w.count(own) {
				return nil, false
			}
			if typ == unix.DT_UNKNOWN {
				typ = direntType(filepath.Join(path, string(name)))
			}
			if typ == unix.DT_DIR {
				subs = append(subs, string(name))
			}
		}
	}
	slices.Sort(subs)
	return subs, true
}

// count counts one entry against the walk's bounds; false past them.
func (w *moduleWalk) count(own bool) bool {
	if !own {
		w.n++
		return w.n <= maxModuleEntries
	}
	if w.ownLeft--; w.ownLeft < 0 {
		return false
	}
	if w.pe.ownLeft != nil {
		if *w.pe.ownLeft--; *w.pe.ownLeft < 0 {
			return false
		}
	}
	return true
}

// closeFolder makes folder dir read-only whole, planned with the
// repositories' own mounts, where a bound cut the look at what lies in it
// short: what was planned in it before keeps its own mounts on top (they
// lie deeper), and what was not cannot take a hook or setting. Git in the
// command then cannot write there (a submodule's or linked worktree's
// index and refs): the output says why.
func (g *gitSet) closeFolder(dir, what string) {
	g.mounts = append(g.mounts, mountTarget{path: dir, readOnly: true, closed: true})
	g.notes = append(g.notes, fmt.Sprintf("%s holds more of %s than a start looks at; it is read-only whole for this command, so git here cannot write in it", dir, what))
}

// isGitDir: a folder git would take for a repository's, by its HEAD as
// git's validate_headref takes it: a regular file, or a link into refs/
// (core.preferSymlinkRefs, older gits). Only a folder git takes gets a
// hooks folder made, so that a .git file planted to name another folder
// makes nothing there.
func isGitDir(dir string) bool {
	head := filepath.Join(dir, "HEAD")
	fi, err := os.Lstat(head)
	if err != nil {
		return false
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		t, err := os.Readlink(head)
		return err == nil && strings.HasPrefix(t, "refs/")
	}
	return fi.Mode().IsRegular()
}

// looksLikeGitDir: a folder in .git/modules that is a submodule's git
// folder by any sign a command could not take away: a HEAD of any kind,
// or settings. Settings alone are enough: a command deleted a planned
// submodule's HEAD and renamed its objects, so that the next start saw no
// git folder and left its settings open to the command after it, which
// put them back with a core.fsmonitor of its own; a planned folder's
// config is a mount point, which no command can remove.
func looksLikeGitDir(dir string) bool {
	if _, err := os.Lstat(filepath.Join(dir, "HEAD")); err == nil {
		return true
	}
	c, err := os.Lstat(filepath.Join(dir, "config"))
	return err == nil && c.Mode().IsRegular()
}

// worktreeDirs reads a .git file ("gitdir: PATH") and the commondir file
// of the folder it names; "" when it names none.
func worktreeDirs(dotgit string) (gitDir, common string) {
	b, err := readRegular(dotgit, maxGitConfigSize)
	if err != nil {
		return "", ""
	}
	rel, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !ok {
		return "", ""
	}
	gitDir = strings.TrimSpace(rel)
	if !filepath.IsAbs(gitDir) {
		gitDir = filepath.Join(filepath.Dir(dotgit), gitDir)
	}
	gitDir = Clean(gitDir)
	if !isGitDir(gitDir) {
		return "", ""
	}
	common = gitDir
	if c, err := readRegular(filepath.Join(gitDir, "commondir"), maxGitConfigSize); err == nil {
		common = strings.TrimSpace(string(c))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitDir, common)
		}
		common = Clean(common)
		if !isGitDir(common) {
			return "", ""
		}
	}
	return gitDir, common
}

// bindSelf mounts path over itself, read-only and without set-user-ID
// when readOnly. The mount point pins the path (no rename or removal);
// read-only refuses chmod, chgrp, truncation and writes through it.
//
// The path is opened once, with no link followed (openNoLinks), and what
// was opened is cloned, made read-only while still detached, and put on
// what was opened: mount(2) with two names looks them up one after the
// other, and a process writing in a grant that swaps a name for a link
// between the two (or before the read-only step) put a file or folder
// the sandbox may not reach over one it may.
//
// A link (link) is mounted on itself, not followed: it can then be neither
// removed nor renamed, and still leads where it led.
func bindSelf(path string, readOnly, link bool) error {
	open := openNoLinks
	if link {
		open, readOnly = openEntry, false
	}
	fd, err := open(path)
	if errors.Is(err, unix.ENOSYS) {
		if link {
			return nil // mount(2) by name follows the link
		}
		return bindSelfByName(path, readOnly)
	}
	if err != nil {
		return fmt.Errorf("open: %w", err)
	}
	defer unix.Close(fd)
	tree, err := unix.OpenTree(fd, "", unix.AT_EMPTY_PATH|unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
	if err != nil {
		return fmt.Errorf("bind: %w", err)
	}
	defer unix.Close(tree)
	if readOnly {
		attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID}
		if err := unix.MountSetattr(tree, "", unix.AT_EMPTY_PATH|unix.AT_RECURSIVE, &attr); err != nil {
			return fmt.Errorf("make read-only: %w", err)
		}
	}
	if err := unix.MoveMount(tree, "", fd, "", unix.MOVE_MOUNT_F_EMPTY_PATH|unix.MOVE_MOUNT_T_EMPTY_PATH); err != nil {
		return fmt.Errorf("bind: %w", err)
	}
	return nil
}

// bindSelfByName is bindSelf before Linux 5.6 (no openat2), where
// Landlock, from 5.13, is missing anyway: by name, with the race bindSelf
// closes.
func bindSelfByName(path string, readOnly bool) error {
	if err := unix.Mount(path, path, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("bind: %w", err)
	}
	if !readOnly {
		return nil
	}
	// A remount must repeat the flags the mount inherited (locked in a
	// user namespace), or it is refused.
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return fmt.Errorf("make read-only: %w", err)
	}
	flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY | unix.MS_NOSUID)
	for _, f := range lockedFlags {
		if st.Flags&f.st != 0 {
			flags |= f.ms
		}
	}
	if err := unix.Mount("", path, "", flags, ""); err != nil {
		return fmt.Errorf("make read-only: %w", err)
	}
	return nil
}

// lockedFlags are the statfs flags a remount must keep, and their mount
// flags.
var lockedFlags = []struct {
	st int64
	ms uintptr
}{
	{unix.ST_NODEV, unix.MS_NODEV}, {unix.ST_NOEXEC, unix.MS_NOEXEC}, {unix.ST_NOATIME, unix.MS_NOATIME},
	{unix.ST_NODIRATIME, unix.MS_NODIRATIME}, {unix.ST_RELATIME, unix.MS_RELATIME}}
