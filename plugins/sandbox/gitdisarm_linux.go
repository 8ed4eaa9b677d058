package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// DisarmNewRepos looks, once a command has ended, for the repositories
// in or beneath the grants its start walked that were not there then (not
// among the list's Repos), and moves aside what in them the person's own
// git would run unconfined: settings files holding anything but what a
// clone or `git init` writes (allowedSetting: a remote over a plain
// transport, branches, core's plain switches), hooks other than git's
// samples, a commondir, and the same in the git folders of their
// submodules and worktrees; and a work-tree hooks folder a relative
// core.hooksPath of the person's own settings names. A repository a
// command makes is the command's: its settings are not mounted
// read-only, for they did not exist when its namespace was made. Yet the
// person's git enters it: `git status` in the outer repository runs a
// submodule's core.fsmonitor once the command has added it to the index
// (`git add inner`), and a shell prompt that shows git's status runs it
// as soon as the person changes into it. It returns a note for each
// thing moved, for the command's output. What a process the command left
// running makes after this look stays (see docs/plugins.md).
func DisarmNewRepos(w WatchList) []string {
	known := map[string]bool{}
	// The git folders of the repositories there at the start: the
	// person's, protected by mounts, never moved, whatever a new .git
	// file names (a40).
	var knownGit []knownGitDir
	// The git folders the start planned (a submodule's in .git/modules):
	// a git folder made since inside a known one is the command's (a41).
	planned := map[string]bool{}
	for _, d := range w.GitDirs {
		if real, err := filepath.EvalSymlinks(d); err == nil {
			planned[real] = true
		}
	}
	for _, r := range w.Repos {
		known[r] = true
		if real, err := filepath.EvalSymlinks(gitDirOf(r)); err == nil {
			knownGit = append(knownGit, knownGitDir{path: real, bare: real == r, planned: planned})
		}
	}
	home, _ := os.UserHomeDir()
	var notes []string
	// A repository there at the start whose folder holds what makes a
	// git folder (a HEAD beside a commondir, or beside objects and refs):
	// git takes that folder as soon as its .git is refused (a HEAD the
	// command broke: HEAD stays writable for checkouts), now or after a
	// later command. No time says who made it (a file written in place,
	// a folder renamed above it keep theirs: a44), and a work tree's own
	// folder is no git folder of the person's, so it is looked at at
	// every end (a43, a44).
	for _, r := range w.Repos {
		if !isDir(filepath.Join(r, ".git")) || !looseGitFolder(r) {
			continue
		}
		moved := disarmGitFolder(r, r)
		notes = append(notes, moved...)
		if dotgit := filepath.Join(r, ".git"); !gitSurelyTakes(dotgit) {
			notes = append(notes, fmt.Sprintf("%s is no git folder to git any more (its HEAD, objects or refs changed), so git looks at %s itself: fix %s/HEAD (git symbolic-ref HEAD refs/heads/main, or the branch you were on)", dotgit, r, dotgit))
		}
	}
	for _, g := range w.Grants {
		walk := walkRepos(g)
		found := walk.repos
		if holdsRepo(g) {
			found = append([]string{g}, found...)
		} else if looseGitFolder(g) {
			// The grant itself made a git folder (HEAD and a commondir):
			// git run in any folder of it that is no repository finds it
			// (a43).
			walk.maybe = append(walk.maybe, g)
		}
		cut := slices.Contains(w.Cut, g)
		for _, r := range found {
			if known[r] {
				continue
			}
			known[r] = true
			if madeSince(r, w.Started, cut) {
				notes = append(notes, disarmRepo(r, w.Grants, knownGit, home)...)
			}
		}
		// Folders git may take as git folders that the start did not
		// count as repositories, looked at at every end whoever made them
		// and whenever: no time says (a file written in place keeps its
		// times, a folder renamed above it its ctime: a44). The person's
		// (a bare repository's linked worktree folders) are planned git
		// folders, which disarmRepo leaves alone.
		for _, r := range walk.maybe {
			if known[r] {
				continue
			}
			known[r] = true
			notes = append(notes, disarmRepo(r, w.Grants, knownGit, home)...)
		}
	}
	// A mount point is left without a note (moveNote).
	return slices.DeleteFunc(notes, func(n string) bool { return n == "" })
}

