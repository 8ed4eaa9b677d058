package sandbox_test

// Attack (a26, item 1): readRepoMemory reads at most 1 MiB of the memory
// file (maxMemorySize), but rememberRepos writes up to 4,096 paths of any
// length, sorted. A command makes 820 tiny repositories (a .git file
// each) in its grant, five folders deep with 255-character names, in a
// folder sorting before the person's app: 820 paths of about 1,350 bytes,
// 1.1 MiB. The next launcher finds them and remembers them beside app,
// sorted, app last. Every launcher after it reads the first MiB of the
// memory only, so app is no longer remembered (and no longer written back:
// it is dropped for good unless a walk finds it). A command fills the
// grant with 40,001 files (the attack the memory is there for:
// TestMountNamespaceWalkRunOutByCommand): the next command's walk stops
// before app, the memory does not hold it, and that command writes
// core.fsmonitor into app/.git/config.
//
// Should: a repository the person had before stays remembered and
// protected, however long the names of the command's own repositories.
// Does: the last command writes app/.git/config, and the person's git
// status runs the planted core.fsmonitor unconfined.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestA26RepoMemoryBloatedPastItsReadLimit(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "first")
	marker, script := plantScript(t, f)
	p := f.commandPolicy()
	mem := f.protected().RepoMemory
	// Command 0: its walk finds app, remembered.
	if out, ok := runIn(t, p, f.granted, "true", nil); !ok {
		t.Fatalf("the first command failed: %s", out)
	}
	// Command 1: 820 repositories with long names, sorting before app.
	decoys := `awk 'BEGIN { n = ""; for (i = 0; i < 250; i++) n = n "x";
		d = "0" n "/1" n "/2" n "/3" n;
		for (i = 0; i < 820; i++) printf "%s/%05d%s\n", d, i, n }' | xargs mkdir -p &&
		for d in 0*/1*/2*/3*/*; do : > "$d/.git"; done && echo made`
	out, ok := runIn(t, p, f.granted, decoys, nil)
	if !ok || !strings.Contains(out, "made") {
		t.Fatalf("the decoys were not made: %.300s", out)
	}
	// Command 2: its launcher remembers them beside app.
	if out, ok := runIn(t, p, f.granted, "true", nil); !ok {
		t.Fatalf("the second command failed: %.300s", out)
	}
	if b, err := os.ReadFile(mem); err != nil || len(b) > 4<<20 || !strings.HasPrefix(string(b), repo+"\n") {
		t.Errorf("the memory passed the 4 MiB its reader takes or does not hold app first (%v): %d bytes, app first: %v", err, len(b), strings.HasPrefix(string(b), repo+"\n"))
	}
	// Command 3: the flood (its own launcher walked before it).
	flood := `awk 'BEGIN { for (i = 0; i < 40001; i++) { g = "f" i; printf "" > g; close(g) } }' && echo flooded`
	if out, ok := runIn(t, p, f.granted, flood, nil); !ok || !strings.Contains(out, "flooded") {
		t.Fatalf("the flood failed: %.300s", out)
	}
	// Command 4: core.fsmonitor in app.
	line := "R=" + repo + " S=" + script +
		`; printf '[core]\n\tfsmonitor = %s\n' "$S" >> "$R/.git/config" && echo wrote`
	out, ok = runIn(t, p, f.granted, line, nil)
	person := gitOK(repo, "status")
	if _, err := os.Stat(marker); err == nil {
		b, _ := os.ReadFile(mem)
		t.Errorf("with the memory grown past the 1 MiB its reader takes (%d bytes now, holds app: %v), a command (succeeded=%v: %.300s) wrote app/.git/config past a walk it made run out; the person's git status ran its core.fsmonitor unconfined (%.100s)",
			len(b), strings.Contains(string(b), repo+"\n"), ok, out, person)
	}
}
