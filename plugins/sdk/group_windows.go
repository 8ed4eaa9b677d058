//go:build windows

package sdk

import (
	"os"
	"os/exec"
	"strconv"
)

func setGroup(cmd *exec.Cmd) {}

// killGroup kills p's process tree.
func killGroup(p *os.Process) {
	_ = exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(p.Pid)).Run()
}
