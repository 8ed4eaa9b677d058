package cerebellum

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum/schema"
)

// LoadedNames returns every capability whose tools a request carries for
// sess: core, then pinned, each sorted by name, then the session's loaded
// set in the order it was loaded, so a load appends and using a capability
// again moves nothing (the tools array is a prompt-cache prefix).
func (r *Registry) LoadedNames(sess *Session) []string {
	snap := r.Snapshot()
	var core, pinned, loaded []string
	for _, c := range snap.caps {
		if !c.Usable() {
			continue
		}
		switch {
		case c.Core:
			core = append(core, c.Name)
		case c.Pinned && len(c.MissingGrants()) == 0:
			// Pinned but waiting for grants: its tools cannot run, so no
			// request offers them.
			pinned = append(pinned, c.Name)
		}
	}
	if sess != nil {
		// What vanished in a snapshot since the set was saved stays out
		// even if it is back now (see noteVanished).
		gone := r.vanishedFrom(sess.id)
		sess.drop(func(n string) bool {
			c, ok := snap.byName[n]
			return ok && c.Usable() && !gone[n]
		})
		for _, n := range sess.LoadOrder() {
			if c := snap.byName[n]; !c.AlwaysLoaded() {
				loaded = append(loaded, n)
			}
		}
	}
	sort.Strings(core)
	sort.Strings(pinned)
	return append(append(core, pinned...), loaded...)
}

// Tools returns the tool schemas a model request carries for sess: core +
// pinned + the conversation's loaded set, in a stable order, the loaded
// ones within the tool budget (a capability loaded partly carries the
// tools it selected, in the order it selected them).
func (r *Registry) Tools(sess *Session) []ToolDef {
	snap := r.Snapshot()
	// The budget may have shrunk, or the set been restored, since the
	// last load: no request goes out over it.
	r.enforceToolBudget(sess, "", loadIntent{})
	var out []ToolDef
	for _, name := range r.LoadedNames(sess) {
		defs := snap.modelTools(name).defs
		sel, partial := sess.Selection(name)
		if !partial {
			out = append(out, defs...)
			continue
		}
		for _, n := range sel {
			if i := slices.IndexFunc(defs, func(d ToolDef) bool { return d.Name == n }); i >= 0 {
				out = append(out, defs[i])
			}
		}
	}
	return out
}

// DeferrableTools returns the tool schemas of every capability a
// conversation may load (usable, not core, pinned or a guide), ordered by
// capability name and then as the capability lists them. The list depends
// on the registry and the tool budget alone, so a provider can declare it
// as deferred tools and loading one changes nothing in the request's
// prefix. A capability whose tools exceed the tool budget is left out: it
// is only ever loaded partly, and the tools it selected ride with the
// loaded ones.
func (r *Registry) DeferrableTools() []ToolDef {
	snap := r.Snapshot()
	budget := r.tune().ToolBudget
	if d := r.deferred.Load(); d != nil && d.snap == snap && d.budget == budget {
		return d.tools
	}
	tools := deferrableTools(snap, budget)
	r.deferred.Store(&deferredTools{snap: snap, budget: budget, tools: tools})
	return tools
}

// deferredTools is DeferrableTools' answer for one snapshot and budget.
type deferredTools struct {
	snap   *Snapshot
	budget int
	tools  []ToolDef
}

func deferrableTools(snap *Snapshot, budget int) []ToolDef {
	var names []string
	for _, c := range snap.caps {
		if c.Usable() && !c.AlwaysLoaded() && c.Kind != KindGuide && len(c.Tools()) > 0 && len(c.MissingGrants()) == 0 &&
			!oversized(snap, c.Name, budget) {
			names = append(names, c.Name)
		}
	}
	sort.Strings(names)
	var out []ToolDef
	for _, name := range names {
		out = append(out, snap.modelTools(name).defs...)
	}
	// Clipped: a caller's append never writes into the kept answer.
	return slices.Clip(out)
}

