package sandbox_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// A grant is usually a projects folder (~/code) holding repositories
// (~/code/app/.git) the command is not started in. Their settings and
// hooks are code the person's own git runs there later, unconfined, so
// they are protected as the one the command runs in: found by a bounded
// walk beneath each writable grant. Each case plants core.fsmonitor or a
// hook from the grant's root, then the person's git runs in the
// repository.
func TestMountNamespaceProtectsRepositoriesBeneathGrant(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	for _, tc := range []struct {
		name string
		// repo is the repository's folder inside the grant.
		repo string
		// line runs in the grant's root, with $R the repository and $S
		// the planted script.
		line string
		then []string
	}{
		{name: "core.fsmonitor of a repository in the grant", repo: "app",
			line: `git -C "$R" config core.fsmonitor "$S"`, then: []string{"status"}},
		{name: "a hook of a repository in the grant", repo: "app",
			line: `cp "$S" "$R/.git/hooks/post-commit"`, then: []string{"commit", "-q", "--allow-empty", "-m", "person"}},
		{name: "core.fsmonitor of a repository four folders down", repo: "work/client/2026/site",
			line: `printf '[core]\n\tfsmonitor = %s\n' "$S" >> "$R/.git/config"`, then: []string{"status"}},
		{name: "a repository's .git renamed, a copy with core.fsmonitor in its place", repo: "app",
			line: `mv "$R/.git" "$R/.git-old" && cp -a "$R/.git-old" "$R/.git" && git -C "$R" config core.fsmonitor "$S"`, then: []string{"status"}},
		{name: "the repository's folder renamed, a repository of the command's in its place", repo: "work/client/2026/site",
			line: `mv "$R" "$R-old" && mkdir "$R" && cp -a "$R-old/.git" "$R/.git" && git -C "$R" config core.fsmonitor "$S"`, then: []string{"status"}},
		{name: "a commondir made in the repository's git folder", repo: "app",
			line: `mkdir -p ev/objects ev/refs && printf '[core]\n\trepositoryformatversion = 0\n\tfsmonitor = %s\n' "$S" > ev/config && echo "$PWD/ev" > "$R/.git/commondir"`,
			then: []string{"status"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			repo := newRepo(t, filepath.Join(f.granted, tc.repo))
			git(t, repo, "commit", "-q", "--allow-empty", "-m", "first")
			marker := filepath.Join(f.outside, "ran-unconfined")
			// In the grant, where the command can read it to copy.
			script := filepath.Join(f.granted, "planted.sh")
			if err := os.WriteFile(script, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			p := f.commandPolicy()
			line := "export HOME=" + f.temp + " R=" + repo + " S=" + script + "; " + tc.line
			out, ok := runIn(t, p, f.granted, line, nil)
			if strings.Contains(out, "no mount namespace") {
				t.Fatalf("the sandbox ran without its mount namespace: %s", out)
			}
			person := gitOK(repo, tc.then...)
			if _, err := os.Stat(marker); err == nil {
				t.Errorf("the sandboxed `%s` (succeeded=%v: %s) made the person's `git %s` in %s run its program unconfined (%s)",
					tc.line, ok, out, strings.Join(tc.then, " "), tc.repo, person)
			}
		})
	}
}

// git keeps working in a repository beneath the grant that the command
// does not start in: add, commit, status and log, as a build script or
// `git -C` would run them.
func TestMountNamespaceKeepsGitWorkBeneathGrant(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	newRepo(t, filepath.Join(f.granted, "projects", "app"))
	p := f.commandPolicy()
	line := "export HOME=" + f.temp + "; cd projects/app && echo a > a && git add a && " +
		"git -c user.name=c -c user.email=c@x commit -qm sandboxed && git status --short && git log --oneline | wc -l"
	out, ok := runIn(t, p, f.granted, line, nil)
	if !ok || !strings.HasSuffix(strings.TrimSpace(out), "1") {
		t.Fatalf("git in a repository beneath the grant failed: %s", out)
	}
}

// A commondir left in a main git folder before the command starts (by an
// earlier command's process still running, or planted before this
// version) is moved away by the launcher before anything runs, and the
// command's output says so; a worktree's own commondir stays.
func TestMountNamespaceMovesPlantedCommondirAtStart(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := newRepo(t, filepath.Join(f.granted, "repo"))
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "first")
	git(t, repo, "worktree", "add", "-q", filepath.Join(f.granted, "wt"))
	planted := filepath.Join(repo, ".git", "commondir")
	if err := os.WriteFile(planted, []byte(f.outside+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := f.commandPolicy()
	out, ok := runIn(t, p, f.outside, "test ! -e "+planted+" && echo gone", nil)
	if !ok || !strings.Contains(out, "gone") {
		t.Errorf("the planted commondir was there when the command ran: %s", out)
	}
	if !strings.Contains(out, planted) {
		t.Errorf("the command's output does not say the commondir was moved: %s", out)
	}
	if _, err := os.Stat(planted + sandbox.MovedSuffix); err != nil {
		t.Errorf("the planted commondir was not kept aside for the person to look at: %v", err)
	}
	if _, err := os.Stat(filepath.Join(repo, ".git", "worktrees", "wt", "commondir")); err != nil {
		t.Errorf("the worktree's own commondir is gone: %v", err)
	}
	if out := gitOK(filepath.Join(f.granted, "wt"), "status", "--short"); strings.Contains(out, "fatal") {
		t.Errorf("git in the worktree fails: %s", out)
	}
}

// Where extensions.worktreeConfig is set, git reads .git/config.worktree
// too: one that does not exist yet is made empty, so that it is mounted
// read-only like the one that does.
func TestMountNamespaceKeepsConfigWorktreeMadeLater(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := newRepo(t, filepath.Join(f.granted, "repo"))
	git(t, repo, "config", "extensions.worktreeConfig", "true")
	marker := filepath.Join(f.outside, "ran-unconfined")
	script := filepath.Join(f.outside, "planted.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := f.commandPolicy()
	for _, line := range []string{
		fmt.Sprintf(`printf '[core]\n\tfsmonitor = %s\n' > .git/config.worktree`, script),
		`git config --worktree core.fsmonitor ` + script,
	} {
		out, _ := runIn(t, p, repo, "export HOME="+f.temp+"; "+line, nil)
		person := gitOK(repo, "status")
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("the sandboxed `%s` (%s) made the person's git status run its program unconfined (%s)", line, out, person)
		}
	}
}

// projectsTree makes a grant as a projects folder is: 50 repositories in
// five groups, each with 400 files in 8 folders (node_modules in every
// tenth), 20,000 files in all.
func projectsTree(b *testing.B) (string, int) {
	root := b.TempDir()
	files := 0
	for r := range 50 {
		repo := filepath.Join(root, fmt.Sprintf("group%d", r%5), fmt.Sprintf("repo%d", r))
		if err := exec.Command("git", "init", "-q", repo).Run(); err != nil {
			b.Skip("no git")
		}
		for d := range 8 {
			dir := filepath.Join(repo, "src", fmt.Sprintf("pkg%d", d))
			if r%10 == 0 {
				dir = filepath.Join(repo, "node_modules", fmt.Sprintf("dep%d", d))
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
			for i := range 50 {
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.go", i)), nil, 0o644); err != nil {
					b.Fatal(err)
				}
				files++
			}
		}
	}
	return root, files
}

// What finding and planning the protection of the repositories beneath a
// grant costs a command's start (projectsTree): the launcher's plan
// alone, no command run.
func BenchmarkGitPlanBeneathGrant(b *testing.B) {
	root, files := projectsTree(b)
	p := sandbox.Policy{ReadWrite: []string{root}}
	for b.Loop() {
		if n := sandbox.GitPlanSize(p, root); n < 50*4 {
			b.Fatalf("plan has %d mounts for 50 repositories", n)
		}
	}
	b.ReportMetric(float64(files), "files")
}

// A command started in a grant of 50 repositories (projectsTree), with
// its mount namespace (the walk, some 500 mounts, the watcher) and
// without: what the protection costs each command.
func BenchmarkCommandGrantWithRepositories(b *testing.B) {
	root, _ := projectsTree(b)
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	for _, off := range []bool{false, true} {
		b.Run(map[bool]string{false: "namespace", true: "none"}[off], func(b *testing.B) {
			for b.Loop() {
				p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{root}, Temp: b.TempDir()})
				p.NoMountNS = off
				cmd := exec.Command("/bin/true")
				cmd.Dir = root
				if err := sandbox.Command(cmd, []string{exe}, p); err != nil {
					b.Fatal(err)
				}
				cmd.Env = append(os.Environ(), launcherEnv+"=1")
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v: %s", err, out)
				}
			}
		})
	}
}

