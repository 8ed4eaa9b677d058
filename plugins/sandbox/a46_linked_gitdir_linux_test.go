//go:build attack && linux

package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// a46: the end's walk (repoWalk.walk) opens the folders beneath a grant
// with O_NOFOLLOW and goes only into real folders, so a link to a folder
// is never looked into, and a git folder it leads to is no maybe unless
// the walk reaches it by its own path. A command makes a git folder
// (HEAD, objects, refs; core.worktree naming the person's project,
// core.fsmonitor its program) in a dot folder of the grant, which the
// walk skips, and a link to it inside the person's repository
// (app/notes). The person changes into app/notes and runs git status:
// git finds the folder it is in by getcwd (the link resolved: .x/evil)
// and takes it as a git folder (implicit bare discovery, safe.bareRepository
// unset), reads its config, and runs the command's core.fsmonitor
// unconfined. Neither the link nor the folder it leads to is at a depth
// or name the documented limits speak of: app/notes is one level inside
// a repository the person works in.
func TestA46LinkedGitFolderInPersonsRepo(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	app := newRepo(t, filepath.Join(f.granted, "app"))
	marker, script := plantScript(t, f)
	out := a40Run(t, f, `E=$PWD/.x/evil; mkdir -p .x && `+a40g+` init -q --bare $E && `+
		a40g+` --git-dir=$E config core.bare false && `+a40g+` --git-dir=$E config core.worktree $PWD/app && `+
		a40g+` --git-dir=$E config core.fsmonitor `+script+` && ln -s ../.x/evil app/notes && cd app/notes && `+a40g+` -c core.fsmonitor=false rev-parse --git-dir`)
	if strings.Contains(out, "moved") {
		t.Logf("the watcher moved something: %s", out)
	}
	if a40Ran(marker) {
		t.Fatalf("the script ran before the person's git: %s", out)
	}
	got := gitOK(filepath.Join(app, "notes"), "status")
	if a40Ran(marker) {
		t.Errorf("a git folder the command made in a dot folder of the grant, reached through a link it made inside the person's repository (app/notes), kept its core.fsmonitor: the end's walk does not follow links; the person's git status in app/notes ran it unconfined: command: %s\nperson's git: %s", out, got)
	}
}

// a46: the same through the commands' own cache home
// (~/.local/state/wrasse/cmd-cache), which every command writes, which
// stays from one command to the next, and which no walk enters
// (commandCacheHome): a .git link into it is followed and disarmed (the
// cache home is among the watch list's grants), but a git folder there
// reached by a plain link from the person's project (app/notes) is no
// repository and no maybe to any walk. The person's git status in
// app/notes takes the cache's folder as its git folder (getcwd gives the
// link resolved) and runs the command's core.fsmonitor unconfined.
func TestA46LinkIntoCommandCacheGitFolder(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	home := homeWith(t, map[string]string{"Documents/notes.txt": "mine\n"})
	cache := sandbox.CommandCache(home)
	if err := os.MkdirAll(cache, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	f := newFixture(t)
	app := newRepo(t, filepath.Join(f.granted, "app"))
	marker, script := plantScript(t, f)
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Home: home, Temp: f.temp})
	line := `E=` + cache + `/evil; ` + a40g + ` init -q --bare $E && ` + a40g + ` --git-dir=$E config core.bare false && ` +
		a40g + ` --git-dir=$E config core.worktree $PWD/app && ` + a40g + ` --git-dir=$E config core.fsmonitor ` + script + ` && ln -s $E app/notes && ` +
		`cd app/notes && ` + a40g + ` -c core.fsmonitor=false rev-parse --git-dir && echo A46-DONE`
	out, ok := runIn(t, p, f.granted, line, nil)
	if !ok || !strings.Contains(out, "A46-DONE") || strings.Contains(out, "no mount namespace") {
		t.Fatalf("the command failed: %s", out)
	}
	if a40Ran(marker) {
		t.Fatalf("the script ran before the person's git: %s", out)
	}
	got := gitOK(filepath.Join(app, "notes"), "status")
	if a40Ran(marker) {
		t.Errorf("a git folder the command made in the commands' own cache home, reached through a link it made inside the person's repository (app/notes), kept its core.fsmonitor: no walk enters the cache home or follows the link; the person's git status in app/notes ran it unconfined: command: %s\nperson's git: %s", out, got)
	}
}
