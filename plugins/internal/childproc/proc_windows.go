//go:build windows

package childproc

import (
	"os"
	"os/exec"
	"strconv"
)

// Configure does nothing here: there are no process groups to set up.
func Configure(cmd *exec.Cmd) {}

// KillTree kills a plugin process and the programs it started.
func KillTree(p *os.Process) {
	if p == nil {
		return
	}
	_ = exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(p.Pid)).Run()
	_ = p.Kill()
}
