package sandbox_test

// Attack (a26, item 1): the repository memory (one file for the whole
// workspace, shared by every command, whatever its grants) keeps at most
// 4,096 repositories, and rememberRepos fills it with what this walk found
// FIRST and only then with the remembered ones, cutting at 4,096. A
// command granted some other folder (a scratch folder, an MCP server's
// data folder) makes 4,100 tiny repositories there (a folder holding a
// .git file each); the next launcher with that grant finds them and
// rewrites the memory with them alone: the person's ~/code/app, which an
// earlier command's walk had found, is dropped. A command in ~/code had
// filled ~/code with 40,001 files before (the attack the memory is there
// for: TestMountNamespaceWalkRunOutByCommand), and the next command in ~/code
// finds app neither by its walk nor in the memory: app's .git/config is
// writable, and the command plants core.fsmonitor there.
//
// Should: what the memory held (repositories the person had before) is
// not pushed out by what a command made since; the person's repository
// stays protected after the flood.
// Does: the last command writes app/.git/config, and the person's git
// status runs the planted core.fsmonitor unconfined.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

func TestA26RepoMemoryErasedByAnotherGrantsRepositories(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "first")
	scratch := filepath.Join(filepath.Dir(f.granted), "scratch")
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		t.Fatal(err)
	}
	marker, script := plantScript(t, f)
	pCode := f.commandPolicy()
	pScratch := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{scratch}, Protected: f.protected(), Temp: f.temp})
	// A command in the person's projects: its walk finds app, remembered.
	if out, ok := runIn(t, pCode, f.granted, "true", nil); !ok {
		t.Fatalf("the first command failed: %s", out)
	}
	mem := f.protected().RepoMemory
	if b, err := os.ReadFile(mem); err != nil || !strings.Contains(string(b), repo) {
		t.Fatalf("the memory does not hold app after a walk found it (%v): %.200s", err, b)
	}
	// A command in the projects fills them past the walk's 40,000 entries
	// (its own launcher walked before, and remembers app).
	flood := `awk 'BEGIN { for (i = 0; i < 40001; i++) { g = "f" i; printf "" > g; close(g) } }' && echo flooded`
	if out, ok := runIn(t, pCode, f.granted, flood, nil); !ok || !strings.Contains(out, "flooded") {
		t.Fatalf("the flood failed: %.300s", out)
	}
	// A command granted only the scratch folder: 4,100 tiny repositories.
	decoys := `awk 'BEGIN { for (i = 0; i < 4100; i++) print "d" i }' | xargs mkdir &&
		awk 'BEGIN { for (i = 0; i < 4100; i++) { g = "d" i "/.git"; print "x" > g; close(g) } }' && echo made`
	out, ok := runIn(t, pScratch, scratch, decoys, nil)
	if !ok || !strings.Contains(out, "made") {
		t.Fatalf("the decoys were not made: %.300s", out)
	}
	// The next command there: its launcher rewrites the memory.
	if out, ok := runIn(t, pScratch, scratch, "true", nil); !ok {
		t.Fatalf("the command in scratch failed: %.300s", out)
	}
	// The next one plants core.fsmonitor in app.
	line := "R=" + repo + " S=" + script +
		`; printf '[core]\n\tfsmonitor = %s\n' "$S" >> "$R/.git/config" && echo wrote`
	out, ok = runIn(t, pCode, f.granted, line, nil)
	person := gitOK(repo, "status")
	if _, err := os.Stat(marker); err == nil {
		b, _ := os.ReadFile(mem)
		t.Errorf("after a command granted another folder made 4,100 repositories there, the memory (%d bytes, holds app: %v) lost app, and a command in the projects (succeeded=%v: %.400s) wrote app/.git/config past a walk it made run out; the person's git status ran its core.fsmonitor unconfined (%.100s)",
			len(b), strings.Contains(string(b), repo+"\n"), ok, out, person)
	}
}
