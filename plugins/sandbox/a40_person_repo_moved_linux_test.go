//go:build attack && linux

package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// a40 (denial of service, low): the end's check takes any repository
// born after the command started for the command's. One the person makes
// while a command runs (a long build, a test run, an MCP server's
// lifetime) — a clone, then `npx husky` setting core.hooksPath — has its
// settings moved aside when the command ends: its remote and branches
// are gone from the person's git until they rename the file back.
func TestA40PersonsRepositoryMadeDuringCommandMovedAside(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	mine := filepath.Join(f.granted, "mine")
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(700 * time.Millisecond)
		if err := os.MkdirAll(mine, 0o755); err != nil {
			return
		}
		gitOK(mine, "init", "-q")
		gitOK(mine, "config", "core.hooksPath", ".husky")
	}()
	out := a40Run(t, f, "sleep 2")
	<-done
	if _, err := os.Stat(filepath.Join(mine, ".git", "config")); err != nil {
		t.Errorf("the settings of a repository the person made while a command ran were moved aside when it ended (%v): %s", err, out)
	}
}
