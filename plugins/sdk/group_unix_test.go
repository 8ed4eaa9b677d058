//go:build unix

package sdk_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// Killing a grouped command also kills what it started in the background;
// without Group only the shell dies.
func TestGroupKillsGrandchildren(t *testing.T) {
	cases := []struct {
		name  string
		group bool
		alive bool // grandchildren alive after the command was cancelled
	}{
		{"without Group", false, true},
		{"with Group", true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pids")
			ctx, cancel := context.WithCancel(t.Context())
			// The two background jobs' pids are written, then "ready" says
			// both run, then the shell waits for them.
			script := `sleep 44 & echo $! > ` + pidFile + `; sleep 45 & echo $! >> ` + pidFile + `; echo ready; wait`
			cmd := exec.CommandContext(ctx, "/bin/sh", "-c", script)
			if tc.group {
				sdk.Group(cmd)
			}
			cmd.WaitDelay = 100 * time.Millisecond
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 6)
			if _, err := out.Read(buf); err != nil || string(buf) != "ready\n" {
				t.Fatalf("read %q, %v", buf, err)
			}
			cancel()
			_ = cmd.Wait()
			pids := readPids(t, pidFile)
			for _, pid := range pids {
				if tc.alive {
					if !alive(pid) {
						t.Errorf("grandchild %d died without Group; the control case is broken", pid)
					}
					_ = syscall.Kill(pid, syscall.SIGKILL)
					continue
				}
				if !gone(pid) {
					_ = syscall.Kill(pid, syscall.SIGKILL)
					t.Errorf("grandchild %d survived its group being killed", pid)
				}
			}
		})
	}
}

func TestKillGroupBeforeStart(t *testing.T) {
	if err := sdk.KillGroup(exec.Command("true")); err != nil {
		t.Fatalf("KillGroup on a command not started: %v", err)
	}
	sdk.Group(nil) // must not panic
}

func readPids(t *testing.T, file string) []int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatal(err)
		}
		pids = append(pids, pid)
	}
	if len(pids) != 2 {
		t.Fatalf("pids %v; want 2", pids)
	}
	return pids
}

// gone waits (bounded) for a killed process to end: SIGKILL is delivered
// asynchronously, and the process lingers as a zombie until reaped.
func gone(pid int) bool {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if !alive(pid) {
			return true
		}
		time.Sleep(5 * time.Millisecond)
	}
	return false
}

// alive reports whether pid is a running (not zombie) process.
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	if data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		if i := bytes.LastIndexByte(data, ')'); i > 0 && i+2 < len(data) {
			return data[i+2] != 'Z' && data[i+2] != 'X'
		}
		return true
	}
	out, err := exec.Command("ps", "-o", "stat=", "-p", strconv.Itoa(pid)).Output()
	return err == nil && !strings.HasPrefix(strings.TrimSpace(string(out)), "Z")
}
