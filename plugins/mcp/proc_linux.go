//go:build linux

package mcp

import "syscall"

// setDeathSignal ends the server's leader if Wrasse itself dies without
// closing it.
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
