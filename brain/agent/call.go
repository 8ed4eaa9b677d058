package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/cerebellum"
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
// holds what it loads. The error is ErrBlocked, ErrDenied (wrapping the
// approver's error, such as gate.ErrNoApprover), or the registry's.
func (a *Agent) CallTool(ctx context.Context, tool string, args json.RawMessage, approver gate.Approver) (CallOutcome, error) {
	if approver == nil {
		approver = gate.DenyAll{}
	}
	reg := a.opts.Registry
	snap := reg.Snapshot()
	if len(strings.TrimSpace(string(args))) == 0 {
		args = json.RawMessage("{}")
	}
	if !json.Valid(args) {
		return CallOutcome{}, fmt.Errorf("the arguments of %s are not JSON: %s", tool, args)
	}
	out := CallOutcome{Verdict: gate.Check(snap, tool, args)}
	reasons := strings.Join(out.Verdict.Reasons, "; ")
	switch out.Verdict.Decision {
	case gate.Block:
		return out, fmt.Errorf("%w: %s", ErrBlocked, reasons)
	case gate.Confirm:
		red := a.opts.Store.Redactor()
		req := gate.NewRequest(out.Verdict, red.JSON(args))
		req.Summary = red.String(req.Summary)
		ans, err := approver.Approve(ctx, req)
		if err != nil {
			return out, fmt.Errorf("%w (it needs approval because %s): %w", ErrDenied, reasons, err)
		}
		if ans != gate.ApproveOnce && ans != gate.ApproveConversation {
			return out, fmt.Errorf("%w: the call needs approval because %s", ErrDenied, reasons)
		}
	}
	sess := reg.NewSession("", nil)
	res, err := reg.Call(ctx, sess, tool, args)
	if err != nil {
		return out, err
	}
	out.Ran, out.Result = true, res
	return out, nil
}
