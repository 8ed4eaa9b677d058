package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// Sentinel errors of CallTool.
var (
	// ErrBlocked means the safety policy refused the call.
	ErrBlocked = errors.New("blocked by the safety policy")
	// ErrDenied means the call needed approval and did not get it.
	ErrDenied = errors.New("not approved")
)

// CallOutcome is one tool call run outside a conversation.
type CallOutcome struct {
	// Verdict is the gate's decision about the call.
	Verdict gate.Verdict
	// Ran is true when the tool ran; Result then holds what it returned.
	Ran    bool
	Result cerebellum.Result
}

// CallTool runs one tool through the same path as a model's call in a
// turn: the gate (blocked calls never run; calls that need confirmation
// ask approver, nil denying them), then the registry (loading on demand,
// schema validation, the plugin host, result caps). A session of its own
// holds what it loads. With no conversation to remember hosts for, every
// host the call reaches that the person does not trust (the web
// capability's trustedHosts) asks approver, before the call for the hosts
// its arguments name and during it for any other. The error is
// ErrBlocked, ErrDenied (wrapping the approver's error, such as
// gate.ErrNoApprover), or the registry's.
func (a *Agent) CallTool(ctx context.Context, tool string, args json.RawMessage, approver gate.Approver) (CallOutcome, error) {
	if approver == nil {
		approver = gate.DenyAll{}
	}
	reg := a.opts.Registry
	snap := reg.Snapshot()
	// The registry's checks, once: arguments it refuses are not worth
	// asking about.
	call := reg.Prepare(tool, args)
	if err := call.Err(); errors.Is(err, cerebellum.ErrInvalidArgs) {
		return CallOutcome{}, err
	}
	args = call.Args()
	out := CallOutcome{Verdict: gate.CheckIn(snap, a.gateEnv(), tool, args)}
	red := a.opts.Store.Redactor()
	hg := &hostGate{approver: approver, tool: tool, trusted: a.trustedHosts(), mem: &hostSet{}, redact: red.String}
	if _, owner, ok := snap.Tool(tool); ok {
		hg.cap = owner.Name
	}
	reasons := strings.Join(out.Verdict.Reasons, "; ")
	if out.Verdict.Decision == gate.Block {
		return out, fmt.Errorf("%w: %s", ErrBlocked, reasons)
	}
	asked := newHosts(out.Verdict.Hosts, hg.mem, hg.trusted)
	if out.Verdict.Decision == gate.Confirm || len(asked) > 0 {
		req := gate.NewRequest(out.Verdict, red.JSON(args))
		req.Summary = red.String(req.Summary)
		for _, h := range asked {
			req.Hosts = append(req.Hosts, gate.Host{Name: h.Name, URL: red.String(h.URL)})
		}
		if out.Verdict.Decision != gate.Confirm {
			req.Reasons, req.Scope, req.HostsOnly = nil, "", true
		}
		req.Reasons = append(req.Reasons, hostReasons(asked, red.String)...)
		reasons = strings.Join(req.Reasons, "; ")
		ans, err := approver.Approve(ctx, req)
		if err != nil {
			return out, fmt.Errorf("%w (it needs approval because %s): %w", ErrDenied, reasons, err)
		}
		if !ans.Approves() {
			return out, fmt.Errorf("%w: the call needs approval because %s", ErrDenied, reasons)
		}
	}
	hg.allow(hostNames(out.Verdict.Hosts)...)
	sess := reg.NewSession("", nil)
	res, err := reg.Run(sdk.WithHostCheck(ctx, hg.check), sess, call)
	hg.finish()
	if err != nil {
		return out, err
	}
	out.Ran, out.Result = true, res
	return out, nil
}

// Check is the gate's verdict on a call as a turn would see it (the
// computer, the person's allowed commands and private paths), without
// running it. Whether its hosts would ask depends on the conversation:
// Verdict.Hosts lists them.
func (a *Agent) Check(tool string, args json.RawMessage) gate.Verdict {
	if len(strings.TrimSpace(string(args))) == 0 {
		args = json.RawMessage("{}")
	}
	return gate.CheckIn(a.opts.Registry.Snapshot(), a.gateEnv(), tool, args)
}
