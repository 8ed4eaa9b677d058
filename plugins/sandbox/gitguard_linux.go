package sandbox

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// MoveCommondirs moves away the commondir file of each main git folder in
// dirs (a repository's own .git, a submodule's .git/modules/NAME), and
// says so, one line for each. Git makes a commondir only in a linked
// worktree's folder (.git/worktrees/NAME); one in a main git folder sends
// the person's git to the settings and hooks of the folder it names,
// which a sandboxed command can write. No mount can refuse a name that
// does not exist yet, and Landlock cannot refuse one name in a writable
// folder, so the launcher moves one found at its start, and the watcher
// (WatchGit) one made while the command ran.
func MoveCommondirs(dirs []string) []string {
	var notes []string
	for _, d := range dirs {
		// The folder is opened once, with no link on the way, and the
		// file renamed within it: a process left by an earlier command
		// (in a namespace where nothing is pinned) can put a link where
		// the folder was, toward a git folder outside every grant.
		dir, err := openNoLinks(d)
		if err != nil {
			if errors.Is(err, errLinkOnPath) {
				notes = append(notes, fmt.Sprintf("%s: %v; its commondir was not looked at", d, err))
			}
			continue
		}
		notes = append(notes, moveCommondir(dir, d)...)
		_ = unix.Close(dir)
	}
	return notes
}

// moveCommondir moves the commondir in the git folder open as dir (named
// name) aside, if there is one.
func moveCommondir(dir int, name string) []string {
	path := filepath.Join(name, "commondir")
	var st unix.Stat_t
	if err := unix.Fstatat(dir, "commondir", &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return nil
	}
	if st.Mode&unix.S_IFMT == unix.S_IFDIR {
		// git fails on a folder there (it cannot read it), which runs
		// nothing; a rename over a folder would fail anyway.
		return nil
	}
	to, err := moveAside(dir, "commondir")
	if err != nil {
		return []string{fmt.Sprintf("%s sends git to another folder's settings and hooks and could not be moved away (%v): remove it before running git there", path, err)}
	}
	return []string{fmt.Sprintf("moved %s (git reads the settings and hooks of the folder it names; git never makes one there) to %s; rename it back only if you made it", path, filepath.Join(name, to))}
}

// moveAside renames name (the commondir, or what DisarmNewRepos moves)
// in the git folder open as dir to the first free name of
// name+MovedSuffix, +".1", … +".9", then random ones, without replacing anything: a command can put a file or folder
// under the first names to make the rename fail, or take write away from
// the git folder, which the person owns and so gets back (u+w, which git
// needs there anyway). It returns the new name.
func moveAside(dir int, name string) (string, error) {
	var err error
	for retried := false; ; retried = true {
		for i := 0; i < maxMoveNames; i++ {
			to := name + MovedSuffix
			switch {
			case i >= 10:
				// A command can make any names it can foresee, so the
				// names past the first few are not foreseeable.
				to += "." + rand.Text()[:12]
			case i > 0:
				to += "." + strconv.Itoa(i)
			}
			err = unix.Renameat2(dir, name, dir, to, unix.RENAME_NOREPLACE)
			if err == nil {
				return to, nil
			}
			if !errors.Is(err, unix.EEXIST) {
				break
			}
		}
		if retried || !errors.Is(err, unix.EACCES) && !errors.Is(err, unix.EPERM) {
			return "", err
		}
		var st unix.Stat_t
		if serr := unix.Fstat(dir, &st); serr != nil {
			return "", err
		}
		// An O_PATH handle takes no fchmod; its /proc name leads to the
		// very folder.
		if cerr := unix.Fchmodat(unix.AT_FDCWD, "/proc/self/fd/"+strconv.Itoa(dir), st.Mode&0o7777|0o700, 0); cerr != nil {
			return "", err
		}
	}
}

// maxMoveNames bounds the names moveAside tries: the first ten counted
// (commondir.moved-by-wrasse, .1, … .9), the rest random.
const maxMoveNames = 20

