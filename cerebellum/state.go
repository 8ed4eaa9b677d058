package cerebellum

// CapState is what the user decided about one capability, persisted in the
// workspace database so it survives restarts.
type CapState struct {
	// Disabled capabilities are listed but register no tools.
	Disabled bool `json:"disabled,omitempty"`
	// Granted are the permissions the user granted its plugin.
	Granted []string `json:"granted,omitempty"`
	// GrantedFor is the capability's CodeHash when they were granted; the
	// grants lapse when the SKILL.md or plugin code changes.
	GrantedFor string `json:"grantedFor,omitempty"`
	// Authored marks a capability written by the assistant itself.
	Authored bool `json:"authored,omitempty"`
	// Launch is the ApprovalKey of the mcp: block the person approved
	// (adding the server in the window or the CLI, or enabling it there,
	// which shows what it runs): its LaunchKey and a hash of the files its
	// command runs. An MCP capability whose block has another LaunchKey
	// (written or changed by hand, planted) stays off; one whose files
	// changed does not start.
	Launch string `json:"launch,omitempty"`
	// NoNetwork keeps an MCP server's process off the network (TCP, where
	// the kernel can refuse it); the default lets it reach its API.
	NoNetwork bool `json:"noNetwork,omitempty"`
}

// StateStore persists CapState per capability name. The workspace database
// implements it; tests use MemoryStates.
type StateStore interface {
	// States returns every stored state, keyed by capability name.
	States() (map[string]CapState, error)
	// SetState stores the state of one capability.
	SetState(name string, s CapState) error
	// DeleteState forgets a capability (after it is removed).
	DeleteState(name string) error
}

// MemoryStates is an in-memory StateStore.
type MemoryStates map[string]CapState

func (m MemoryStates) States() (map[string]CapState, error) {
	out := make(map[string]CapState, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out, nil
}

func (m MemoryStates) SetState(name string, s CapState) error { m[name] = s; return nil }
func (m MemoryStates) DeleteState(name string) error          { delete(m, name); return nil }
