package shell

import (
	"context"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// The test binary doubles as Wrasse's sandbox launcher.
const launcherEnv = "WRASSE_SHELL_TEST_LAUNCHER"

func TestMain(m *testing.M) {
	if os.Getenv(launcherEnv) == "1" {
		os.Exit(sandbox.Main(os.Args[1:], os.Stderr))
	}
	os.Exit(m.Run())
}

// sandboxedEnv is the Env the host hands the shell: the workspace inside
// the granted folder, commands confined through the launcher.
func sandboxedEnv(t *testing.T, network string) (*sdk.Env, string, string) {
	t.Helper()
	if abi := sandbox.ABI(); abi < 4 {
		t.Fatalf("Landlock ABI %d: shell commands must be sandboxed (needs Linux 6.7+ with Landlock enabled)", abi)
	}
	base := t.TempDir()
	ws := filepath.Join(base, "ws")
	if err := os.MkdirAll(filepath.Join(ws, "brain", "cerebellum", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "wrasse.db"), []byte("SECRET-KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	granted := filepath.Join(base, "granted")
	if err := os.MkdirAll(granted, 0o755); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	roots := []string{granted, ws}
	env := &sdk.Env{Name: "shell", Roots: roots, Workspace: ws, Settings: map[string]string{"network": network},
		SandboxFn: func(cmd *exec.Cmd, network bool) error {
			p := sandbox.ForCommand(sandbox.CommandOptions{Roots: roots, Protected: protectedOf(ws), Temp: filepath.Join(base, "tmp"), Network: network})
			if err := sandbox.Command(cmd, []string{exe}, p); err != nil {
				return err
			}
			cmd.Env = append(cmd.Env, launcherEnv+"=1")
			return nil
		}}
	return env, ws, base
}

func TestExecSandboxed(t *testing.T) {
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
	tcp := "exec bash -c 'exec 3<>/dev/tcp/" + strings.Replace(ln.Addr().String(), ":", "/", 1) + "'"
	for _, network := range []string{"false", "true"} {
		env, ws, base := sandboxedEnv(t, network)
		p, err := Init(env)
		if err != nil {
			t.Fatal(err)
		}
		skill := filepath.Join(ws, "brain", "cerebellum", "x")
		if err := os.MkdirAll(filepath.Join(skill, "scripts"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(skill, "scripts", "run.sh"), []byte("#!/bin/sh\necho ran\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			name, command string
			ok            bool
			cwd           string
		}{
			{"read /etc/passwd", "cat /etc/passwd", false, ""},
			{"read the workspace database", "cat wrasse.db", false, ""},
			{"write outside the granted folders", "echo x > " + base + "/outside.txt", false, ""},
			{"write into brain/cerebellum", "echo x > brain/cerebellum/x/SKILL.md", false, ""},
			{"write inside the granted folder", "echo x > ../granted/new.txt && cat ../granted/new.txt", true, ""},
			{"TCP connect", tcp, network == "true", ""},
			// A skill's base directory: its scripts run there, read-only.
			{"run a skill's script from its folder", "./scripts/run.sh", true, skill},
			{"write into a skill's folder", "./scripts/run.sh > out.txt", false, skill},
		}
		for _, tt := range tests {
			cwd := ws
			if tt.cwd != "" {
				cwd = tt.cwd
			}
			out, err := call(context.Background(), t, p, "shell_exec", map[string]any{"command": tt.command, "cwd": cwd})
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			if got := strings.HasPrefix(out, "exit code: 0\n"); got != tt.ok {
				t.Errorf("network=%s, %s: %q, want success=%v", network, tt.name, out, tt.ok)
			}
			if strings.Contains(out, "SECRET-KEY") {
				t.Errorf("%s: the database was read", tt.name)
			}
		}
	}
}

// protectedOf are workspace ws's protected paths, as Wrasse passes them
// to every sandbox.
func protectedOf(ws string) sandbox.Protected {
	w := workspace.Workspace{Root: ws}
	noAccess, readOnly := w.Protected()
	return sandbox.Protected{NoAccess: noAccess, ReadOnly: readOnly, Runnable: []string{w.Capabilities()}}
}
