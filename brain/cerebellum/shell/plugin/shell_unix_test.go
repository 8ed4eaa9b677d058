//go:build unix

package shell

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A timeout kills the background jobs of the command line too, not only
// the shell.
func TestExecTimeoutKillsBackgroundJobs(t *testing.T) {
	p, dir := newPlugin(t)
	pidFile := filepath.Join(dir, "pids")
	// Each sleep runs in a subshell of the shell: two levels down.
	command := `(sleep 44 & echo $! >> pids; wait; echo) & (sleep 45 & echo $! >> pids; wait; echo) & wait`
	out, err := call(t.Context(), t, p, "shell_exec", map[string]any{"command": command, "timeout_seconds": 1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "timed out after 1s") {
		t.Fatalf("output = %q", out)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pids := strings.Fields(string(data))
	if len(pids) != 2 {
		t.Fatalf("pids %q; want 2", pids)
	}
	for _, f := range pids {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatal(err)
		}
		if !gone(pid) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("background job %d survived the timeout", pid)
		}
	}
}

// gone waits (bounded) for a killed process to end: SIGKILL is delivered
// asynchronously, and a zombie lingers until it is reaped.
func gone(pid int) bool {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if err := syscall.Kill(pid, 0); err != nil {
			return true
		}
		if data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			if i := bytes.LastIndexByte(data, ')'); i > 0 && i+2 < len(data) && (data[i+2] == 'Z' || data[i+2] == 'X') {
				return true
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	return false
}
