//go:build linux

package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins/mcp/mcptest"
)

// npmServers installs the published servers once (mcptest.Servers) and
// returns the folder holding node_modules.
func npmServers(t *testing.T) string { return mcptest.Servers(t) }

// serverPath is the entry point of an installed server.
func serverPath(dir, pkg string) string { return mcptest.ServerPath(dir, pkg) }

// liveServer returns the runtime of name the loader is running.
func liveServer(t *testing.T, l *Loader, name string) *server {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	for s := range l.servers {
		if s.cfg.name == name {
			return s
		}
	}
	t.Fatalf("no runtime of %s", name)
	return nil
}

func (s *server) pid() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn == nil {
		return 0
	}
	return s.conn.pid
}

func TestNPMServers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts node servers")
	}
	dir := npmServers(t)
	ws := t.TempDir()
	files := t.TempDir()
	writeCap(t, ws, "everything", "---\nname: everything\ndescription: The MCP reference server's test tools.\nmcp:\n  command: node\n  args: ["+serverPath(dir, "server-everything")+"]\n---\n")
	writeCap(t, ws, "files", "---\nname: files\ndescription: Read and write files in one folder.\nmcp:\n  command: node\n  args: ["+serverPath(dir, "server-filesystem")+", "+files+"]\n---\n")
	// Named no folder, server-filesystem works in the roots Wrasse gives it.
	writeCap(t, ws, "rooted", "---\nname: rooted\ndescription: Read and write files in the granted folders.\nmcp:\n  command: node\n  args: ["+serverPath(dir, "server-filesystem")+"]\n---\n")
	// Sandboxed as in the app: the folder it serves is the one granted to
	// the assistant (its MCP root), and the installed packages are read
	// from the npm cache folder.
	loader := NewLoader(Options{Sandbox: testLauncher(t), Folders: func() []string { return []string{files, dir} }, CacheDir: t.TempDir()})
	opts := cerebellum.Options{Workspace: ws, Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindMCP: loader}}
	withBuiltins(t, "tool-discovery")(&opts)
	reg, err := cerebellum.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	approveAll(t, reg)
	closed := false
	defer func() {
		if !closed {
			_ = reg.Close()
		}
	}()
	ctx := context.Background()

	// Connect and list.
	for _, n := range []string{"everything", "files"} {
		if err := reg.Start(ctx, n); err != nil {
			t.Fatalf("start %s: %v", n, err)
		}
	}
	snap := reg.Snapshot()
	for _, tool := range []string{"everything__echo", "everything__get-sum", "everything__get-structured-content", "files__read_text_file", "files__write_file"} {
		if _, _, ok := snap.Tool(tool); !ok {
			t.Errorf("tool %s not listed", tool)
		}
	}

	// tool_search finds their tools.
	for q, want := range map[string]string{"get-sum": "everything", "write_file": "files"} {
		res, err := reg.Search(nil, q, 5)
		if err != nil || len(res.Matches) == 0 || res.Matches[0].Capability.Name != want {
			t.Errorf("search %q = %+v, %v; want %s first", q, res.Matches, err, want)
		}
	}

	// Calls.
	for _, tc := range []struct {
		tool, args string
		isErr      bool
		contains   string
	}{
		{"everything__echo", `{"message":"hello wrasse"}`, false, "hello wrasse"},
		{"everything__get-sum", `{"a":2,"b":40}`, false, "42"},
		{"everything__get-structured-content", `{"location":"Chicago"}`, false, `"temperature"`},
		{"everything__get-sum", `{"a":"two","b":40}`, true, "invalid tool arguments"},
		{"files__write_file", `{"path":"` + filepath.Join(files, "note.txt") + `","content":"written by wrasse"}`, false, ""},
		{"files__read_text_file", `{"path":"` + filepath.Join(files, "note.txt") + `"}`, false, "written by wrasse"},
		{"files__read_text_file", `{"path":"/etc/passwd"}`, true, "MCP server files reported an error from read_text_file"},
	} {
		res, _ := reg.Call(ctx, nil, tc.tool, json.RawMessage(tc.args))
		if res.IsError != tc.isErr || !strings.Contains(res.Content, tc.contains) {
			t.Errorf("%s %s = %+v; want isError %v containing %q", tc.tool, tc.args, res, tc.isErr, tc.contains)
		}
	}
	// Its allowed folders: the one its command names, or else the roots
	// Wrasse gives it (the folders granted to the assistant).
	if err := reg.Start(ctx, "rooted"); err != nil {
		t.Fatalf("start rooted: %v", err)
	}
	// The server asks for the roots once it is initialised, on its own.
	waitFor(t, "rooted to learn its roots", func() bool {
		res, err := reg.Call(ctx, nil, "rooted__list_allowed_directories", json.RawMessage(`{}`))
		return err == nil && strings.Contains(res.Content, files)
	})
	for tool, want := range map[string][]string{"files__list_allowed_directories": {files}, "rooted__list_allowed_directories": {files, dir}} {
		res, err := reg.Call(ctx, nil, tool, json.RawMessage(`{}`))
		for _, w := range want {
			if err != nil || res.IsError || !strings.Contains(res.Content, w) {
				t.Errorf("%s = %+v, %v; want %s among them", tool, res, err, w)
			}
		}
		if tool == "files__list_allowed_directories" && strings.Contains(res.Content, dir) {
			t.Errorf("%s = %q: the roots took the place of the folder its command names", tool, res.Content)
		}
	}
	// The reference server's image tool: a PNG in Result.Images.
	if res, err := reg.Call(ctx, nil, "everything__get-tiny-image", json.RawMessage(`{}`)); err != nil || res.IsError ||
		len(res.Images) != 1 || res.Images[0].MIMEType != "image/png" || len(res.Images[0].Data) == 0 {
		t.Errorf("get-tiny-image = %+v, %v; want one PNG image", res, err)
	} else if _, err := png.Decode(bytes.NewReader(res.Images[0].Data)); err != nil {
		// Its iCCP chunk's checksum is wrong: CapResult drops that chunk.
		t.Errorf("get-tiny-image's PNG does not decode: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(files, "note.txt")); err != nil || string(b) != "written by wrasse" {
		t.Errorf("file written = %q, %v", b, err)
	}

	// The filesystem server's write tool asks; its read tool does not.
	if v := gate.Check(snap, "files__write_file", json.RawMessage(`{"path":"x","content":"y"}`)); v.Decision != gate.Confirm {
		t.Errorf("write_file: %s; want confirm", v.Decision)
	}
	if v := gate.Check(snap, "files__read_text_file", json.RawMessage(`{"path":"x"}`)); v.Decision != gate.Allow {
		t.Errorf("read_text_file: %s; want allow", v.Decision)
	}

	// A killed server recovers on the next call.
	s := liveServer(t, loader, "everything")
	pid := s.pid()
	signalGroup(pid, sigKill)
	waitFor(t, "the killed server to be noticed", func() bool { return s.Status().State == cerebellum.RuntimeCrashed })
	if res, err := reg.Call(ctx, nil, "everything__echo", json.RawMessage(`{"message":"again"}`)); err != nil || !strings.Contains(res.Content, "again") {
		t.Fatalf("call after kill = %+v, %v", res, err)
	}
	if s.pid() == pid {
		t.Error("the same process after a restart")
	}

	// No server process is left after shutdown.
	pids := []int{s.pid(), liveServer(t, loader, "files").pid()}
	if err := reg.Close(); err != nil {
		t.Fatal(err)
	}
	closed = true
	for _, p := range pids {
		if p <= 0 {
			t.Fatalf("no process group to check (pid %d)", p)
		}
		waitFor(t, "the server's process group to end", func() bool { return len(groupMembers(p)) == 0 })
	}
}

