package plugins

import (
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// Confinement says how a plugin's code runs under this host and what the
// operating system enforces on it.
type Confinement struct {
	// OutOfProcess is true when the plugin runs in a process of its own
	// (plugins that do not ship with Wrasse, with Options.Child set).
	OutOfProcess bool
	// Sandboxed is true when that process confines itself with the OS
	// sandbox before any plugin code runs; Status says how far the kernel
	// goes (see Status.Gaps).
	Sandboxed bool
	Status    sandbox.Status
	// Commands is true when commands started through env.Sandbox (the
	// shell tool's) run confined; CommandStatus is what the kernel
	// enforces on them.
	Commands      bool
	CommandStatus sandbox.Status
}

// Confinement is how a plugin with these grants would run: trusted ones in
// process (reviewed, unconfined), others in a sandboxed plugin process
// when Options.Child is set, else in process and unconfined.
func (h *Host) Confinement(trusted bool, granted []string) Confinement {
	var c Confinement
	if len(h.opts.sandboxLauncher()) > 0 {
		c.Commands = true
		// The network of a command follows its tool's setting; files are
		// what the kernel may or may not confine.
		c.CommandStatus = h.expectCommand(true)
	}
	if trusted || len(h.opts.Child) == 0 {
		return c
	}
	c.OutOfProcess, c.Sandboxed = true, true
	c.Status = h.expect(newPolicy(false, granted).granted[skillmd.PermNetwork])
	return c
}

// logSandboxOnce logs, the first time a capability's plugin process is
// started by this host, what the kernel cannot enforce on it; the
// process's own report of every later start is a debug line.
func (h *Host) logSandboxOnce(bp *blueprint) {
	st := h.expect(newPolicy(false, bp.granted).granted[skillmd.PermNetwork])
	gaps := st.Gaps()
	if len(gaps) == 0 {
		return
	}
	h.mu.Lock()
	seen := h.sandboxLogged[bp.name]
	h.sandboxLogged[bp.name] = true
	h.mu.Unlock()
	if !seen {
		bp.log.Warn("the plugin's sandbox is incomplete: "+strings.Join(gaps, "; "), "sandbox", st.String())
	}
}
