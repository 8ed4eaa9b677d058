package mcp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/plugins/mcp/mcptest"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// A server starts only with the files the person approved: a script
// rewritten after the approval (even to the same size, its modification
// time set back) is refused at the next start, with why and what to do,
// until the person enables it again; then it starts.
func TestServerStartsOnlyWithApprovedFiles(t *testing.T) {
	exe, err := mcptest.ServerExecutable(t)
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	script := filepath.Join(base, "granted", "server.sh")
	if err := os.MkdirAll(filepath.Dir(script), 0o755); err != nil {
		t.Fatal(err)
	}
	v1 := "exec \"$1\" " + a3HostileArg + " # v1\n"
	if err := os.WriteFile(script, []byte(v1), 0o644); err != nil {
		t.Fatal(err)
	}
	skill := fmt.Sprintf("---\nname: tracker\ndescription: Issues.\nmcp:\n  command: /bin/sh\n  args: [%s, %s]\n---\n", script, exe)
	s := newA3ServerAt(t, base, map[string]string{"tracker": skill}, Options{})
	if err := s.reg.Start(context.Background(), "tracker"); err != nil {
		t.Fatalf("the approved server: %v", err)
	}
	fi, err := os.Stat(script)
	if err != nil {
		t.Fatal(err)
	}
	// Same size, same modification time: only the content (and the change
	// time no process can set back) tells.
	v2 := strings.Replace(v1, "# v1", "# v2", 1)
	if err := os.WriteFile(script, []byte(v2), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(script, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	s.reg.ReloadRuntimes() // the running server stops; the next use starts it again
	err = s.reg.Start(context.Background(), "tracker")
	if !errors.Is(err, ErrNotApproved) || !strings.Contains(err.Error(), script) || !strings.Contains(err.Error(), "enabling it again") {
		t.Fatalf("start after the script changed: %v; want ErrNotApproved naming %s and what to do", err, script)
	}
	if st, _ := s.reg.RuntimeStatus("tracker"); st.Crashes != 0 {
		t.Errorf("a refused start counted as a crash: %+v", st)
	}
	// A Test of the approved server holds to the approval too.
	c, err := s.reg.Get("tracker")
	if err != nil {
		t.Fatal(err)
	}
	loader := s.reg.Loader(cerebellum.KindMCP).(*Loader)
	if _, err := loader.Probe(context.Background(), cerebellum.LoadRequest{Capability: c, Workspace: s.ws}); !errors.Is(err, ErrNotApproved) {
		t.Errorf("Probe after the script changed: %v; want ErrNotApproved", err)
	}
	if err := manage.New(s.reg, manage.Options{}).EnableShown("tracker", nil, c.ApprovalKey()); err != nil {
		t.Fatal(err)
	}
	if err := s.reg.Start(context.Background(), "tracker"); err != nil {
		t.Errorf("start once approved again: %v", err)
	}
}

// An approval stored before the files were part of it (the block's
// LaunchKey alone) starts nothing until the person approves again.
func TestServerApprovedBeforeFilesWereChecked(t *testing.T) {
	s := newA3Server(t, map[string]string{"hostile": a3Skill(t, "hostile", "")}, Options{})
	c, err := s.reg.Get("hostile")
	if err != nil {
		t.Fatal(err)
	}
	st, err := manage.New(s.reg, manage.Options{}).State("hostile")
	if err != nil {
		t.Fatal(err)
	}
	st.Launch = cerebellum.LaunchKey(c.Manifest.MCP)
	if err := manage.New(s.reg, manage.Options{}).SetState("hostile", st); err != nil {
		t.Fatal(err)
	}
	if c, _ := s.reg.Get("hostile"); c.State != cerebellum.StateOK {
		t.Fatalf("state %s (%s); the block is the approved one", c.State, c.Unapproved)
	}
	err = s.reg.Start(context.Background(), "hostile")
	if !errors.Is(err, ErrNotApproved) || !strings.Contains(err.Error(), "approved before Wrasse checked") {
		t.Errorf("start: %v; want ErrNotApproved saying it was approved before files were checked", err)
	}
}

// fileSums reads a file again only when its identity changed, and never
// remembers a file changed just before it was read (a write in the same
// clock tick would keep its identity).
func TestFileSumsRemember(t *testing.T) {
	p := filepath.Join(t.TempDir(), "prog")
	write := func(data string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("one")
	var f fileSums
	if _, err := f.sum(p); err != nil {
		t.Fatal(err)
	}
	if _, hit := f.m[p]; hit {
		t.Fatal("a file changed just now was remembered")
	}
	f.now = func() time.Time { return time.Now().Add(time.Hour) } // the file has settled
	a, err := f.sum(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, hit := f.m[p]; !hit {
		t.Fatal("a settled file was not remembered")
	}
	// A remembered sum with the file's identity is what is returned: put a
	// marker in its place to see it is not read again.
	f.m[p] = fileSum{id: f.m[p].id, sum: "remembered"}
	if b, _ := f.sum(p); b != "remembered" {
		t.Errorf("unchanged file read again: %q", b)
	}
	// Rewritten to the same size with its times set back: its change
	// time is later than the one remembered (at least racyWindow later,
	// whatever the clock's tick).
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	f.now = nil
	f.m[p] = fileSum{id: fileID{dev: f.m[p].id.dev, ino: f.m[p].id.ino, size: f.m[p].id.size, mtime: f.m[p].id.mtime,
		ctime: f.m[p].id.ctime - int64(racyWindow)}, sum: "remembered"} // as if hashed racyWindow ago
	write("two")
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if c, _ := f.sum(p); c == "remembered" || c == a {
		t.Errorf("a rewritten file kept its sum: %q", c)
	}
}
