//go:build !unix

package mcp

import (
	"os/exec"
	"syscall"
)

// Without process groups only the direct child is ended (the SDK does it).
func ownGroup(*exec.Cmd)              {}
func signalGroup(int, syscall.Signal) {}

const (
	sigTerm = syscall.Signal(15)
	sigKill = syscall.Signal(9)
)