// madeSince says whether the repository at dir, not found by the
// start's walk, was made since the plan (started, Unix nanoseconds).
// Where that walk was whole, not being found says so: a git folder
// renamed into place keeps its old birth time (a40). Where it was cut
// short, the repository may be the person's, beyond what it reached: its
// .git's (or bare folder's) birth time, which no command can set, must
// say it is new; without one it is left as it is.
func madeSince(dir string, started int64, cut bool) bool {
	if !cut {
		return true
	}
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
	return false
}

// looseGitFolder: dir holds a HEAD beside a commondir, or beside
// objects and refs of any type: git may take it as a git folder (the
// walk's maybe).
func looseGitFolder(dir string) bool {
	return exists(dir, "HEAD") && (exists(dir, "commondir") || exists(dir, "objects") && exists(dir, "refs"))
}

// bornSlack is how much earlier than the plan a git folder may have been
// stamped and still count as the command's: file systems stamp with the
// kernel's coarse clock, a tick behind.
const bornSlack = 50 * time.Millisecond

// knownGitDir is the git folder of a repository there at a command's
// start; bare: the repository's own folder.
type knownGitDir struct {
	path string
	bare bool
	// planned are the git folders the start planned, links resolved.
	planned map[string]bool
}

// holds says whether git folder p is the person's: k itself, or a git
// folder in it that the start planned (a submodule's). One made since in
// the person's .git (git init --separate-git-dir=.git/modules/evil) is
// the command's: no mount covers it, and the person's git status enters
// it once the command has added it as a submodule (a41).
func (k knownGitDir) holds(p string) bool {
	return p == k.path || k.planned[p] && within(k.path, p)
}

// gitDirOf is the git folder of the repository at dir as git finds it:
// its .git folder, the folder a .git file (or a link to one) names, or
// dir itself for a bare one; "" when there is none.
func gitDirOf(dir string) string {
	dotgit := filepath.Join(dir, ".git")
	fi, err := os.Stat(dotgit)
	switch {
	case errors.Is(err, os.ErrNotExist) && (isBareRepo(dir) || gitFolderLeft(dir)):
		return dir
	case err != nil:
		return ""
	case fi.Mode().IsRegular():
		target, _ := gitFileAt(dotgit)
		return target
	}
	return dotgit
}

// gitFileAt is the git folder the .git file at path names ("" and false
// when git would not take it as one), relative paths joined to its
// folder. A link to a file is read as the file: git stats, it does not
// lstat (a42).
func gitFileAt(path string) (string, bool) {
	b, err := readRegular(path, 4096)
	if err != nil {
		return "", false
	}
	target, ok := gitFileTarget(b)
	if !ok {
		return "", false
	}
	return joinRaw(filepath.Dir(path), target), true
}

// joinRaw joins rel to base as the kernel and git's strbuf_realpath
// take it: without cleaning, so that ".." after a link leaves the
// folder the link leads to, not the link's own (lnk/../evil: a43).
// filepath.EvalSymlinks resolves such a path the same way.
func joinRaw(base, rel string) string {
	if filepath.IsAbs(rel) {
		return rel
	}
	return base + "/" + rel
}

