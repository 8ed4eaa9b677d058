//go:build windows

package plugins

import (
	"os"
	"os/exec"
	"strconv"
)

func configureChild(cmd *exec.Cmd) {}

// killTree kills a plugin process and the programs it started.
func killTree(p *os.Process) {
	if p == nil {
		return
	}
	_ = exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(p.Pid)).Run()
	_ = p.Kill()
}
