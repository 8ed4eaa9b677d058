//go:build linux

package sandbox_test

// Found by the a31 attack round on the a30 fixes, and fixed: gitCanOpen
// measures the value cleaned, no longer than git ever shortens it.
//
// Attack (a31, gitCanOpen drops a core.hooksPath git can use; low: the
// value must be in the person's own settings): gitCanOpen assumes git
// hands the kernel a core.hooksPath as it is or longer, but git's
// strbuf_git_path ends in cleanup_path, which strips a leading "./" and
// every slash after it: a hooksPath of "./" + 4,400 slashes + ".githooks"
// (4,411 bytes, over the 4,352 bound) runs .githooks/pre-commit, relative
// to the work tree (git 2.39 checked). The plan drops the value, so the
// hooks folder is not made read-only, and a command writes a pre-commit
// there that the person's next commit runs unconfined.
//
// Should: a value is dropped only when git cannot shorten it: measure it
// after git's own rewriting (a leading "./" and the slashes after it, ~
// expansion), or clean a relative value before the length check.
// Did: the command wrote .githooks/pre-commit and the person's commit ran it.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestA31DotSlashesHooksPathDropped(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	if err := os.MkdirAll(filepath.Join(repo, ".githooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "config", "core.hooksPath", "./"+strings.Repeat("/", 4400)+".githooks")
	marker, _ := plantScript(t, f)
	p := f.commandPolicy()
	plant := "printf '#!/bin/sh\\ntouch " + marker + "\\n' > .githooks/pre-commit && chmod +x .githooks/pre-commit && echo wrote"
	out, ok := runIn(t, p, repo, plant, nil)
	person := gitOK(repo, "commit", "-q", "--allow-empty", "-m", "x")
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the person's core.hooksPath of ./ and 4,400 slashes (git strips them) was dropped by gitCanOpen; the command wrote .githooks/pre-commit (succeeded=%v: %.200s) and the person's commit ran it (%.100s)", ok, out, person)
	}
}
