//go:build !unix && !windows

package plugins

import (
	"os"
	"os/exec"
)

func configureChild(cmd *exec.Cmd) {}

func killTree(p *os.Process) {
	if p != nil {
		_ = p.Kill()
	}
}