// worktreeConfigOn reports whether the git settings file config turns on
// extensions.worktreeConfig, with which git reads config.worktree too:
// the last value read as git's boolean (no value, a value git takes for
// true, or one it would refuse: an empty config.worktree made for nothing
// costs nothing). Git reads a repository's extensions from its config
// alone, without its includes.
func worktreeConfigOn(config string) bool {
	data, err := readBounded(config)
	if err != nil {
		return false
	}
	entries, _ := parseGitConfig(data)
	on := false
	for _, e := range entries {
		if e.Section == "extensions" && e.Subsection == "" && e.Key == "worktreeconfig" {
			on = !e.HasValue || !gitFalse(e.Value)
		}
	}
	return on
}

// gitFalse: a value git's boolean reading takes for false.
func gitFalse(v string) bool {
	switch strings.ToLower(v) {
	case "", "false", "no", "off", "0":
		return true
	}
	return false
}

// The walk for repositories beneath a grant (reposBeneath).
const (
	// maxRepoDepth: folders up to this many levels below a grant are
	// looked into for a .git (~/code/group/client/year/app).
	maxRepoDepth = 5
	// maxWalkEntries bounds the entries the walk reads beneath one grant,
	// so a grant as broad as the home folder costs a bounded time at
	// every command's start.
	maxWalkEntries = 40000
)

// skipWalk: folders that hold no repository the person works in and
// cost the walk much (package folders, build output), and dot folders
// other than .git (caches, tools' settings).
func skipWalk(name string) bool {
	switch name {
	case "node_modules", "vendor", "venv", "target", "__pycache__", "dist", "build", "bower_components", "Pods", "DerivedData":
		return true
	}
	return strings.HasPrefix(name, ".")
}

// commandCacheHome: path lies in the commands' own cache home
// (CommandCache: ~/.local/state/wrasse/cmd-cache, what they download and
// build), where no repository of the person's is expected and a walk
// would cost much. Other dot folders are walked: a person's project can
// lie in one (~/.config/nvim's plugins, ~/.dotfiles: a40).
func commandCacheHome(path string) bool {
	const home = "/.local/state/wrasse/cmd-cache"
	return strings.HasSuffix(path, home) || strings.Contains(path, home+"/")
}

// reposBeneath are the folders strictly beneath grant that hold a .git
// (folder or file) or are a bare repository's (isBareRepo), found by a walk bounded in depth and entries, and a
// note saying what the walk left out when it was cut short ("" when it
// was not). The commands' own cache home is not walked (commandCacheHome).
//
// It runs at every command's start, so it reads each folder's entries
// raw (getdents into one buffer), with no allocation for the files,
// which are most entries: about a quarter less time than os.ReadDir, the
// rest being the kernel's (BenchmarkGitPlanBeneathGrant).
func reposBeneath(grant string) ([]string, string) {
	if systemPath(grant) || commandCacheHome(grant) {
		return nil, ""
	}
	w := walkRepos(grant)
	if w.cut {
		return w.repos, fmt.Sprintf("the search for git repositories beneath %s stopped after %d entries: repositories it did not reach there, and no earlier command found, are not protected (their settings and hooks stay writable to the command); grant a narrower folder", grant, maxWalkEntries)
	}
	return w.repos, ""
}

// walkRepos walks grant for repositories (reposBeneath), keeping what
// may be git folders too; cut when its bound ran out.
func walkRepos(grant string) repoWalk {
	w := repoWalk{buf: make([]byte, 32<<10)}
	if systemPath(grant) || commandCacheHome(grant) {
		return w
	}
	w.cut = !w.walk(grant, 0, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC)
	return w
}

// repoWalk is the state of one reposBeneath walk.
type repoWalk struct {
	buf     []byte
	entries int
	repos   []string
	// maybe are folders git may take as a git folder that are not
	// repos: a HEAD beside a commondir, or beside objects and refs that
	// are links (git follows them: a42) or files (a43). Only the end's check
	// (DisarmNewRepos) looks at them, at every end.
	maybe []string
	cut   bool
}