// Activate loads a capability into sess by exact name. Loading a core,
// pinned or guide capability is a no-op that succeeds. A capability whose
// tools exceed the tool budget is loaded partly (see ActivateFor).
func (r *Registry) Activate(sess *Session, name string) (*Capability, error) {
	return r.activate(sess, name, loadIntent{})
}

// ActivateFor is Activate for a purpose: when the capability's tools
// exceed the tool budget, the ones most relevant to query are loaded,
// within the budget (Session.Selection names them).
func (r *Registry) ActivateFor(sess *Session, name, query string) (*Capability, error) {
	return r.activate(sess, name, loadIntent{query: query})
}

func (r *Registry) activate(sess *Session, name string, in loadIntent) (*Capability, error) {
	snap := r.Snapshot()
	c, ok := snap.byName[name]
	if !ok {
		return nil, r.notFound(name)
	}
	switch c.State {
	case StateDisabled:
		return c, unusable(c, fmt.Errorf("%w: %s is switched off; the user can enable it in Settings → Capabilities", ErrDisabled, name))
	case StateFailed:
		return c, unusable(c, fmt.Errorf("%w: %s: %s", ErrFailed, name, c.Error))
	}
	if err := notGranted(c); err != nil {
		return c, err
	}
	if sess == nil || c.AlwaysLoaded() || c.Kind == KindGuide {
		if sess != nil {
			sess.markRecent(name)
		}
		return c, nil
	}
	if !r.fits(snap, c, in) {
		return c, fmt.Errorf("%w: each of %s's tools is larger than the tool budget (%d tokens) on its own; the user can raise toolBudget in config.json",
			ErrOverBudget, name, r.tune().ToolBudget)
	}
	in.fresh = !sess.IsLoaded(name)
	if ev := sess.touch(name); ev != "" {
		r.log.Debug("evicted capability", "conversation", sess.ID(), "capability", ev)
	}
	r.enforceToolBudget(sess, name, in)
	return c, nil
}

// Call runs a tool for a conversation: Prepare, then Run. Calling a tool
// of a known capability that is not loaded loads it first (eviction is
// invisible to the model). The Result is always fit to hand to the model;
// the error, when not nil, classifies the failure (ErrUnknownTool,
// ErrInvalidArgs, ErrDisabled ...).
//
// This is the one path of a tool call, whoever makes it (a turn, CallTool,
// code mode, the MCP server), and each check on it is made here once:
//
//   - the tool is found and its arguments checked (Prepare): the input
//     schema's decoding is the one JSON check;
//   - the capability is granted and loaded into the session (Run);
//   - the runtime runs it (a plugin, in process or in a process of its
//     own, an MCP server, a built-in);
//   - the result is checked against the tool's outputSchema and then cut
//     to Options.MaxResultBytes, its images checked (CapResult): the one
//     output check and the one result cap, on this side of every runtime,
//     whose output is never trusted to have done either.
func (r *Registry) Call(ctx context.Context, sess *Session, tool string, args json.RawMessage) (Result, error) {
	return r.Run(ctx, sess, r.Prepare(tool, args))
}

// PreparedCall is a tool call whose tool was looked up and whose
// arguments were checked against its input schema (Registry.Prepare);
// Registry.Run runs it. A caller that asks someone about a call prepares it
// first: a call the registry refuses is not worth asking about.
type PreparedCall struct {
	snap *Snapshot
	tool string
	ref  toolRef
	args json.RawMessage
	cs   *compiledSchema
	// lookupErr is why the tool cannot be found, argsErr why its arguments
	// are refused; Run reports them where Call always has, so a refused
	// call still counts as a use of its capability.
	lookupErr, argsErr error
}

// Err is why the registry will refuse the call before it runs (an unknown
// tool, arguments that do not match its schema), or nil.
func (p *PreparedCall) Err() error {
	if p.lookupErr != nil {
		return p.lookupErr
	}
	return p.argsErr
}

