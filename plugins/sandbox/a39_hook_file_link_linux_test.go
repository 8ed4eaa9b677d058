//go:build linux

package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// a39: a hook kept in a tracked folder and linked in one file at a time
// (`ln -s ../../tools/hooks/pre-commit .git/hooks/pre-commit`, what many
// projects' setup scripts do, pre-commit's and husky's before
// core.hooksPath). The namespace makes .git/hooks read-only and follows a
// .git/hooks that is itself a link (a26), not a link inside it: the
// hook's own file, in the work tree, is the command's to rewrite, and the
// person's next `git commit` runs it unconfined.
func TestA39HookFileLinkedIntoWorkTree(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	hook := filepath.Join(repo, "tools", "hooks", "pre-commit")
	if err := os.MkdirAll(filepath.Dir(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hook, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../tools/hooks/pre-commit", filepath.Join(repo, ".git", "hooks", "pre-commit")); err != nil {
		t.Fatal(err)
	}
	pwned := filepath.Join(f.outside, "pwned")
	line := "printf '#!/bin/sh\\ntouch " + pwned + "\\n' > tools/hooks/pre-commit"
	out, ok := runIn(t, f.commandPolicy(), repo, line, nil)
	if strings.Contains(out, "no mount namespace") {
		t.Fatalf("the sandbox ran without its mount namespace: %s", out)
	}
	if err := os.WriteFile(filepath.Join(repo, "f"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", "f")
	git(t, repo, "commit", "-qm", "a") // the person, unconfined
	if _, err := os.Stat(pwned); err == nil {
		t.Errorf("`%s` (succeeded=%v, output %q) rewrote the file .git/hooks/pre-commit links to, and the person's git commit ran it unconfined (it made %s outside every grant)", line, ok, out, pwned)
	}
}

// a39: the same for a program a repository's read-only settings name by
// a path into its work tree: `git config filter.strip.clean
// ./tools/strip.sh` (nbstripout's and many projects' setup), a textconv,
// a merge driver, a relative core.fsmonitor or core.editor. .git/config
// stays as the person wrote it; the script it runs is a tracked file the
// command rewrites, and the person's `git add` runs it unconfined.
func TestA39SettingsNameWorkTreeScript(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	for name, content := range map[string]string{"tools/strip.sh": "#!/bin/sh\ncat\n", ".gitattributes": "*.ipynb filter=strip\n"} {
		p := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	git(t, repo, "config", "filter.strip.clean", "./tools/strip.sh")
	pwned := filepath.Join(f.outside, "pwned")
	line := "printf '#!/bin/sh\\ntouch " + pwned + "\\ncat\\n' > tools/strip.sh"
	out, ok := runIn(t, f.commandPolicy(), repo, line, nil)
	if strings.Contains(out, "no mount namespace") {
		t.Fatalf("the sandbox ran without its mount namespace: %s", out)
	}
	if err := os.WriteFile(filepath.Join(repo, "n.ipynb"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", "n.ipynb") // the person, unconfined
	if _, err := os.Stat(pwned); err == nil {
		t.Errorf("`%s` (succeeded=%v, output %q) rewrote the script the repository's filter.strip.clean names, and the person's git add ran it unconfined (it made %s outside every grant)", line, ok, out, pwned)
	}
}

// What program settings name is read-only only where it is a file: an
// alias that changes into a work-tree folder (`!cd sub/dir && make`)
// leaves that folder the command's, and a script a filter names is
// read-only while the rest of its folder is not.
func TestSettingProgramsKeepFoldersWritable(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	for _, d := range []string{"sub/dir", "tools"} {
		if err := os.MkdirAll(filepath.Join(repo, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(repo, "tools", "strip.sh"), []byte("#!/bin/sh\ncat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "config", "alias.b", "!cd sub/dir && make")
	git(t, repo, "config", "filter.strip.clean", "./tools/strip.sh")
	out, ok := runIn(t, f.commandPolicy(), repo, "echo x > sub/dir/new && echo y > tools/other && echo wrote", nil)
	if !ok || !strings.Contains(out, "wrote") {
		t.Errorf("a command could not write in a folder an alias names or beside a filter's script: %s", out)
	}
	out, ok = runIn(t, f.commandPolicy(), repo, "echo z >> tools/strip.sh && echo wrote", nil)
	if ok && strings.Contains(out, "wrote") {
		t.Errorf("a command appended to the script filter.strip.clean names: %s", out)
	}
}