// walk reads folder dir, depth levels below the grant, and the folders
// beneath it; false when the entry budget ran out. Folders beneath are
// opened without following a link, so a link put there leads nowhere
// else.
func (w *repoWalk) walk(dir string, depth, flags int) bool {
	fd, err := unix.Open(dir, flags, 0)
	if err != nil {
		return true
	}
	var subs []string
	// A bare repository (mirror.git: git init --bare, clone --mirror) has
	// no .git: the folder is its own git folder, with HEAD, objects and
	// refs, and its hooks run in the person's git push to it (a39).
	var head, objects, refs, commondir, objectsAny, refsAny bool
	for {
		n, err := unix.Getdents(fd, w.buf)
		if err != nil || n <= 0 {
			break
		}
		for off := 0; off+19 <= n; {
			// struct linux_dirent64: ino 8, off 8, reclen 2, type 1, name.
			reclen := int(binary.NativeEndian.Uint16(w.buf[off+16:]))
			if reclen == 0 || off+reclen > n {
				break
			}
			typ, name := w.buf[off+18], w.buf[off+19:off+reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			off += reclen
			if string(name) == "." || string(name) == ".." {
				continue
			}
			if w.entries++; w.entries > maxWalkEntries {
				_ = unix.Close(fd)
				return false
			}
			if typ == unix.DT_UNKNOWN {
				typ = direntType(filepath.Join(dir, string(name)))
			}
			if string(name) == ".git" {
				// A .git that is a link (Android's repo tool links each
				// project's into .repo/projects) is a repository too
				// (nearestGitMounts follows it).
				if depth > 0 && (typ == unix.DT_DIR || typ == unix.DT_REG || typ == unix.DT_LNK) {
					w.repos = append(w.repos, dir)
				}
				continue
			}
			switch string(name) {
			case "HEAD":
				head = typ == unix.DT_REG || typ == unix.DT_LNK
			case "objects":
				// Of any type for what may be a git folder: git asks
				// only access(X_OK), which an executable file passes (a43).
				objects, objectsAny = typ == unix.DT_DIR, true
			case "refs":
				refs, refsAny = typ == unix.DT_DIR, true
			case "commondir":
				commondir = true
			}
			if typ == unix.DT_DIR && depth < maxRepoDepth && !skipWalk(string(name)) {
				subs = append(subs, string(name))
			}
		}
	}
	_ = unix.Close(fd)
	bare := head && objects && refs && isGitDir(dir)
	if bare && depth > 0 {
		w.repos = append(w.repos, dir)
	} else if head && depth > 0 && (commondir || objectsAny && refsAny) {
		w.maybe = append(w.maybe, dir)
	}
	// A bare repository's folders are walked like any others: a folder
	// that only looks like one (HEAD, objects and refs a command made in
	// a work tree or the grant) would otherwise hide every repository
	// beneath it, under any name (a40).
	for _, s := range subs {
		if !w.walk(filepath.Join(dir, s), depth+1, flags|unix.O_NOFOLLOW) {
			return false
		}
	}
	return true
}

// direntType is the entry type of path for a file system whose folder
// entries carry none (DT_UNKNOWN).
func direntType(path string) uint8 {
	var st unix.Stat_t
	if unix.Lstat(path, &st) != nil {
		return unix.DT_UNKNOWN
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		return unix.DT_DIR
	case unix.S_IFREG:
		return unix.DT_REG
	}
	return unix.DT_UNKNOWN
}

// watchArg, as the launcher's first argument, makes Main the watcher
// (WatchGit): the argument after it is the process to wait for; the git
// folders come on its standard input (GitDirsFrom).
const watchArg = "--wrasse-watch-git"

// startWatcher starts the watcher beside the command: the launcher again
// (self, its command line up to the policy), as its child, so the command's
// program, which takes the launcher's place, is the process it waits for.
// It is started before Restrict, so it is outside the command's Landlock
// domain, which can neither ptrace it nor (Landlock ABI 6) signal it, and
// in a process group of its own, so that the caller ending the command's
// group leaves it to do its check. It holds the command's stderr, to say
// what it moved, and nothing else.
func startWatcher(self []string, watch WatchList) error {
	if len(watch.GitDirs) == 0 && len(watch.Grants) == 0 || len(self) == 0 {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("the launcher cannot find itself to start its watcher: %w", err)
	}
	// The folders go on standard input, from a file in memory: as
	// arguments, a command that makes thousands of folders with long
	// names in .git/modules would pass the kernel's 2 MiB for them and
	// keep the watcher from starting (E2BIG). A file needs no reader
	// before the launcher goes on, as a pipe would.
	text, err := json.Marshal(watch)
	if err != nil {
		return fmt.Errorf("hand the watcher its folders: %w", err)
	}
	list, err := memFile("wrasse-git-dirs", string(text))
	if err != nil {
		return fmt.Errorf("hand the watcher its folders: %w", err)
	}
	defer list.Close()
	args := append(append([]string{}, self[1:]...), watchArg, strconv.Itoa(os.Getpid()))
	cmd := exec.Command(exe, args...)
	cmd.Stdin = list
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start the watcher: %w", err)
	}
	return nil
}

