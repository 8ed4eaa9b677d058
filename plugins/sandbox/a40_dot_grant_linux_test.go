//go:build linux

package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// a40: reposBeneath walks no grant whose path holds a dot folder
// ("/."), meant for the commands' own cache home; but a person's project
// can lie in one (~/.config/nvim, ~/.dotfiles, ~/.local/src/app). The
// repositories beneath such a grant (a plugin cloned into it, a vendored
// repository) are not protected at the start, nor disarmed at the end.
func TestA40GrantInDotFolderNotWalked(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	grant := filepath.Join(f.granted, ".config", "nvim")
	lib := newRepo(t, filepath.Join(grant, "pack", "plugins", "start", "lib"))
	git(t, lib, "commit", "-q", "--allow-empty", "-m", "x")
	marker, script := plantScript(t, f)
	if err := os.Rename(script, filepath.Join(grant, "planted.sh")); err != nil {
		t.Fatal(err)
	}
	script = filepath.Join(grant, "planted.sh")
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{grant}, Protected: f.protected(), Temp: f.temp})
	out, _ := runIn(t, p, grant, "export HOME="+f.temp+"; git -C pack/plugins/start/lib config core.fsmonitor "+script, nil)
	gitOK(lib, "status")
	if a40Ran(marker) {
		t.Errorf("a command granted a folder inside a dot folder wrote the settings of a repository beneath it, which the person's git status ran: %s", out)
	}
}
