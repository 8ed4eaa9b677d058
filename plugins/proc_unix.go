//go:build unix

package plugins

import (
	"os"
	"os/exec"
	"syscall"
)

// configureChild puts a plugin process in a process group of its own, so
// that killing it also ends the programs the plugin started.
func configureChild(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killTree kills a plugin process and its process group.
func killTree(p *os.Process) {
	if p == nil {
		return
	}
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
	_ = p.Kill()
}
