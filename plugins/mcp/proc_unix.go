//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, so the whole group
// (an npx wrapper and the server it starts) can be ended together.
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	setDeathSignal(cmd.SysProcAttr)
}

// signalGroup sends sig to the process group led by pid; a group that is
// gone already is not an error.
func signalGroup(pid int, sig syscall.Signal) {
	if pid > 0 {
		_ = syscall.Kill(-pid, sig)
	}
}

// groupAlive reports whether any process of the group led by pid lives.
func groupAlive(pid int) bool {
	return pid > 0 && syscall.Kill(-pid, 0) == nil
}

const (
	sigTerm = syscall.SIGTERM
	sigKill = syscall.SIGKILL
)
