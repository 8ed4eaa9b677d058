//go:build unix

package plugins

import (
	"os"
	"os/exec"
	"syscall"
)

// configureChild puts a plugin (or run_go program) process in a session of
// its own, which is a process group of its own too, so that killing it
// also ends the programs it started; and, without a controlling terminal,
// nothing it starts can type into the person's terminal (TIOCSTI).
func configureChild(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// killTree kills a plugin process and its process group.
func killTree(p *os.Process) {
	if p == nil {
		return
	}
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
	_ = p.Kill()
}
