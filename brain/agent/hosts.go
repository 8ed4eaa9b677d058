package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum/commalist"
	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// Nothing leaves quietly: the first request of a conversation to a host
// it has not used asks the person, showing the full URL, whether it comes
// from a call's arguments (the gate reads them: gate.Verdict.Hosts) or
// from a plugin in the middle of a call (a redirect, a host the arguments
// did not name: sdk.CheckHost, answered by hostGate). "Allow this host for
// the chat" is remembered for the conversation (approval events carry the
// hosts, so it survives a restart); the web capability's trustedHosts
// setting lists hosts no conversation asks about. With no one to ask
// (gate.DenyAll) a new host is refused.

// Settings the agent reads from the built-in capabilities.
const (
	// ShellCapability's AllowedCommandsSetting lists the person's allowed
	// command patterns (gate.CommandRule), PrivatePathsSetting their own
	// credential stores.
	ShellCapability        = "shell"
	AllowedCommandsSetting = "allowedCommands"
	PrivatePathsSetting    = "privatePaths"
	// WebCapability's TrustedHostsSetting lists the hosts any
	// conversation may reach without asking (gate.HostAllowed).
	WebCapability       = "web"
	TrustedHostsSetting = "trustedHosts"
)

// hostSet is the hosts one conversation may reach; the turn and the host
// checks of its running call share it.
type hostSet struct {
	mu    sync.Mutex
	hosts map[string]bool
}

func (s *hostSet) has(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hosts[key]
}

func (s *hostSet) add(keys ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hosts == nil {
		s.hosts = map[string]bool{}
	}
	for _, k := range keys {
		s.hosts[k] = true
	}
}

// setting is a capability setting's value in force ("" when the
// capability or the key is unknown).
func (a *Agent) setting(capability, key string) string {
	vals, err := a.opts.Registry.Settings(capability)
	if err != nil {
		return ""
	}
	for _, v := range vals {
		if v.Key == key {
			return v.Value
		}
	}
	return ""
}

// gateEnv is what the gate knows for a call now: the computer
// (Options.GateEnv) and the person's rules from the shell's settings.
func (a *Agent) gateEnv() gate.Env {
	env := gate.DefaultEnv()
	if a.opts.GateEnv != nil {
		env = a.opts.GateEnv()
	}
	env.Commands = commalist.Split(a.setting(ShellCapability, AllowedCommandsSetting))
	if env.Workdir == "" {
		env.Workdir = a.setting(ShellCapability, "workdir")
	}
	env.Private = append(slices.Clone(env.Private), commalist.Split(a.setting(ShellCapability, PrivatePathsSetting))...)
	return env
}

// trustedHosts are the hosts no conversation asks about.
func (a *Agent) trustedHosts() []string {
	return commalist.Split(a.setting(WebCapability, TrustedHostsSetting))
}

// newHosts are the hosts of hs this conversation has not been allowed.
func newHosts(hs []gate.Host, mem *hostSet, trusted []string) []gate.Host {
	var out []gate.Host
	for _, h := range hs {
		if !mem.has(h.Name) && !gate.HostAllowed(h.Name, trusted) {
			out = append(out, h)
		}
	}
	return out
}

func hostNames(hs []gate.Host) []string {
	out := make([]string, 0, len(hs))
	for _, h := range hs {
		out = append(out, h.Name)
	}
	return out
}

// hostReasons say why hosts need approval, each with its full URL.
func hostReasons(hs []gate.Host, redact func(string) string) []string {
	var out []string
	for _, h := range hs {
		out = append(out, fmt.Sprintf("it reaches %s, which this chat has not used: %s", h.Name, redact(h.URL)))
	}
	return out
}

// hostGate answers sdk.CheckHost for one running call: a host the call
// was allowed before it ran, the conversation was allowed, or the person
// trusts always passes; any other asks the approver, once per host. The
// answers are kept for the turn to record once the call returns (the
// call's goroutine must not write the turn's history).
type hostGate struct {
	approver gate.Approver
	conv     string
	call     string
	tool     string
	cap      string
	trusted  []string
	mem      *hostSet
	redact   func(string) string

	ask     sync.Mutex // one question at a time
	mu      sync.Mutex
	allowed map[string]bool
	denied  map[string]error
	done    bool
	answers []store.Event
}

func (g *hostGate) allow(keys ...string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.allowed == nil {
		g.allowed = map[string]bool{}
	}
	for _, k := range keys {
		g.allowed[k] = true
	}
}

// check is the call's sdk.HostCheck.
func (g *hostGate) check(ctx context.Context, rawURL string) error {
	key := gate.HostKey(rawURL)
	if key == "" {
		return fmt.Errorf("%w: %q names no host", sdk.ErrHostNotAllowed, g.redact(rawURL))
	}
	if ok, err := g.known(key); ok || err != nil {
		return err
	}
	g.ask.Lock()
	defer g.ask.Unlock()
	if ok, err := g.known(key); ok || err != nil {
		return err // answered while this check waited
	}
	h := gate.Host{Name: key, URL: rawURL}
	req := gate.Request{ConversationID: g.conv, ToolCallID: g.call, Tool: g.tool, Capability: g.cap, Args: []byte("{}"),
		Reasons: []string{fmt.Sprintf("in the middle of the call it reaches %s, which this chat has not used: %s", key, g.redact(rawURL))},
		Summary: g.redact(g.tool + " → " + rawURL), Hosts: []gate.Host{{Name: key, URL: g.redact(rawURL)}}, HostsOnly: true}
	ans, err := g.approver.Approve(ctx, req)
	reason := req.Reasons[0]
	var kind store.DecisionKind
	var refused error
	switch {
	case err == nil && ans == gate.ApproveOnce:
		kind = store.ApprovedOnce
		g.allow(key)
	case err == nil && ans == gate.ApproveConversation:
		kind = store.ApprovedConversation
		g.allow(key)
		g.mem.add(key)
	case errors.Is(err, gate.ErrNoApprover):
		kind, reason = store.Denied, err.Error()+": "+reason
		refused = fmt.Errorf("%w: %s (no one can approve it now)", sdk.ErrHostNotAllowed, h.Name)
	case err != nil:
		kind, reason = store.Denied, "asking for approval failed: "+err.Error()
		refused = fmt.Errorf("%w: %s (asking failed: %v)", sdk.ErrHostNotAllowed, h.Name, err)
	default:
		kind, reason = store.Denied, "the user said no; "+reason
		refused = fmt.Errorf("%w: the user did not allow %s", sdk.ErrHostNotAllowed, h.Name)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if refused != nil {
		if g.denied == nil {
			g.denied = map[string]error{}
		}
		g.denied[key] = refused
	}
	if !g.done {
		g.answers = append(g.answers, store.Event{Type: store.EventApproval, ToolCallID: g.call, ToolName: g.tool,
			Decision: &store.Decision{Kind: kind, Reason: reason, Hosts: []string{key}, HostsOnly: true}})
	}
	return refused
}

// known reports whether key may be reached without asking, or the error
// of an earlier refusal in this call.
func (g *hostGate) known(key string) (bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.done {
		return false, fmt.Errorf("%w: %s: the call already ended", sdk.ErrHostNotAllowed, key)
	}
	if err := g.denied[key]; err != nil {
		return false, err
	}
	return g.allowed[key] || g.mem.has(key) || gate.HostAllowed(key, g.trusted), nil
}

// finish ends the call's checks (later ones are refused) and returns the
// answers given meanwhile, to be recorded.
func (g *hostGate) finish() []store.Event {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.done = true
	out := g.answers
	g.answers = nil
	return out
}