// A commondir the command makes in a main git folder is moved away by the
// launcher's watcher once the command ends, before the caller sees the
// end of its output, and the output says so.
func TestMountNamespaceMovesCommondirMadeByCommand(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := newRepo(t, filepath.Join(f.granted, "repo"))
	made := filepath.Join(repo, ".git", "commondir")
	p := f.commandPolicy()
	out, ok := runIn(t, p, repo, "echo "+f.outside+" > .git/commondir && echo made", nil)
	if !ok || !strings.Contains(out, "made") {
		t.Fatalf("the command could not run: %s", out)
	}
	if _, err := os.Lstat(made); err == nil {
		t.Errorf("the commondir the command made is still there: %s", out)
	}
	if _, err := os.Stat(made + sandbox.MovedSuffix); err != nil {
		t.Errorf("the commondir was not kept aside: %v", err)
	}
	if !strings.Contains(out, "moved "+made) {
		t.Errorf("the command's output does not say the commondir was moved: %s", out)
	}
}

// A command that keeps running (an MCP server) does not keep a commondir
// it made until it ends: the watcher looks while it runs. The command
// waits until the file is gone (a minute at most, far above the
// watcher's interval), so the test ends as soon as the watcher moved it.
func TestMountNamespaceMovesCommondirWhileCommandRuns(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := newRepo(t, filepath.Join(f.granted, "repo"))
	p := f.commandPolicy()
	out, ok := runIn(t, p, repo, "echo "+f.outside+" > .git/commondir; i=0; while [ -e .git/commondir ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; [ ! -e .git/commondir ] && echo gone-while-running", nil)
	if !ok || !strings.Contains(out, "gone-while-running") {
		t.Errorf("the command did not see its commondir moved while it ran: %s", out)
	}
}
