//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a session of its own, which is also a process
// group of its own, so the whole group (an npx wrapper and the server it
// starts) can be ended together. A new session has no controlling
// terminal: the server cannot open /dev/tty and push keystrokes into the
// person's terminal (TIOCSTI) the way a process of Wrasse's session could.
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	// setsid makes the group; setpgid on a session leader would fail.
	cmd.SysProcAttr.Setsid = true
	cmd.SysProcAttr.Setpgid = false
	setDeathSignal(cmd.SysProcAttr)
}

// signalGroup sends sig to the process group led by pid; a group that is
// gone already is not an error.
func signalGroup(pid int, sig syscall.Signal) {
	if pid > 0 {
		_ = syscall.Kill(-pid, sig)
	}
}

const (
	sigTerm = syscall.SIGTERM
	sigKill = syscall.SIGKILL
)
