package mcp

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// A build-and-run runner is told to build into the server's own cache
// (the build folder of serverCache); a folder the block names, inside the
// project or outside it (a42: cargo runs what it finds built there,
// unhashed), is replaced when it comes from the block's env, and refuses
// the start when it is on the command line, where no variable beats it;
// other commands are left alone, and the cache is not even made for them.
func TestBuildOutsideTheApprovedProject(t *testing.T) {
	base := t.TempDir()
	srv := filepath.Join(base, "granted", "srv")
	capDir := filepath.Join(base, "ws", "brain", "cerebellum", "rusty")
	for _, d := range []string{filepath.Join(srv, "src"), capDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(srv, "Cargo.toml"), []byte("[package]\nname='srv'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	elsewhere := t.TempDir()
	cache := filepath.Join(base, "cache", "rusty.0123")
	l := NewLoader(Options{CacheDir: filepath.Join(base, "cache")})
	cases := []struct {
		name    string
		block   skillmd.MCPServer
		env     []string
		wantVar string // "" for no variable set
		want    string // its value
		wantErr error
	}{
		{name: "cargo run", block: skillmd.MCPServer{Command: "cargo", Args: []string{"run"}, Cwd: srv},
			wantVar: "CARGO_TARGET_DIR", want: filepath.Join(cache, buildDirName)},
		{name: "dotnet run", block: skillmd.MCPServer{Command: "dotnet", Args: []string{"run"}, Cwd: srv},
			wantVar: "ArtifactsPath", want: filepath.Join(cache, buildDirName)},
		{name: "env inside: replaced", block: skillmd.MCPServer{Command: "cargo", Args: []string{"run"}, Cwd: srv, Env: map[string]string{"CARGO_TARGET_DIR": "target"}},
			env: []string{"CARGO_TARGET_DIR=target"}, wantVar: "CARGO_TARGET_DIR", want: filepath.Join(cache, buildDirName)},
		{name: "env outside: replaced", block: skillmd.MCPServer{Command: "cargo", Args: []string{"run"}, Cwd: srv, Env: map[string]string{"CARGO_TARGET_DIR": elsewhere}},
			env: []string{"CARGO_TARGET_DIR=" + elsewhere}, wantVar: "CARGO_TARGET_DIR", want: filepath.Join(cache, buildDirName)},
		{name: "--target-dir inside: refused", block: skillmd.MCPServer{Command: "cargo", Args: []string{"run", "--target-dir", "target"}, Cwd: srv},
			wantErr: ErrBuildsInProject},
		{name: "--target-dir outside: refused", block: skillmd.MCPServer{Command: "cargo", Args: []string{"run", "--target-dir", elsewhere}, Cwd: srv},
			wantErr: ErrBuildsOutsideOwnCache},
		{name: "env wrapper's setting outside: refused", block: skillmd.MCPServer{Command: "env", Args: []string{"CARGO_TARGET_DIR=" + elsewhere, "cargo", "run"}, Cwd: srv},
			wantErr: ErrBuildsOutsideOwnCache},
		{name: "dotnet --artifacts-path outside: refused", block: skillmd.MCPServer{Command: "dotnet", Args: []string{"run", "--artifacts-path", elsewhere}, Cwd: srv},
			wantErr: ErrBuildsOutsideOwnCache},
		{name: "node", block: skillmd.MCPServer{Command: "node", Args: []string{"server.js"}, Cwd: srv}},
	}
	for _, c := range cases {
		cmd := exec.Command(c.block.Command)
		cmd.Env = append([]string{"PATH=/usr/bin"}, c.env...)
		asked := false
		cacheOf := func() (string, error) { asked = true; return cache, nil }
		err := l.buildOutside(config{name: "rusty", block: c.block, dir: capDir, cwd: srv}, cmd, cacheOf)
		if !errors.Is(err, c.wantErr) {
			t.Errorf("%s: %v, want %v", c.name, err, c.wantErr)
			continue
		}
		if err != nil && !strings.Contains(err.Error(), "remove that setting") {
			t.Errorf("%s: the refusal does not say what to change: %v", c.name, err)
		}
		for _, v := range []string{"CARGO_TARGET_DIR", "ArtifactsPath"} {
			want := ""
			if v == c.wantVar {
				want = c.want
			}
			if got := envValue(cmd.Env, v); got != want {
				t.Errorf("%s: %s=%q, want %q (env %q)", c.name, v, got, want, cmd.Env)
			}
		}
		if c.block.Command == "node" && asked {
			t.Errorf("%s: the server's cache was asked for a command that builds nothing", c.name)
		}
	}
}
