//go:build unix

package childproc

import (
	"os"
	"os/exec"
	"syscall"
)

// Configure puts a plugin (or run_go program) process in a session of
// its own, which is a process group of its own too, so that killing it
// also ends the programs it started; and, without a controlling terminal,
// nothing it starts can type into the person's terminal (TIOCSTI).
// What the caller set already (the namespaces of a plugin process that
// starts through the sandbox launcher) stays.
func Configure(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setsid = true
}

// KillTree kills a plugin process and its process group.
func KillTree(p *os.Process) {
	if p == nil {
		return
	}
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
	_ = p.Kill()
}
