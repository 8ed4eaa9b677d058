package sandbox_test

// Attack (a26, item 4; a denial of service, and a pause the command
// controls): the launcher reads, before Landlock, every file a planned
// repository's settings include (readGitSettings → readBounded, a plain
// open and read). A command makes a repository x in its grant whose
// .git/config includes ../inc, and makes inc a FIFO (mkfifo). Every later
// command in that grant starts a launcher that blocks in open(2) on the
// FIFO until something opens it for writing: the command's program never
// runs (a shell tool call, an MCP server that never comes up), with the
// launcher parked outside Landlock holding its capabilities, and a process
// the command left behind decides when (and whether) it goes on, with the
// file system as that process has made it meanwhile.
//
// Should: the launcher reads only regular files (O_NONBLOCK, or an fstat
// before the read) and the next command starts.
// Does: the next command's launcher hangs (the test gives it 10 seconds,
// then opens the FIFO for writing to let it go).

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestA26FifoIncludeHangsTheLauncher(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	p := f.commandPolicy()
	prep := `mkdir -p x/.git && echo 'ref: refs/heads/main' > x/.git/HEAD && mkfifo x/inc &&
		printf '[include]\n\tpath = ../inc\n' > x/.git/config && echo made`
	if out, ok := runIn(t, p, f.granted, prep, nil); !ok || !strings.Contains(out, "made") {
		t.Fatalf("the preparation failed: %.300s", out)
	}
	l := startLaunch(t, p, f.granted)
	if err, ended := l.wait(10 * time.Second); ended {
		if !strings.Contains(l.output(), "started") {
			t.Errorf("the command did not run (%v): %.300s", err, l.output())
		}
	} else {
		t.Errorf("the next command's launcher still hangs after 10 seconds on the FIFO a command's repository includes (output so far: %q)", l.output())
		// Let it go: a writer opens the FIFO, as a leftover process would.
		if w, err := os.OpenFile(filepath.Join(f.granted, "x", "inc"), os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		if _, ended := l.wait(10 * time.Second); !ended {
			l.kill()
		}
	}
}
