package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// Dotfile managers (and people by hand) keep git's settings in a
// repository of dotfiles that ~/.gitconfig includes by path rather than
// links to: `[include] path = ~/dotfiles/gitconfig`. The home folder rule
// makes ~/.gitconfig read-only and follows the links inside the dot
// entries, but not what a settings file includes: with the home folder
// granted, ~/dotfiles is an ordinary folder, writable. A command adds
// core.fsmonitor there, and the person's next git status in any
// repository runs it unconfined. Also for a core.hooksPath the person's
// ~/.gitconfig points into such a folder.
func TestHomeGitSettingsIncludedStayThePersons(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	for _, tc := range []struct{ name, gitconfig, line string }{
		{"include.path", "[include]\n\tpath = ~/dotfiles/gitconfig\n",
			"printf '[core]\\n\\tfsmonitor = touch PWNED; false\\n' >> dotfiles/gitconfig"},
		{"core.hooksPath", "[core]\n\thooksPath = ~/dotfiles/hooks\n",
			"printf '#!/bin/sh\\ntouch PWNED\\n' > dotfiles/hooks/post-commit && chmod +x dotfiles/hooks/post-commit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home, _ := credentialHome(t)
			f := newFixture(t)
			pwned := filepath.Join(f.outside, "pwned")
			if err := os.MkdirAll(filepath.Join(home, "dotfiles", "hooks"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(home, "dotfiles", "gitconfig"), []byte("[user]\n\tname = p\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(tc.gitconfig), 0o644); err != nil {
				t.Fatal(err)
			}
			p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{home}, Protected: f.protected(), Home: home, Temp: f.temp})
			line := strings.ReplaceAll(tc.line, "PWNED", pwned)
			out, ok := runIn(t, p, home, line, nil)
			if strings.Contains(out, "no mount namespace") {
				t.Fatalf("the sandbox ran without its mount namespace: %s", out)
			}
			// The person, outside any sandbox, in a repository of theirs.
			repo := t.TempDir()
			git(t, repo, "init", "-q")
			if err := os.WriteFile(filepath.Join(repo, "a"), []byte("a\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			git(t, repo, "add", "a")
			git(t, repo, "status", "--short")
			git(t, repo, "commit", "-qm", "first")
			if _, err := os.Stat(pwned); err == nil {
				t.Errorf("`%s` (succeeded=%v) changed what ~/.gitconfig (%q) names in the granted home folder, and the person's own git ran it unconfined", line, ok, tc.gitconfig)
			}
		})
	}
}
