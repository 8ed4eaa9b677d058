package assistant

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/gate"
)

// CallTool runs one tool through the registry and the safety gate without
// a model, for capability authors and scripts: see agent.Agent.CallTool.
func (a *App) CallTool(ctx context.Context, tool string, args json.RawMessage, approver gate.Approver) (agent.CallOutcome, error) {
	ag, err := agent.New(agent.Options{Registry: a.reg, Store: a.db, Logger: a.log, Clock: a.opts.Clock, GateEnv: a.gateEnv})
	if err != nil {
		return agent.CallOutcome{}, err
	}
	out, err := ag.CallTool(ctx, tool, args, approver)
	if note := modesNote(a.KeepModes()); note != "" {
		if err != nil {
			err = fmt.Errorf("%w%s", err, note)
		}
		out.Result.Content += note
	}
	return out, err
}

// Check is the gate's verdict on a call, without running it.
func (a *App) Check(tool string, args json.RawMessage) gate.Verdict {
	ag, err := agent.New(agent.Options{Registry: a.reg, Store: a.db, Logger: a.log, GateEnv: a.gateEnv})
	if err != nil {
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		return gate.CheckIn(a.reg.Snapshot(), a.gateEnv(), tool, args)
	}
	return ag.Check(tool, args)
}
