package assistant

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/gate"
)

// newCaller makes the agent that runs tool calls outside a turn, once, at
// Open: it holds no state of its own (a turn's agent holds its options).
func (a *App) newCaller() (*agent.Agent, error) {
	return agent.New(agent.Options{Registry: a.reg, Store: a.db, Logger: a.log, Clock: a.opts.Clock, GateEnv: a.gateEnv})
}

// CallTool runs one tool through the registry and the safety gate without
// a model, for capability authors and scripts: see agent.Agent.CallTool.
func (a *App) CallTool(ctx context.Context, tool string, args json.RawMessage, approver gate.Approver) (agent.CallOutcome, error) {
	out, err := a.caller.CallTool(ctx, tool, args, approver)
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
	return a.caller.Check(tool, args)
}
