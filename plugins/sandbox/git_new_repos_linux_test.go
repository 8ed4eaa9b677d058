package sandbox_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// What a command leaves in a repository it made, once it ends: settings
// and hooks that the person's git would run are moved aside, a clone's
// plain settings and git's sample hooks stay, and a repository that was
// there at the start is not touched.
func TestNewRepositoriesDisarmedWhenTheCommandEnds(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	g := "git -c user.name=c -c user.email=c@x -c init.defaultBranch=main"
	for _, c := range []struct {
		name string
		line string // run in the grant, HOME set
		// moved are the names in the git folder (relative to the grant)
		// that must be moved aside; kept those that must stay.
		moved, kept []string
		note        string
	}{{
		name:  "a clone's settings and sample hooks stay",
		line:  g + " init -q src && " + g + " -C src commit -q --allow-empty -m x && " + g + " clone -q src copy",
		kept:  []string{"copy/.git/config", "copy/.git/hooks/pre-commit.sample"},
		moved: nil,
	}, {
		name:  "a hook in a repository the command made",
		line:  g + " init -q app && printf '#!/bin/sh\\n' > app/.git/hooks/pre-commit && chmod +x app/.git/hooks/pre-commit",
		moved: []string{"app/.git/hooks"},
		kept:  []string{"app/.git/config"},
		note:  "pre-commit",
	}, {
		name:  "core.hooksPath and an include",
		line:  g + " init -q app && " + g + " -C app config core.hooksPath ../h && " + g + " -C app config include.path ../x.cfg",
		moved: []string{"app/.git/config"},
		note:  "core.hookspath",
	}, {
		name:  "a bare repository's hook",
		line:  g + " init -q --bare m.git && printf '#!/bin/sh\\n' > m.git/hooks/post-receive && chmod +x m.git/hooks/post-receive",
		moved: []string{"m.git/hooks"},
		note:  "post-receive",
	}, {
		name:  "a filter in a repository deep below the grant",
		line:  "mkdir -p a/b && " + g + " init -q a/b/c && " + g + " -C a/b/c config filter.x.clean 'sh run.sh'",
		moved: []string{"a/b/c/.git/config"},
		note:  "filter.x.clean",
	}, {
		name:  "the grant itself made a repository",
		line:  g + " init -q . && " + g + " config core.pager 'sh p.sh'",
		moved: []string{".git/config"},
		note:  "core.pager",
	}} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			out, ok := runIn(t, f.commandPolicy(), f.granted, "export HOME="+f.temp+"; "+c.line+" && echo made", nil)
			if !ok || !strings.Contains(out, "made") {
				t.Fatalf("the command failed: %s", out)
			}
			for _, m := range c.moved {
				if _, err := os.Stat(filepath.Join(f.granted, m+".moved-by-wrasse")); err != nil {
					t.Errorf("%s was not moved aside (%v): %s", m, err, out)
				}
			}
			for _, k := range c.kept {
				if _, err := os.Stat(filepath.Join(f.granted, k)); err != nil {
					t.Errorf("%s is gone (%v): %s", k, err, out)
				}
			}
			if c.note != "" && !strings.Contains(out, c.note) {
				t.Errorf("the output does not name %q: %s", c.note, out)
			}
			if len(c.moved) == 0 && strings.Contains(out, "moved") {
				t.Errorf("something was moved: %s", out)
			}
		})
	}
}

// A repository there at the start keeps what it holds: its settings are
// read-only to the command anyway, and a hook the person set is theirs.
func TestRepositoryThereAtStartNotDisarmed(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	hook := filepath.Join(repo, ".git", "hooks", "pre-commit")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "config", "core.pager", "less -R")
	out, ok := runIn(t, f.commandPolicy(), f.granted, "echo x > app/f && echo done", nil)
	if !ok || strings.Contains(out, "moved") {
		t.Errorf("the command failed or moved something: %s", out)
	}
	if _, err := os.Stat(hook); err != nil {
		t.Errorf("the person's hook is gone: %v", err)
	}
}

// A repository of the person's that the start's walk did not reach (a
// command filled the grant past the walk's bound) and the end's walk
// does (the command removed what it made) is no command's: its git
// folder was made before the command started, and nothing in it moves.
func TestRepositoryBeyondTheStartWalkNotDisarmed(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := newRepo(t, filepath.Join(f.granted, "zz", "app"))
	hook := filepath.Join(repo, ".git", "hooks", "pre-commit")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	fill := filepath.Join(f.granted, "fill")
	if err := os.Mkdir(fill, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 40001 {
		if err := os.WriteFile(filepath.Join(fill, "f"+strconv.Itoa(i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, ok := runIn(t, f.commandPolicy(), f.granted, "rm -rf fill && echo removed", nil)
	if !ok || !strings.Contains(out, "removed") {
		t.Fatalf("the command failed: %s", out)
	}
	if !strings.Contains(out, "stopped after") {
		t.Fatalf("the start's walk was not cut short, so this tests nothing: %s", out)
	}
	if _, err := os.Stat(hook); err != nil || strings.Contains(out, "the command made") {
		t.Errorf("the person's repository beyond the start's walk was disarmed (%v): %s", err, out)
	}
}

// A repository a command makes with a linked worktree (git worktree
// add) keeps the worktree working: its commondir names the repository's
// own git folder and stays.
func TestNewRepositoryKeepsItsWorktree(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	g := "git -c user.name=c -c user.email=c@x -c init.defaultBranch=main"
	out, ok := runIn(t, f.commandPolicy(), f.granted, "export HOME="+f.temp+"; "+g+" init -q app && "+g+" -C app commit -q --allow-empty -m x && "+g+" -C app worktree add -q ../wt && echo made", nil)
	if !ok || !strings.Contains(out, "made") {
		t.Fatalf("the command failed: %s", out)
	}
	if strings.Contains(out, "commondir") {
		t.Errorf("the new repository's worktree's commondir was moved: %s", out)
	}
	if st := gitOK(filepath.Join(f.granted, "wt"), "status", "--short", "--branch"); !strings.Contains(st, "## wt") {
		t.Errorf("git status in the worktree: %q", st)
	}
}
