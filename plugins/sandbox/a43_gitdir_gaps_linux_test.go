//go:build linux

package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// a43common is a command line that makes .x/common, a bare repository
// in the grant whose settings make the person's `git log` run script
// (log.showSignature with the command's gpg.program, for a commit with
// a gpgsig header: no work tree, tty or pager needed).
func a43common(script string) string {
	g := "G=$PWD/.x/common; "
	return g + `mkdir -p .x && ` + a40g + ` init -q --bare $G && ` + a40g + ` -C $G config log.showSignature true && ` + a40g + ` -C $G config gpg.program ` + script + ` && ` +
		signedCommitAtG
}

// a43: the grant itself made a git folder. The end's walk counts a
// folder holding HEAD and commondir as a git folder (walk.maybe) only
// below the grant (depth > 0), and the grant itself only by holdsRepo
// (.git, isBareRepo, gitFolderLeft), none of which a HEAD beside a
// commondir is. A grant that is no repository (a scratch folder, a
// folder of projects) gets HEAD and commondir -> .x/common; the
// person's `git log` in the grant, or in any folder of it that is no
// repository (docs/), takes the grant as a bare repository and reads
// .x/common/config, running the command's gpg.program unconfined.
func TestA43GrantItselfMadeGitFolder(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	if err := os.MkdirAll(filepath.Join(f.granted, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	marker, script := plantScript(t, f)
	out := a40Run(t, f, a43common(script)+` && echo 'ref: refs/heads/main' > HEAD && echo .x/common > commondir && `+a40g+` -c gpg.program=true rev-parse --git-dir`)
	if strings.Contains(out, "moved") {
		t.Logf("the watcher moved something: %s", out)
	}
	got := gitOK(filepath.Join(f.granted, "docs"), "log", "--oneline")
	if a40Ran(marker) {
		t.Errorf("the grant itself made a git folder (HEAD and commondir) was not disarmed: the person's git log in the grant's docs folder ran the command's gpg.program unconfined: command: %s\nperson's git: %s", out, got)
	}
}

// a43: gitEntriesBornSince takes a maybe-git folder as the command's
// only where one of HEAD, commondir, objects, refs, config was born
// since the start. A command can write into a file of the person's
// that is older (writing keeps the birth time) and rename it into place
// (renaming keeps it too): the HEAD and commondir in app/src are the
// person's old main.c and util.c, rewritten and renamed (copies put back
// under the old names). Nothing in app/src was born since, so nothing is
// disarmed, and the person's `git log` in app/src runs the command's
// gpg.program unconfined: TestA42CommondirOnlyGitFolderUnseen again.
func TestA43OldBornFilesRenamedIntoGitFolder(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	app := newRepo(t, filepath.Join(f.granted, "app"))
	if err := os.MkdirAll(filepath.Join(app, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"main.c", "util.c"} {
		if err := os.WriteFile(filepath.Join(app, "src", n), []byte("int x;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, app, "add", "-A")
	git(t, app, "commit", "-q", "-m", "setup")
	marker, script := plantScript(t, f)
	// The person's files are older than the command by more than the
	// check's slack.
	time.Sleep(300 * time.Millisecond)
	out := a40Run(t, f, a43common(script)+` && cd app/src && cp main.c m && cp util.c u && `+
		`echo 'ref: refs/heads/main' > main.c && mv main.c HEAD && echo ../../.x/common > util.c && mv util.c commondir && mv m main.c && mv u util.c && `+
		a40g+` -c gpg.program=true rev-parse --git-dir`)
	if strings.Contains(out, "moved") {
		t.Logf("the watcher moved something: %s", out)
	}
	got := gitOK(filepath.Join(app, "src"), "log", "--oneline")
	if a40Ran(marker) {
		t.Errorf("a git folder of HEAD and commondir in app/src, made of the person's old files rewritten and renamed, was not disarmed: the person's git log in app/src ran the command's gpg.program unconfined: command: %s\nperson's git: %s", out, got)
	}
}

// a43: the disarm itself makes git take another folder. inner/.git
// holds HEAD and commondir "..": gitSurelyTakes(inner/.git) says git
// takes it (a valid HEAD, objects and refs in the common folder inner),
// so gitDirCandidates names inner/.git alone, and inner, a bare
// repository itself (HEAD, objects, refs, config with core.bare = false,
// core.worktree = ., core.fsmonitor), is never looked at as a git
// folder. disarmGitFolder moves inner/.git/commondir aside: inner/.git
// is then no git folder (HEAD alone), and git takes inner itself, whose
// config was never looked at: the person's `git status` in inner runs
// the command's core.fsmonitor unconfined. (Before the move git read
// the same config as the common folder's.)
func TestA43CommondirMoveUncoversBareFolder(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	marker, script := plantScript(t, f)
	out := a40Run(t, f, `mkdir -p inner && cd inner && `+a40g+` init -q --bare . && `+a40g+` config core.bare false && `+a40g+` config core.worktree . && `+
		a40g+` config core.fsmonitor `+script+` && mkdir .git && echo 'ref: refs/heads/main' > .git/HEAD && echo .. > .git/commondir && `+
		a40g+` -c core.fsmonitor=false rev-parse --git-dir --show-toplevel`)
	if strings.Contains(out, "moved") {
		t.Logf("the watcher moved something: %s", out)
	}
	got := gitOK(filepath.Join(f.granted, "inner"), "status")
	if a40Ran(marker) {
		t.Errorf("inner/.git (HEAD, commondir ..) had its commondir moved, which left inner itself the git folder, with core.worktree and core.fsmonitor of the command's: the person's git status in inner ran it unconfined: command: %s\nperson's git: %s", out, got)
	}
}

// a43: headSurelyValid reads 256 bytes of a HEAD, git's validate_headref
// 255. "ref:", 247 spaces, "refs/heads/main" is valid to the first (it
// sees "refs/") and refused by git (it sees "refs" and stops). So
// gitSurelyTakes(inner/.git) says git takes inner/.git (with objects and
// refs folders) and gitDirCandidates names it alone; git refuses it and
// takes inner itself, a bare repository with core.worktree = . and
// core.fsmonitor in its config, which nothing looked at: the person's
// `git status` in inner runs the command's program unconfined.
func TestA43HeadPastGitsReadLimit(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	marker, script := plantScript(t, f)
	out := a40Run(t, f, `mkdir -p inner && cd inner && `+a40g+` init -q --bare . && `+a40g+` config core.bare false && `+a40g+` config core.worktree . && `+
		a40g+` config core.fsmonitor `+script+` && mkdir -p .git/objects .git/refs && { printf 'ref:'; printf '%247s' ''; printf 'refs/heads/main\n'; } > .git/HEAD && `+
		a40g+` -c core.fsmonitor=false rev-parse --git-dir --show-toplevel`)
	if strings.Contains(out, "moved") {
		t.Logf("the watcher moved something: %s", out)
	}
	got := gitOK(filepath.Join(f.granted, "inner"), "status")
	if a40Ran(marker) {
		t.Errorf("inner/.git's HEAD is valid to headSurelyValid and not to git, which took inner itself as the git folder, with core.worktree and core.fsmonitor of the command's: the person's git status in inner ran it unconfined: command: %s\nperson's git: %s", out, got)
	}
}

// a43: gitFileAt joins a relative .git file's path to its folder with
// filepath.Join, which takes "lnk/.." away as text; git resolves the
// path as the kernel does (is_git_directory on the path as written, then
// strbuf_realpath), a link before the "..". inner/.git holding "gitdir:
// lnk/../evil", with inner/lnk a link to .x/deep/d, names
// .x/deep/evil to git and inner/evil (which does not exist) to the
// check: nothing is disarmed, the git folder in the dot folder .x is not
// walked, and the person's `git status` in inner runs the command's
// core.fsmonitor unconfined.
func TestA43GitFileDotDotAfterLink(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	marker, script := plantScript(t, f)
	out := a40Run(t, f, `mkdir -p .x/deep/d inner && `+a40g+` init -q --bare .x/deep/evil && `+a40g+` -C .x/deep/evil config core.bare false && `+
		a40g+` -C .x/deep/evil config core.fsmonitor `+script+` && ln -s ../.x/deep/d inner/lnk && echo 'gitdir: lnk/../evil' > inner/.git && cd inner && `+
		a40g+` rev-parse --git-dir`)
	if strings.Contains(out, "moved") {
		t.Logf("the watcher moved something: %s", out)
	}
	got := gitOK(filepath.Join(f.granted, "inner"), "status")
	if a40Ran(marker) {
		t.Errorf("inner/.git names lnk/../evil, which git resolves through the link to .x/deep/evil and the check as inner/evil: the command's core.fsmonitor there ran in the person's git status in inner, unconfined: command: %s\nperson's git: %s", out, got)
	}
}

// a43: a linked worktree's git folder keeps its commondir where it names
// the folder two above it (ownWorktreeCommondir: MAIN/worktrees/NAME, as
// git worktree add writes it), and git reads the settings of that
// common folder. disarmGitFolder(MAIN/worktrees/NAME) looks at NAME's
// own config, config.worktree and hooks, keeps the commondir, and never
// looks at MAIN. inner/.git naming .x/main/worktrees/wt, with .x/main a
// git folder of the command's in a dot folder (not walked) whose config
// holds core.fsmonitor: nothing is moved, and the person's `git status`
// in inner runs it unconfined.
func TestA43WorktreeCommonFolderNotDisarmed(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	marker, script := plantScript(t, f)
	out := a40Run(t, f, `mkdir -p .x inner && `+a40g+` init -q --bare .x/main && `+a40g+` -C .x/main config core.bare false && `+a40g+` -C .x/main config core.fsmonitor `+script+` && `+
		`mkdir -p .x/main/worktrees/wt && echo 'ref: refs/heads/main' > .x/main/worktrees/wt/HEAD && echo ../.. > .x/main/worktrees/wt/commondir && `+
		`echo "$PWD/inner/.git" > .x/main/worktrees/wt/gitdir && echo "gitdir: $PWD/.x/main/worktrees/wt" > inner/.git && cd inner && `+a40g+` -c core.fsmonitor=false rev-parse --git-dir --git-common-dir`)
	if strings.Contains(out, "moved") {
		t.Logf("the watcher moved something: %s", out)
	}
	got := gitOK(filepath.Join(f.granted, "inner"), "status")
	if a40Ran(marker) {
		t.Errorf("inner/.git names .x/main/worktrees/wt, whose commondir (../..) was kept as a worktree's own, and the common folder .x/main, which holds the command's core.fsmonitor, was never looked at: the person's git status in inner ran it unconfined: command: %s\nperson's git: %s", out, got)
	}
}

// a43: a .git file naming a path through /proc/self/cwd names a
// different folder to each process that reads it: to the person's git,
// the folder the person runs it in; to the end's check (EvalSymlinks in
// the watcher), the watcher's own working folder. inner/.git holding
// "gitdir: /proc/self/cwd/.x/evil" is inner/.x/evil to git run in inner
// (a git folder of the command's in a dot folder, not walked) and
// something else, which does not exist, to the check: nothing is
// disarmed, and the person's `git status` in inner runs the command's
// core.fsmonitor unconfined.
func TestA43GitFileThroughProcSelfCwd(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	marker, script := plantScript(t, f)
	out := a40Run(t, f, `mkdir -p inner && cd inner && `+a40g+` init -q --bare .x/evil && `+a40g+` -C .x/evil config core.bare false && `+
		a40g+` -C .x/evil config core.fsmonitor `+script+` && echo 'gitdir: /proc/self/cwd/.x/evil' > .git && `+a40g+` -c core.fsmonitor=false rev-parse --git-dir`)
	if strings.Contains(out, "moved") {
		t.Logf("the watcher moved something: %s", out)
	}
	got := gitOK(filepath.Join(f.granted, "inner"), "status")
	if a40Ran(marker) {
		t.Errorf("inner/.git names /proc/self/cwd/.x/evil, inner/.x/evil to the person's git in inner and another folder to the check: the command's core.fsmonitor ran in the person's git status, unconfined: command: %s\nperson's git: %s", out, got)
	}
}