// TestNPMWrapperGroupEnds starts the server behind a shell wrapper that
// keeps running as its parent (as npx does) and checks the whole group
// ends with the runtime.
func TestNPMWrapperGroupEnds(t *testing.T) {
	if testing.Short() {
		t.Skip("starts node servers")
	}
	dir := npmServers(t)
	ws := t.TempDir()
	// sh stays the leader and node its child: closing only the leader
	// would orphan node.
	writeCap(t, ws, "wrapped", "---\nname: wrapped\ndescription: Wrapped server.\nmcp:\n  command: sh\n  args: [-c, 'node "+serverPath(dir, "server-everything")+"; exit 0']\n---\n")
	loader := NewLoader(Options{Terminate: 200 * time.Millisecond, Sandbox: testLauncher(t), Folders: func() []string { return []string{dir} }, CacheDir: t.TempDir()})
	reg, err := cerebellum.Open(cerebellum.Options{Workspace: ws, Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindMCP: loader}})
	if err != nil {
		t.Fatal(err)
	}
	approveAll(t, reg)
	if err := reg.Start(context.Background(), "wrapped"); err != nil {
		_ = reg.Close()
		t.Fatal(err)
	}
	pid := liveServer(t, loader, "wrapped").pid()
	if n := len(groupMembers(pid)); n < 2 {
		_ = reg.Close()
		t.Fatalf("the group has %d processes; want the wrapper and node", n)
	}
	if err := reg.Close(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the wrapper's whole process group to end", func() bool { return len(groupMembers(pid)) == 0 })
}