// throughProc: path, or a link on the way to it, lies in /proc or /dev
// (/proc/self/cwd, /dev/fd/N): such a path names another folder to every
// process that follows it, the person's git and this check apart (a43).
// Past 40 links it is taken as one too.
func throughProc(path string) bool {
	special := func(p string) bool {
		for _, top := range []string{"/proc", "/dev"} {
			if p == top || strings.HasPrefix(p, top+"/") {
				return true
			}
		}
		return false
	}
	for hops := 0; hops <= 40; hops++ {
		if !filepath.IsAbs(path) || special(filepath.Clean(path)) {
			return filepath.IsAbs(path)
		}
		// Find the first link on the way, folders resolved as met.
		cur, rest := "/", strings.Split(strings.TrimPrefix(path, "/"), "/")
		relinked := false
		for i, comp := range rest {
			switch comp {
			case "", ".":
				continue
			case "..":
				cur = filepath.Dir(cur)
				continue
			}
			next := filepath.Join(cur, comp)
			fi, err := os.Lstat(next)
			if err != nil {
				return false
			}
			if fi.Mode()&os.ModeSymlink == 0 {
				cur = next
				continue
			}
			t, err := os.Readlink(next)
			if err != nil {
				return false
			}
			if !filepath.IsAbs(t) {
				t = cur + "/" + t
			}
			path = t + "/" + strings.Join(rest[i+1:], "/")
			relinked = true
			break
		}
		if !relinked {
			return special(cur)
		}
	}
	return true
}

// gitDirCandidates are every folder git may take as the git folder of
// the repository at dir, as setup_git_directory looks: what .git names
// (a folder, a link to one, a .git file or a link to one), and dir
// itself, which git takes when .git is a folder that is no git folder
// (an empty one: a42) or is missing. Each is disarmed, so a difference
// between git's reading and this one leaves nothing armed.
func gitDirCandidates(dir string) []string {
	dotgit := filepath.Join(dir, ".git")
	fi, err := os.Stat(dotgit)
	switch {
	case err == nil && fi.Mode().IsRegular():
		// A .git file git cannot follow stops git with an error: dir is
		// never taken then.
		if target, ok := gitFileAt(dotgit); ok {
			return []string{target}
		}
		return nil
	case err == nil && fi.IsDir():
		if gitSurelyTakes(dotgit) {
			return []string{dotgit}
		}
		if mayBeGitDir(dir) {
			return []string{dotgit, dir}
		}
		return []string{dotgit}
	}
	if mayBeGitDir(dir) {
		return []string{dir}
	}
	return nil
}

// gitSurelyTakes: git takes folder g as a git folder (is_git_directory):
// a HEAD it reads as valid, objects and refs folders in its common
// folder. Stricter than git where unsure (objects a file git could
// enter, HEAD in capitals), so that dir beside it is disarmed too.
func gitSurelyTakes(g string) bool {
	if !headSurelyValid(filepath.Join(g, "HEAD")) {
		return false
	}
	// A .git folder with a commondir is no repository's own (git never
	// writes one there): moving it aside may leave git refusing the
	// folder, and taking the one holding it (a43).
	if _, err := os.Lstat(filepath.Join(g, "commondir")); !errors.Is(err, os.ErrNotExist) {
		return false
	}
	common := g
	for _, name := range []string{"objects", "refs"} {
		// git asks access(X_OK), as the person: a folder the command
		// took search permission from (chmod 000) is no git folder to
		// them, and git goes on to the folder holding .git.
		p := filepath.Join(common, name)
		if fi, err := os.Stat(p); err != nil || !fi.IsDir() || unix.Access(p, unix.X_OK) != nil {
			return false
		}
	}
	return true
}

