//go:build !unix && !windows

package childproc

import (
	"os"
	"os/exec"
)

// Configure does nothing here: there are no process groups to set up.
func Configure(cmd *exec.Cmd) {}

// KillTree kills the process (no group to end here).
func KillTree(p *os.Process) {
	if p != nil {
		_ = p.Kill()
	}
}
