package sdk

import "os/exec"

// Group makes cmd start in a session (and so a process group) of its own,
// without a controlling terminal, and, when the context given to
// exec.CommandContext ends, kills the whole group: the command and every
// program it started, including background jobs of a shell
// ("(sleep 60; echo) & wait"). On Windows the process tree is killed
// with taskkill /T. Call it before Start; it sets cmd.Cancel (and on Unix
// cmd.SysProcAttr.Setsid). Plugins need it because they cannot use
// syscall themselves.
func Group(cmd *exec.Cmd) {
	if cmd == nil {
		return
	}
	setGroup(cmd)
	cmd.Cancel = func() error { return KillGroup(cmd) }
}

// KillGroup kills a command started after Group, with everything it
// started. It returns what killing the command itself returned
// (os.ErrProcessDone once it has exited).
func KillGroup(cmd *exec.Cmd) error {
	if cmd == nil || cmd.Process == nil {
		return nil
	}
	killGroup(cmd.Process)
	return cmd.Process.Kill()
}
