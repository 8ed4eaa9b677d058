package manage

import (
	"github.com/wrasse-app/wrasse/cerebellum"
)

// Options configure a Manager.
type Options struct{}

// Manager changes the capabilities of one registry's workspace: install,
// trash, resync, state and settings writes, plugin checks. It holds no
// state of its own beyond what Options give it; everything it changes
// goes through the registry's Hook, so a Manager is cheap to make and any
// number of them may share a registry.
type Manager struct {
	reg  *cerebellum.Registry
	hook cerebellum.Hook
	opts Options
}

// New returns the Manager of reg.
func New(reg *cerebellum.Registry, opts Options) *Manager {
	return &Manager{reg: reg, hook: reg.Hook(), opts: opts}
}

// Registry is the registry m manages.
func (m *Manager) Registry() *cerebellum.Registry { return m.reg }
