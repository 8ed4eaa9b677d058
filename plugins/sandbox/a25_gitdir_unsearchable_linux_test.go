package sandbox_test

// Attack (a25, item 2): the plan resolves each git path with
// filepath.EvalSymlinks and skips any it cannot resolve (add: "err !=
// nil → return"), and the launcher runs before Landlock but without any
// capability that passes file permissions for the person's files. A
// command takes search permission away from its repository's pinned .git
// (`chmod 600 .git`: chmod is outside Landlock, and the filter refuses
// only set-ID bits and write for group or others). The next command's
// plan can no longer resolve .git/config, .git/hooks or anything in .git
// (EACCES), so it mounts none of them read-only, silently; that command
// gives search permission back (`chmod 755 .git`) and writes
// core.fsmonitor into .git/config.
//
// Should: a git folder whose files the launcher cannot look into is
// made searchable again (as moveAside gives write back), or the
// command does not run; .git/config stays read-only to the command.
// Does: the second command writes .git/config and the person's git
// status runs the planted core.fsmonitor unconfined.
//
// Run as root, the launcher keeps every capability in its namespace
// (CAP_DAC_OVERRIDE among them) and sees into the folder; a person is not
// root, and their launcher holds CAP_SYS_ADMIN and CAP_SETPCAP only. So
// as root the test runs itself again as nobody (setpriv).

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox/sandboxtest"
)

func TestA25UnsearchableGitDirSkipsItsMounts(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	if os.Getuid() == 0 {
		sandboxtest.RunAsNobody(t, t.Name())
		return
	}
	f := newFixture(t)
	repo := filepath.Join(f.granted, "app")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "init", "-q")
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "first")
	marker, script := plantScript(t, f)
	p := f.commandPolicy()
	out, ok := runIn(t, p, repo, "chmod 600 .git && echo closed", nil)
	if !ok || !strings.Contains(out, "closed") {
		t.Fatalf("chmod of .git failed: %s", out)
	}
	line := "export HOME=" + f.temp + " S=" + script + `; chmod 755 .git && printf '[core]\n\tfsmonitor = %s\n' "$S" >> .git/config && echo wrote`
	out, ok = runIn(t, p, repo, line, nil)
	_ = os.Chmod(filepath.Join(repo, ".git"), 0o755)
	person := gitOK(repo, "status")
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("after a command took search permission from .git, the next command (succeeded=%v: %.300s) wrote .git/config and the person's git status ran its core.fsmonitor unconfined (%.80s)", ok, out, person)
	}
}