// headSurelyValid: git's validate_headref takes the HEAD at path: a link
// into refs/, "ref: refs/…", or an object name.
func headSurelyValid(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil {
		return false
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		t, err := os.Readlink(path)
		return err == nil && strings.HasPrefix(t, "refs/")
	}
	// git reads 255 bytes of it (validate_headref); a "refs/" past them
	// is none to git (a43).
	b, err := readRegular(path, 255)
	if err != nil {
		return false
	}
	if rest, ok := bytes.CutPrefix(b, []byte("ref:")); ok {
		// git's isspace: no \v or \f (a44).
		return bytes.HasPrefix(bytes.TrimLeft(rest, " \t\n\r"), []byte("refs/"))
	}
	hex := bytes.TrimRight(b, "\n")
	if len(hex) != 40 && len(hex) != 64 {
		return false
	}
	for _, c := range hex {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// mayBeGitDir: dir holds what makes git take a folder as a git folder
// (is_git_directory: a HEAD, then objects and refs in its common folder,
// links followed), or the settings of one: a HEAD of any kind, a
// commondir, or a config beside a hooks folder. Looser than git, on
// purpose: what it takes is only looked at, and moved aside only where
// it would run something.
func mayBeGitDir(dir string) bool {
	return exists(dir, "HEAD") || exists(dir, "commondir") || gitFolderLeft(dir)
}

// gitFileTarget reads a .git file as git's read_gitfile does: the
// content must start with "gitdir: "; line ends are taken off the end of
// the whole content, and then the path ends at the first NUL (a path may
// end in spaces: a40; "gitdir: D\n\0" names "D\n": a42).
func gitFileTarget(b []byte) (string, bool) {
	rest, ok := bytes.CutPrefix(b, []byte("gitdir: "))
	if !ok {
		return "", false
	}
	rest = bytes.TrimRight(rest, "\r\n")
	if i := bytes.IndexByte(rest, 0); i >= 0 {
		rest = rest[:i]
	}
	if len(rest) == 0 {
		return "", false
	}
	return string(rest), true
}

// disarmRepo disarms the repository at dir (a folder holding .git, or a
// bare one): each folder git may take as its git folder
// (gitDirCandidates) that, links resolved, lies in one of grants and is
// not the person's (knownGit). home finds the person's settings.
func disarmRepo(dir string, grants []string, knownGit []knownGitDir, home string) []string {
	var notes []string
	seen := map[string]bool{}
	person := func(real string) bool {
		return slices.ContainsFunc(knownGit, func(k knownGitDir) bool { return k.holds(real) })
	}
	disarm := func(real string) {
		notes = append(notes, disarmGitFolder(real, dir)...)
		// Its submodules' and worktrees' git folders: git enters them from
		// the person's `git status` in it too.
		notes = append(notes, disarmNested(real, dir, grants, knownGit)...)
	}
	for _, gitDir := range gitDirCandidates(dir) {
		if throughProc(gitDir) {
			notes = append(notes, moveDotGit(dir, "a path to its git folder through /proc or /dev, which names another folder to each program that follows it"))
			continue
		}
		real, err := filepath.EvalSymlinks(gitDir)
		if err != nil || seen[real] {
			continue // git finds no repository there either
		}
		seen[real] = true
		if !inGrants(grants, real) || person(real) {
			continue
		}
		// A linked worktree's folder keeps its commondir (git's own); the
		// folder it names holds the settings git reads for it (a43).
		if ownWorktreeCommondir(real) {
			if common, err := filepath.EvalSymlinks(filepath.Dir(filepath.Dir(real))); err == nil && !seen[common] && inGrants(grants, common) && !person(common) {
				seen[common] = true
				disarm(common)
			}
		}
		disarm(real)
		if real != dir {
			notes = append(notes, disarmWorkTreeHooks(dir, home)...)
		}
	}
	return notes
}

// exists: dir holds an entry name, of any type.
func exists(dir, name string) bool {
	_, err := os.Lstat(filepath.Join(dir, name))
	return err == nil
}

// isDir: path is a folder, links followed.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// moveDotGit moves the .git of the repository at dir aside; it holds
// what.
func moveDotGit(dir, what string) string {
	fd, err := openNoLinks(dir)
	if err != nil {
		return fmt.Sprintf("%s/.git holds %s and could not be moved away (%v): remove it before running git there", dir, what, err)
	}
	defer func() { _ = unix.Close(fd) }()
	return moveNote(fd, dir, ".git", what)
}

// inGrants: path is one of grants or lies beneath one.
func inGrants(grants []string, path string) bool {
	return slices.ContainsFunc(grants, func(g string) bool { return path == g || within(g, path) })
}

// maxNestedGitFolders bounds the submodules' and worktrees' git folders
// of a new repository looked at.
const maxNestedGitFolders = 1024

// disarmNested disarms the git folders in gitDir's modules (at any
// depth, a submodule's own submodules' included) and worktrees folders.
// A link there is followed where it leads into grants and to no git
// folder of the person's (knownGit): git follows it (a42). Past
// maxNestedGitFolders the rest are moved aside whole.
func disarmNested(gitDir, repo string, grants []string, knownGit []knownGitDir) []string {
	var notes []string
	count := 0
	seen := map[string]bool{}
	var walk func(dir string, depth int)
	// beneath walks the folders beneath top (one of modules, worktrees,
	// or a folder a link there leads to) for git folders.
	var beneath func(top string, depth int)
	beneath = func(top string, depth int) {
		if fi, err := os.Lstat(top); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			// .git/modules itself a link: git follows it too.
			real, err := filepath.EvalSymlinks(top)
			if err != nil || !inGrants(grants, real) || slices.ContainsFunc(knownGit, func(k knownGitDir) bool { return k.holds(real) }) || seen[real] {
				return
			}
			seen[real] = true
			top = real
		}
		_ = filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
			if err != nil || p == top {
				return nil
			}
			if count++; count > maxNestedGitFolders {
				return fs.SkipAll
			}
			target := p
			if d.Type()&fs.ModeSymlink != 0 {
				real, err := filepath.EvalSymlinks(p)
				if err != nil || !inGrants(grants, real) || slices.ContainsFunc(knownGit, func(k knownGitDir) bool { return k.holds(real) }) {
					return nil
				}
				if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
					return nil
				}
				target = real
			} else if !d.IsDir() {
				return nil
			}
			if seen[target] {
				return fs.SkipDir
			}
			seen[target] = true
			if looksLikeGitDir(target) {
				notes = append(notes, disarmGitFolder(target, repo)...)
				walk(target, depth+1)
				return fs.SkipDir
			}
			if target != p {
				// A link to a folder that is no git folder: git looks
				// beneath it (modules/a/b) as beneath a folder.
				beneath(target, depth+1)
			}
			return nil
		})
	}
	walk = func(dir string, depth int) {
		for _, sub := range []string{"modules", "worktrees"} {
			parent := filepath.Join(dir, sub)
			if depth > 8 || count > maxNestedGitFolders {
				if fd, err := openNoLinks(dir); err == nil {
					if _, err := os.Lstat(parent); err == nil {
						notes = append(notes, moveNote(fd, dir, sub, "more submodules' or worktrees' git folders than are looked at"))
					}
					_ = unix.Close(fd)
				}
				continue
			}
			beneath(parent, depth)
		}
	}
	walk(gitDir, 0)
	return notes
}

