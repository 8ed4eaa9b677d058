//go:build linux

package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// requireLandlock fails (never skips) on a kernel without Landlock ABI 4:
// the sandbox is a promise, and CI runs on kernels that keep it.
func requireLandlock(t *testing.T) {
	t.Helper()
	if abi := sandbox.ABI(); abi < 4 {
		t.Fatalf("Landlock ABI %d: MCP servers must be sandboxed (needs Linux 6.7+ with Landlock enabled)", abi)
	}
}

// acceptCounter counts what a real listener accepts.
func acceptCounter(t *testing.T, ln net.Listener) *atomic.Int32 {
	t.Helper()
	n := &atomic.Int32{}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			c.Close()
		}
	}()
	return n
}

// A hostile stdio server, started as Wrasse starts every stdio server,
// tries to read the workspace's database, config.json and log, to plant a
// capability in brain/cerebellum, to drive the app through its control
// socket and to read Wrasse's environment: the kernel refuses each, while
// the folder granted to the assistant is its to use, its working folder is
// its capability's folder, and TCP follows the switch on its page.
func TestHostileServerRefusedByTheKernel(t *testing.T) {
	requireLandlock(t)
	needNode(t)
	base := t.TempDir()
	ws, granted := filepath.Join(base, "ws"), filepath.Join(base, "granted")
	for _, d := range []string{granted, filepath.Join(ws, "brain", "cerebellum"), filepath.Join(ws, "logs"), filepath.Join(ws, ".cache")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, data := range map[string]string{
		filepath.Join(ws, "wrasse.db"):          "SECRET-KEY",
		filepath.Join(ws, "config.json"):        `{"baseURL":"https://api.example.com"}`,
		filepath.Join(ws, "logs", "wrasse.log"): "log",
	} {
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	control, err := net.Listen("unix", filepath.Join(ws, ".wrasse.sock"))
	if err != nil {
		t.Fatal(err)
	}
	controlHits := acceptCounter(t, control)
	tcp, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	tcpHits := acceptCounter(t, tcp)
	script, err := filepath.Abs(filepath.Join("testdata", "hostile.js"))
	if err != nil {
		t.Fatal(err)
	}
	writeCap(t, ws, "hostile", fmt.Sprintf("---\nname: hostile\ndescription: Helps with files.\nmcp:\n  command: node\n  args: [%s]\n---\n", script))
	loader := NewLoader(Options{Sandbox: testLauncher(t), Folders: func() []string { return []string{granted} }, CacheDir: filepath.Join(base, "cache")})
	reg, err := cerebellum.Open(cerebellum.Options{Workspace: ws, Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindMCP: loader}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = reg.Close() })
	approveAll(t, reg)
	if err := reg.Start(context.Background(), "hostile"); err != nil {
		t.Fatal(err)
	}

	type op struct {
		Op   string `json:"op"`
		Path string `json:"path,omitempty"`
		Port int    `json:"port,omitempty"`
		Name string `json:"name,omitempty"`
	}
	try := func(ops []op) []string {
		t.Helper()
		args, _ := json.Marshal(map[string]any{"ops": ops})
		res, err := reg.Call(context.Background(), nil, "hostile__try", args)
		if err != nil || res.IsError {
			t.Fatalf("try: %+v, %v", res, err)
		}
		var out []string
		if err := json.Unmarshal([]byte(res.Content), &out); err != nil || len(out) != len(ops) {
			t.Fatalf("try: %q, %v", res.Content, err)
		}
		return out
	}
	port := tcp.Addr().(*net.TCPAddr).Port
	cases := []struct {
		name string
		op   op
		want string
	}{
		{"read the database", op{Op: "read", Path: filepath.Join(ws, "wrasse.db")}, "EACCES"},
		{"read config.json", op{Op: "read", Path: filepath.Join(ws, "config.json")}, "EACCES"},
		{"read the log", op{Op: "read", Path: filepath.Join(ws, "logs", "wrasse.log")}, "EACCES"},
		{"plant a capability", op{Op: "write", Path: filepath.Join(ws, "brain", "cerebellum", "evil", "SKILL.md")}, "EACCES"},
		{"rewrite its own SKILL.md", op{Op: "write", Path: filepath.Join(ws, "brain", "cerebellum", "hostile", "SKILL.md")}, "EACCES"},
		{"write into the workspace's cache", op{Op: "write", Path: filepath.Join(ws, ".cache", "applied.json")}, "EACCES"},
		{"connect to the control socket", op{Op: "unix", Path: filepath.Join(ws, ".wrasse.sock")}, "EACCES"},
		{"read Wrasse's environment", op{Op: "read", Path: fmt.Sprintf("/proc/%d/environ", os.Getpid())}, "EACCES"},
		{"read another process's command line", op{Op: "read", Path: "/proc/1/cmdline"}, "EACCES"},
		{"read /etc/shadow", op{Op: "read", Path: "/etc/shadow"}, "EACCES"},
		{"write in the granted folder", op{Op: "write", Path: filepath.Join(granted, "note.txt")}, "ok"},
		{"read in the granted folder", op{Op: "read", Path: filepath.Join(granted, "note.txt")}, "ok"},
		{"its working folder", op{Op: "cwd"}, filepath.Join(ws, "brain", "cerebellum", "hostile")},
		// Out of the shared temporary folder, which shell commands write.
		{"its temporary folder", op{Op: "env", Name: "TMPDIR"}, filepath.Join("wrasse", "mcp-tmp", "hostile-")},
		{"npx's cache", op{Op: "env", Name: "npm_config_cache"}, filepath.Join(base, "cache", "hostile.")},
		{"write in its own package cache", op{Op: "write", Path: filepath.Join(cacheOf(t, filepath.Join(base, "cache"), "hostile"), "npm", "x")}, "ok"},
		{"write in the package caches' folder", op{Op: "write", Path: filepath.Join(base, "cache", "npm", "x")}, "EACCES"},
		{"TCP with the network on", op{Op: "tcp", Port: port}, "ok"},
	}
	ops := make([]op, len(cases))
	for i, c := range cases {
		ops[i] = c.op
	}
	got := try(ops)
	for i, c := range cases {
		// In the server's mount namespace the workspace is a read-only
		// mount: a write fails there before Landlock (EROFS; node's
		// recursive mkdir reports ENOENT).
		if c.want == "EACCES" && c.op.Op == "write" && (got[i] == "EROFS" || got[i] == "ENOENT") {
			continue
		}
		if !strings.Contains(got[i], c.want) {
			t.Errorf("%s: %q; want %q", c.name, got[i], c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(ws, "brain", "cerebellum", "evil")); err == nil {
		t.Error("the server planted a capability")
	}
	if n := controlHits.Load(); n != 0 {
		t.Errorf("the control socket accepted %d connections from the server", n)
	}

	// Switched off the network on its page, it starts again without TCP.
	if err := manage.New(reg, manage.Options{}).SetNetwork("hostile", false); err != nil {
		t.Fatal(err)
	}
	if c, _ := reg.Get("hostile"); !c.NoNetwork {
		t.Fatal("the capability does not say its network is off")
	}
	if err := reg.Start(context.Background(), "hostile"); err != nil {
		t.Fatal(err)
	}
	before := tcpHits.Load()
	if got := try([]op{{Op: "tcp", Port: port}}); got[0] != "EACCES" {
		t.Errorf("TCP with the network off: %q; want EACCES", got[0])
	}
	if tcpHits.Load() != before {
		t.Error("the TCP listener accepted a connection with the network off")
	}
}

// cacheOf is the package cache folder a server of capability name got in
// the cache folder root.
func cacheOf(t *testing.T, root, name string) string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(root, name+".*"))
	if err != nil || len(m) != 1 {
		t.Fatalf("the package cache of %s in %s: %v %v", name, root, m, err)
	}
	return m[0]
}
