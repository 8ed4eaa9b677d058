package sandbox_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitOK runs git outside any sandbox, as the person's own git, and
// returns its output whether or not it succeeded: a person's `git status`
// that fails still ran whatever the repository's settings named.
func gitOK(dir string, args ...string) string {
	cmd := exec.Command("git", append([]string{"-c", "user.name=p", "-c", "user.email=p@x", "-c", "protocol.file.allow=always"}, args...)...)
	cmd.Dir = dir
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// The mount namespace keeps .git/config and .git/hooks of the command's
// repository read-only, but git finds settings and hooks elsewhere too: in
// the folder .git/commondir names (any git folder's, not only a
// worktree's), and in a submodule's own git folder, .git/modules/NAME.
// And the pinned .git stays where it is only as long as the folder that
// holds it does: a grant above the repository lets the command rename
// that folder and put a repository of its own in its place. Each case
// plants core.fsmonitor (a program the person's `git status` runs,
// unconfined) or a hook; then the person's git runs in the repository as
// they would, and must not run it.
func TestMountNamespaceGitSettingsElsewhere(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	for _, tc := range []struct {
		name string
		// in is the folder the command runs in, within the repository
		// ("" for the repository itself).
		in string
		// line runs in the repository, with $M the marker the planted
		// program would make and $S a script that makes it.
		line string
		// then is what the person runs in the repository afterwards.
		then []string
	}{
		{name: "core.fsmonitor in a folder .git/commondir names",
			line: `mkdir -p ../ev/objects ../ev/refs && printf '[core]\n\trepositoryformatversion = 0\n\tfsmonitor = %s\n' "$S" > ../ev/config && echo ../../ev > .git/commondir`,
			then: []string{"status"}},
		{name: "core.fsmonitor in a folder a submodule's .git/modules/NAME/commondir names",
			line: `mkdir -p ../ev/objects ../ev/refs && printf '[core]\n\trepositoryformatversion = 0\n\tfsmonitor = %s\n' "$S" > ../ev/config && echo "$PWD/../ev" > .git/modules/sub/commondir`,
			then: []string{"status"}},
		{name: "a worktree's commondir pointed at a folder of the command's",
			line: `mkdir -p ../ev/objects ../ev/refs && printf '[core]\n\trepositoryformatversion = 0\n\tfsmonitor = %s\n' "$S" > ../ev/config && echo "$PWD/../ev" > .git/worktrees/wt/commondir`,
			then: []string{"-C", "../wt", "status"}},
		{name: "core.fsmonitor in a submodule's .git/modules/NAME/config",
			line: `git -C sub config core.fsmonitor "$S"`,
			then: []string{"status"}},
		{name: "a hook in a submodule's .git/modules/NAME/hooks",
			line: `cp "$S" .git/modules/sub/hooks/post-commit`,
			then: []string{"-C", "sub", "commit", "-q", "--allow-empty", "-m", "person"}},
		{name: "the submodules' folder renamed, a copy with core.fsmonitor in its place",
			line: `mv .git/modules .git/modules-old && cp -a .git/modules-old .git/modules && git -C sub config core.fsmonitor "$S"`,
			then: []string{"status"}},
		{name: "a submodule's git folder renamed, a copy with core.fsmonitor in its place",
			line: `mv .git/modules/sub .git/modules/sub-old && cp -a .git/modules/sub-old .git/modules/sub && git -C sub config core.fsmonitor "$S"`,
			then: []string{"status"}},
		{name: "the repository's folder renamed, a repository of the command's in its place",
			line: `cd .. && mv repo repo-old && mkdir repo && cp -a repo-old/.git repo/.git && git -C repo config core.fsmonitor "$S"`,
			then: []string{"status"}},
		{name: "the superproject's core.fsmonitor from a command in its submodule", in: "sub",
			line: `git -C .. config core.fsmonitor "$S"`,
			then: []string{"status"}},
		{name: "the superproject's hook from a command in its submodule", in: "sub",
			line: `cp "$S" ../.git/hooks/post-commit`,
			then: []string{"commit", "-q", "--allow-empty", "-m", "person"}},
		{name: "the repository's core.fsmonitor from below a .git folder git does not take for one", in: "src",
			line: `printf '[core]\n\tfsmonitor = %s\n' "$S" >> ../.git/config`,
			then: []string{"status"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			repo := filepath.Join(f.granted, "repo")
			sub := filepath.Join(f.granted, "subsrc")
			for _, d := range []string{repo, sub} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
				git(t, d, "init", "-q")
				git(t, d, "commit", "-q", "--allow-empty", "-m", "first")
			}
			git(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "sub")
			git(t, repo, "commit", "-qm", "submodule")
			git(t, repo, "worktree", "add", "-q", filepath.Join(f.granted, "wt"))
			// An empty .git folder (an earlier command's) in a subfolder:
			// git looks past it, and so must the namespace.
			if err := os.MkdirAll(filepath.Join(repo, "src", ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			marker, script := plantScript(t, f)
			// The grant is the folder holding the repository, the
			// command runs in the repository: its .git is the one the
			// namespace protects.
			p := f.commandPolicy()
			line := "export HOME=" + f.temp + " M=" + marker + " S=" + script + "; " + tc.line
			out, ok := runIn(t, p, filepath.Join(repo, tc.in), line, nil)
			if strings.Contains(out, "no mount namespace") {
				t.Fatalf("the sandbox ran without its mount namespace: %s", out)
			}
			person := gitOK(repo, tc.then...)
			if _, planted := os.Stat(marker); planted == nil {
				t.Errorf("the sandboxed `%s` (succeeded=%v: %s) made the person's `git %s` run its program unconfined (%s)",
					tc.line, ok, out, strings.Join(tc.then, " "), person)
			}
		})
	}
}