// disarmGitFolder moves aside, in the git folder gitDir of the
// repository at repo, the settings files that hold what a clone's do
// not, a hooks folder with more than git's samples, and a commondir.
func disarmGitFolder(gitDir, repo string) []string {
	fd, err := openNoLinks(gitDir)
	if err != nil {
		return []string{fmt.Sprintf("the git folder %s of the repository in %s, which the command made, could not be looked at (%v): look at its settings and hooks before running git there", gitDir, repo, err)}
	}
	defer func() { _ = unix.Close(fd) }()
	var notes []string
	for _, name := range []string{"config", "config.worktree"} {
		if why := riskySettings(filepath.Join(gitDir, name)); why != "" {
			notes = append(notes, moveNote(fd, gitDir, name, "settings from the command that your git would run or follow ("+why+")"))
		}
	}
	if why := ranHooks(filepath.Join(gitDir, "hooks")); why != "" {
		notes = append(notes, moveNote(fd, gitDir, "hooks", "hooks the command made ("+why+")"))
		_ = unix.Mkdirat(fd, "hooks", 0o755)
	}
	if ownWorktreeCommondir(gitDir) {
		// A linked worktree's folder (git worktree add): its commondir
		// names the repository's own git folder, as git writes it.
		return notes
	}
	return append(notes, moveCommondir(fd, gitDir)...)
}

