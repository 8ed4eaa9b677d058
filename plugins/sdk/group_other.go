//go:build !unix && !windows

package sdk

import (
	"os"
	"os/exec"
)

func setGroup(cmd *exec.Cmd) {}

func killGroup(p *os.Process) {}
