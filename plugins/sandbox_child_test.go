package plugins

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// probeSkill declares files and exec (not network): a hostile plugin that
// ignores env.Resolve and calls the os package directly, so only the
// kernel stands between it and the disk.
const probeSkill = `---
name: probe
description: Probes what its process may touch.
permissions: [files, exec]
tools:
  - name: probe
    description: Try one operation.
    parameters:
      type: object
      properties:
        op: {type: string}
        path: {type: string}
      required: [op, path]
---
`

const probeSource = `package probe

import (
	"context"
	"os"
	"os/exec"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("probe", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		path := req.String("path", "")
		var err error
		switch req.String("op", "") {
		case "read":
			_, err = os.ReadFile(path)
		case "write":
			err = os.WriteFile(path, []byte("x"), 0o644)
		case "connect":
			err = exec.CommandContext(ctx, "bash", "-c", "exec 3<>/dev/tcp/"+path).Run()
		}
		if err != nil {
			return sdk.Text("denied: " + err.Error()), nil
		}
		return sdk.Text("ok"), nil
	})
	return p, nil
}
`

// A real plugin process, granted files for one folder: the kernel refuses
// what the grant does not cover, however the plugin asks.
func TestChildSandbox(t *testing.T) {
	if abi := sandbox.ABI(); abi < 4 {
		t.Fatalf("Landlock ABI %d: plugin processes must be sandboxed (needs Linux 6.7+ with Landlock enabled)", abi)
	}
	base := t.TempDir()
	ws, granted, outside := filepath.Join(base, "ws"), filepath.Join(base, "granted"), filepath.Join(base, "outside")
	for _, d := range []string{ws, granted, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(ws, "wrasse.db"), []byte("SECRET"), 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()

	log := &recorder{}
	h := childTestHost(log, childArg)
	h.opts.Roots = func(string, []string) []string { return []string{granted} }
	c := inline(t, probeSkill, map[string]string{"probe.go": probeSource})
	rt, err := h.Load(t.Context(), cerebellum.LoadRequest{Capability: c, Workspace: ws, Granted: []string{"files", "exec"}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	tests := []struct {
		name, op, path string
		ok             bool
	}{
		{"read /etc/passwd", "read", "/etc/passwd", false},
		{"read the workspace database", "read", filepath.Join(ws, "wrasse.db"), false},
		{"write outside the granted folder", "write", filepath.Join(outside, "x"), false},
		{"write inside the granted folder", "write", filepath.Join(granted, "x"), true},
		{"read back inside the granted folder", "read", filepath.Join(granted, "x"), true},
		{"TCP connect without network", "connect", strings.Replace(ln.Addr().String(), ":", "/", 1), false},
	}
	for _, tt := range tests {
		args, _ := json.Marshal(map[string]string{"op": tt.op, "path": tt.path})
		res, err := rt.Call(t.Context(), "probe", args)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := res.Content == "ok"; got != tt.ok {
			t.Errorf("%s: %q, want ok=%v", tt.name, res.Content, tt.ok)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "x")); err == nil {
		t.Error("the plugin wrote outside its folder")
	}
}