// ownWorktreeCommondir: gitDir is a linked worktree's folder
// (MAIN/worktrees/NAME) whose commondir leads to MAIN, links resolved.
func ownWorktreeCommondir(gitDir string) bool {
	if filepath.Base(filepath.Dir(gitDir)) != "worktrees" {
		return false
	}
	b, err := readRegular(filepath.Join(gitDir, "commondir"), 4096)
	if err != nil {
		return false
	}
	target := joinRaw(gitDir, strings.TrimRight(string(b), "\r\n"))
	if throughProc(target) {
		return false
	}
	real, err := filepath.EvalSymlinks(target)
	if err != nil {
		return false
	}
	main, err := filepath.EvalSymlinks(filepath.Dir(filepath.Dir(gitDir)))
	return err == nil && real == main
}

// disarmWorkTreeHooks moves aside the hooks folders in the work tree of
// the new repository at dir that a relative core.hooksPath of the
// person's own settings names (core.hooksPath = .githooks): git runs
// them in every repository, this one included (a40).
func disarmWorkTreeHooks(dir, home string) []string {
	var notes []string
	for _, h := range readGitSettings(home, personGitConfigs(home, os.Getenv)...).hooksPaths {
		if filepath.IsAbs(h) {
			continue
		}
		path := filepath.Join(dir, h)
		if !within(dir, path) || path == dir {
			continue
		}
		if why := ranHooks(path); why != "" {
			parent := filepath.Dir(path)
			fd, err := openNoLinks(parent)
			if err != nil {
				notes = append(notes, fmt.Sprintf("%s holds hooks the command made (%s) that your core.hooksPath runs, and could not be moved away (%v): remove it before committing there", path, why, err))
				continue
			}
			notes = append(notes, moveNote(fd, parent, filepath.Base(path), "hooks the command made that your core.hooksPath runs ("+why+")"))
			_ = unix.Close(fd)
		}
	}
	return notes
}

// moveNote moves name aside in the folder open as fd (named dir) and
// says so.
func moveNote(fd int, dir, name, what string) string {
	path := filepath.Join(dir, name)
	if mountPoint(fd, name) {
		// The person's, under the start's read-only mount (a git folder
		// the command's .git file names): not the command's to move, nor
		// a note telling anyone to remove it (a40).
		return ""
	}
	to, err := moveAside(fd, name)
	if err != nil {
		return fmt.Sprintf("%s holds %s and could not be moved away (%v): remove it before running git there", path, what, err)
	}
	return fmt.Sprintf("moved %s, in a repository the command made, to %s: it holds %s; rename it back only if you trust it", path, filepath.Join(dir, to), what)
}

