//go:build attack && linux

package sandbox_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// a43: where the start's walk of a grant was cut short (more than
// 40,000 entries: a home folder, a folder of data), madeSince takes a
// repository the end's walk finds as the command's only where its .git
// was born since the start, "which no command can set". Renaming keeps
// a folder's birth time: the command moves an old folder of the
// person's (app/src, put back from a copy) to app/sub2/.git and runs
// git init there. The end's walk reaches app/sub2 (app comes before the
// person's data folder), its .git looks older than the command, and it
// is left as it is: the person's `git status` in app/sub2 runs the
// command's core.fsmonitor unconfined.
func TestA43CutGrantOldFolderRenamedToDotGit(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	app := appWithSrc(t, f)
	marker, script := plantScript(t, f)
	// The person's data: more entries than the walk reads.
	data := filepath.Join(f.granted, "data")
	if err := os.MkdirAll(data, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 40010; i++ {
		if err := os.WriteFile(filepath.Join(data, fmt.Sprintf("r%d.csv", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(300 * time.Millisecond)
	out := a40Run(t, f, `cd app && cp -a src src.copy && mkdir sub2 && mv src sub2/.git && mv src.copy src && cd sub2 && `+a40g+` init -q && `+
		a40g+` config core.fsmonitor `+script+` && `+a40g+` -c core.fsmonitor=false rev-parse --git-dir`)
	if !strings.Contains(out, "40") {
		t.Logf("the output does not say the walk stopped: %s", out)
	}
	got := gitOK(filepath.Join(app, "sub2"), "status")
	if a40Ran(marker) {
		t.Errorf("app/sub2, a repository the command made in a grant whose walk was cut short, has for .git an old folder of the person's, renamed: it was not disarmed, and the person's git status there ran the command's core.fsmonitor unconfined: command: %s\nperson's git: %s", out, got)
	}
}
