//go:build unix

package sdk

import (
	"os"
	"os/exec"
	"syscall"
)

// setGroup starts cmd in a session of its own, which is also a process
// group of its own (setsid; setpgid on a session leader would fail). A new
// session has no controlling terminal, so the command cannot push
// keystrokes into the person's terminal through /dev/tty (TIOCSTI).
func setGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setsid = true
	cmd.SysProcAttr.Setpgid = false
	cmd.SysProcAttr.Pgid = 0
	cmd.SysProcAttr.Setctty = false
	cmd.SysProcAttr.Foreground = false
}

// killGroup kills the process group whose leader is p (Group made p one).
func killGroup(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
}