// memFile is a file in memory holding text, read from its start.
func memFile(name, text string) (*os.File, error) {
	fd, err := unix.MemfdCreate(name, unix.MFD_CLOEXEC)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), name)
	if _, err := io.WriteString(f, text); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// watchEvery is how often the watcher looks while the command runs: a
// long-running one (an MCP server) could otherwise keep a commondir in
// place for as long as it runs. Each look is one lstat a git folder.
const watchEvery = 2 * time.Second

// WatchGit is the watcher: it gives up its capabilities, then, until
// process pid (the command's program) ends and once more after, moves
// away any commondir the command made in a main git folder of the list's,
// saying so on stderr, which is the command's output (an MCP server's
// log). Once the program has ended it disarms the repositories the
// command made in its grants (DisarmNewRepos).
func WatchGit(pid string, watch WatchList, stderr io.Writer) int {
	dirs := watch.GitDirs
	if err := DropCapabilities(); err != nil {
		fmt.Fprintln(stderr, "wrasse sandbox: watcher:", err)
		return 126
	}
	n, err := strconv.Atoi(pid)
	if err != nil {
		fmt.Fprintln(stderr, "wrasse sandbox: watcher:", ErrUsage)
		return 2
	}
	check := func() {
		for _, note := range MoveCommondirs(dirs) {
			fmt.Fprintln(stderr, "wrasse sandbox: warning:", note)
		}
		for _, note := range moveSequencers(watch.NoSequencer) {
			fmt.Fprintln(stderr, "wrasse sandbox: warning:", note)
		}
	}
	waitForExit(n, watchEvery, check)
	check()
	for _, note := range DisarmNewRepos(watch) {
		fmt.Fprintln(stderr, "wrasse sandbox: warning:", note)
	}
	return 0
}

// waitForExit returns once process pid, this process's parent, has ended,
// calling check every interval until then.
func waitForExit(pid int, every time.Duration, check func()) {
	fd, err := unix.PidfdOpen(pid, 0)
	if err == nil {
		defer func() { _ = unix.Close(fd) }()
		// Opened after the parent ended, the descriptor could name a
		// process that took its number: the parent is still ours only
		// if this process was not handed to another.
		if unix.Getppid() != pid {
			return
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		for {
			switch n, err := unix.Poll(fds, int(every.Milliseconds())); {
			case errors.Is(err, unix.EINTR):
			case err == nil && n == 0:
				check()
			default:
				return
			}
		}
	}
	// Before Linux 5.3 (no pidfd): this process is handed to another
	// parent when its own ends.
	for last := time.Now(); unix.Getppid() == pid; {
		time.Sleep(100 * time.Millisecond)
		if time.Since(last) >= every {
			check()
			last = time.Now()
		}
	}
}

// moveSequencers moves away a sequencer folder that appeared in each of
// dirs, git folders where a single cherry-pick or revert stopped with
// none (stoppedSinglePick): the command made it, and the person's
// --continue would take its todo and options (a merge strategy run as a
// program) as the rest of the picks.
func moveSequencers(dirs []string) []string {
	var notes []string
	for _, d := range dirs {
		if _, err := os.Lstat(filepath.Join(d, "sequencer")); err != nil {
			continue
		}
		fd, err := openNoLinks(d)
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: %v; the sequencer folder the command made there was not moved: remove it before git cherry-pick --continue", d, err))
			continue
		}
		path := filepath.Join(d, "sequencer")
		if to, err := moveAside(fd, "sequencer"); err != nil {
			notes = append(notes, fmt.Sprintf("%s was made by the command for your stopped cherry-pick or revert and could not be moved away (%v): remove it before git cherry-pick --continue", path, err))
		} else {
			notes = append(notes, fmt.Sprintf("moved %s, which the command made for your stopped cherry-pick or revert (git --continue would take it as the rest of the picks, with their merge strategy), to %s", path, filepath.Join(d, to)))
		}
		_ = unix.Close(fd)
	}
	return notes
}