// riskySettings says why the settings file path may not stay in a
// repository a command made ("" when it may): a setting a clone or
// `git init` does not write (allowedSetting; the first few named), a
// line git refuses, a file too large to read whole, or one that cannot
// be read (git as the person may read what this cannot).
func riskySettings(path string) string {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return ""
	case err != nil:
		return "it could not be looked at"
	case !fi.Mode().IsRegular():
		return "not a regular file"
	case fi.Size() > maxGitConfigSize:
		return fmt.Sprintf("more than %d KiB, which is not read whole", maxGitConfigSize>>10)
	}
	b, err := readRegular(path, maxGitConfigSize+1)
	if err != nil {
		return "it could not be read"
	}
	entries, perr := parseGitConfig(b)
	var keys []string
	for _, e := range entries {
		if !allowedSetting(e) {
			k := e.Section + "."
			if e.Subsection != "" {
				k += e.Subsection + "."
			}
			if k += e.Key; !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	if perr != nil {
		// git refuses the file whole; what lies past the bad line is
		// unknown here and may be read by another git.
		keys = append(keys, "a line git refuses")
	}
	if len(keys) > 3 {
		keys = append(keys[:3], "…")
	}
	return strings.Join(keys, ", ")
}

// allowedSetting: a setting a new repository may keep, as a clone, `git
// init` or `git lfs install` writes them: core's plain switches, remotes
// over a transport that runs no command of the repository's choosing,
// branches, the layout's extensions, the committer's name. Anything else
// may run a program or make git read other files (core.fsmonitor, a
// filter, url.*.insteadOf to ext::, gpg.ssh.defaultKeyCommand,
// submodule.*.update = !cmd, include.path…), and no list of those is
// ever whole (a40).
func allowedSetting(e gitEntry) bool {
	sub := e.Subsection != ""
	switch e.Section {
	case "core":
		return !sub && slices.Contains([]string{"repositoryformatversion", "filemode", "bare", "logallrefupdates",
			"ignorecase", "precomposeunicode", "symlinks", "autocrlf", "eol", "safecrlf", "quotepath", "sharedrepository",
			"sparsecheckout", "sparsecheckoutcone", "checkstat", "trustctime", "untrackedcache", "splitindex",
			"compression", "loosecompression", "bigfilethreshold", "abbrev", "longpaths", "preloadindex"}, e.Key)
	case "remote":
		switch e.Key {
		case "url", "pushurl":
			return plainTransport(e.Value)
		case "fetch", "push", "tagopt", "prune", "prunetags", "mirror", "skipdefaultupdate", "skipfetchall", "promisor", "partialclonefilter":
			return true
		}
	case "branch":
		return slices.Contains([]string{"remote", "merge", "rebase", "pushremote", "description"}, e.Key)
	case "extensions":
		return !sub
	case "user":
		return !sub && (e.Key == "name" || e.Key == "email")
	case "init":
		return !sub && e.Key == "defaultbranch"
	case "pull":
		return !sub && (e.Key == "rebase" || e.Key == "ff")
	case "submodule":
		switch e.Key {
		case "url":
			return plainTransport(e.Value)
		case "active", "branch", "path", "ignore", "shallow", "fetchrecursesubmodules":
			return true
		}
	case "lfs":
		return !sub && e.Key == "repositoryformatversion"
	case "filter":
		// What `git lfs install --local` writes: git-lfs, found on the
		// person's PATH, not the repository's program.
		if e.Subsection == "lfs" {
			switch e.Key {
			case "clean":
				return e.Value == "git-lfs clean -- %f"
			case "smudge":
				return e.Value == "git-lfs smudge -- %f"
			case "process":
				return e.Value == "git-lfs filter-process"
			case "required":
				return true
			}
		}
	}
	return false
}

// plainTransport: a remote's URL that names no transport helper
// ("ext::sh -c …", "fd::", "helper::address" run a command or a
// git-remote-HELPER of the URL's choosing).
func plainTransport(url string) bool {
	return !strings.Contains(url, "::")
}

// ranHooks says which entries of the hooks folder path git could run
// ("" for none): anything but git's own *.sample files. A hooks folder
// that is a link leads to what the command chose; one that cannot be
// listed (mode 0111) may still hold hooks git runs by name (a40).
func ranHooks(path string) string {
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return ""
	}
	if err != nil {
		return "it could not be looked at"
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return "the hooks folder is a link"
	}
	if !fi.IsDir() {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return "it could not be listed"
	}
	defer func() { _ = f.Close() }()
	entries, err := f.ReadDir(maxHookEntries + 1)
	if err != nil && len(entries) == 0 && !errors.Is(err, io.EOF) {
		return "it could not be listed"
	}
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

// mountPoint says whether name in the folder open as fd is a mount point
// (its mount differs from the folder's): a bind mount of the same file
// system keeps the device, so the mount IDs tell.
func mountPoint(fd int, name string) bool {
	var dir, entry unix.Statx_t
	if unix.Statx(fd, "", unix.AT_EMPTY_PATH, unix.STATX_MNT_ID, &dir) != nil ||
		unix.Statx(fd, name, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_MNT_ID, &entry) != nil ||
		dir.Mask&unix.STATX_MNT_ID == 0 || entry.Mask&unix.STATX_MNT_ID == 0 {
		return false
	}
	return dir.Mnt_id != entry.Mnt_id
}