// Args are the call's arguments as the tool receives them ("{}" for none).
func (p *PreparedCall) Args() json.RawMessage { return p.args }

// Prepare looks the tool up in the current snapshot and checks its
// arguments. Nothing runs and no session changes.
func (r *Registry) Prepare(tool string, args json.RawMessage) *PreparedCall {
	snap := r.Snapshot()
	p := &PreparedCall{snap: snap, tool: tool, args: args}
	if len(bytes.TrimSpace(args)) == 0 {
		p.args = json.RawMessage("{}")
	}
	ref, ok := snap.tools[tool]
	if !ok {
		if c, shadow := snap.shadowOwners()[tool]; shadow {
			var err error
			if c.State == StateDisabled {
				err = fmt.Errorf("%w: tool %s belongs to %s, which is switched off; ask the user to enable it in Settings → Capabilities", ErrDisabled, tool, c.Name)
			} else {
				err = fmt.Errorf("%w: tool %s belongs to %s, which failed to load: %s", ErrFailed, tool, c.Name, c.Error)
			}
			p.lookupErr = unusable(c, err)
			return p
		}
		p.lookupErr = fmt.Errorf("%w: %q is not a tool of any installed capability; use tool_search to find the right tool", ErrUnknownTool, tool)
		return p
	}
	p.ref = ref
	p.cs = snap.schemasFor(ref.tool)
	if p.cs.err != nil {
		p.argsErr = fmt.Errorf("%w: %s: the tool's schema in %s/SKILL.md is broken: %v", ErrFailed, tool, ref.cap.Folder, p.cs.err)
		return p
	}
	// The one JSON check of the arguments: the schema decodes them.
	if verr := p.cs.in.Validate(p.args); verr != nil {
		p.argsErr = fmt.Errorf("%w for %s: %v", ErrInvalidArgs, tool, strings.TrimPrefix(verr.Error(), schema.ErrInvalid.Error()+": "))
	}
	return p
}

// Run runs a prepared call for a conversation (see Call).
func (r *Registry) Run(ctx context.Context, sess *Session, p *PreparedCall) (Result, error) {
	if p.lookupErr != nil {
		return errorResult(p.lookupErr), p.lookupErr
	}
	snap, ref, tool := p.snap, p.ref, p.tool
	c := ref.cap
	if err := notGranted(c); err != nil {
		// Before the conversation counts it as loaded: it cannot be.
		return errorResult(err), err
	}
	if sess != nil {
		if c.AlwaysLoaded() {
			sess.markRecent(c.Name)
		} else if in := (loadIntent{tool: tool, fresh: !sess.IsLoaded(c.Name)}); r.fits(snap, c, in) {
			sess.touch(c.Name)
			r.enforceToolBudget(sess, c.Name, in)
		}
		// A tool too big for the budget on its own runs without being
		// loaded: no request could carry it.
	}
	if p.argsErr != nil {
		return errorResult(p.argsErr), p.argsErr
	}
	rt, release, err := r.runtime(ctx, c)
	if err != nil {
		return errorResult(err), err
	}
	ctx = WithSession(ctx, sess)
	// A tool learnt from an MCP server is called by the server's name.
	name := tool
	if ref.tool.Remote != "" {
		name = ref.tool.Remote
	}
	res, err := func() (Result, error) {
		defer release() // even if the runtime panics: a reload waits for it
		return rt.Call(ctx, name, p.args)
	}()
	if err != nil {
		err = fmt.Errorf("%s (%s): %w", tool, c.Name, err)
		return errorResult(err), err
	}
	// The one output check.
	if p.cs.out != nil && !res.IsError {
		if verr := p.cs.out.Validate(json.RawMessage(res.Content)); verr != nil {
			err := fmt.Errorf("%w: %s returned a result that does not match its outputSchema: %v", ErrFailed, tool, verr)
			return errorResult(err), err
		}
	}
	// The one result cap.
	return CapResult(res, r.opts.MaxResultBytes), nil
}
