package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// The gate's decision as `caps call --dry-run` prints it.
const (
	decisionAllow     = "allow"
	decisionAsk       = "ask"
	decisionAskAlways = "ask-always" // asks every time: an approval for the conversation never covers it
	decisionBlock     = "block"
)

// decisionWord maps a verdict to one of the four words.
func decisionWord(v gate.Verdict) string {
	switch v.Decision {
	case gate.Allow:
		return decisionAllow
	case gate.Block:
		return decisionBlock
	}
	if v.AlwaysAsk {
		// What the call runs is only known at run time: an approval for
		// the conversation cannot be remembered for it.
		return decisionAskAlways
	}
	return decisionAsk
}

// capsCall runs one tool of capability NAME through the registry and the
// safety gate, without a model. A call that needs confirmation runs only
// with --yes; a blocked one never does.
func capsCall(ctx context.Context, app *assistant.App, c *call, yes, dryRun bool) error {
	name, tool, args := c.args[0], c.args[1], callArgs(c)
	capability, err := app.Capabilities().Get(name)
	if err != nil {
		return err
	}
	var tools []string
	for _, t := range capability.Tools() {
		tools = append(tools, t.Name)
	}
	if !slices.Contains(tools, tool) {
		return toolNotOf(capability, tool, tools)
	}
	if dryRun {
		return printVerdict(c, app.Check(tool, args))
	}
	var approver gate.Approver = gate.DenyAll{}
	if yes {
		// The person approved on the command line, for this one call.
		approver = gate.ApproverFunc(func(context.Context, gate.Request) (gate.Approval, error) { return gate.ApproveOnce, nil })
	}
	out, err := app.CallTool(ctx, tool, args, approver)
	if err != nil {
		if errors.Is(err, agent.ErrDenied) && !yes {
			return hint.With(err, hint.Hint{Action: "Approve it on the command line",
				Command: append([]string{"caps", "call"}, append(c.args, "--yes")...)})
		}
		return err
	}
	if c.g.json {
		if err := writeJSON(c.io.out, map[string]any{"decision": decisionWord(out.Verdict), "result": out.Result}); err != nil {
			return err
		}
	} else if out.Result.IsError {
		fmt.Fprintf(c.io.err, "wrasse: %s failed: %s\n", tool, strings.TrimRight(out.Result.Content, "\n"))
	} else {
		fmt.Fprint(c.io.out, out.Result.Content)
		if out.Result.Content != "" && !strings.HasSuffix(out.Result.Content, "\n") {
			fmt.Fprintln(c.io.out)
		}
		if out.Result.Truncated {
			fmt.Fprintln(c.io.err, "(the result was cut to the size cap)")
		}
		for _, img := range out.Result.Images {
			// The terminal shows text: say what else came back (--json has the bytes).
			fmt.Fprintf(c.io.err, "(the result holds an image: %s, %d bytes; --json includes it)\n", img.MIMEType, len(img.Data))
		}
	}
	if out.Result.IsError {
		return &exitError{exitFail}
	}
	return nil
}

// callArgs is the JSON argument of caps call, {} when none is given.
func callArgs(c *call) json.RawMessage {
	if len(c.args) == 3 {
		return json.RawMessage(c.args[2])
	}
	return json.RawMessage("{}")
}

func checkCallArgs(c *call) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(callArgs(c), &obj); err != nil || obj == nil {
		return usagef(c.cmd.path, "the arguments of %s must be a JSON object, e.g. '{\"path\": \"notes.txt\"}'", c.args[1])
	}
	return nil
}

// toolNotOf says that tool is not one of capability's tools, and which
// are.
func toolNotOf(capability *cerebellum.Capability, tool string, tools []string) error {
	if len(tools) == 0 {
		why := "has no tools"
		switch {
		case capability.State == cerebellum.StateFailed:
			why = "failed to load: " + capability.Error
		case capability.Kind == cerebellum.KindGuide:
			why = "is a guide: it has instructions but no tools"
		}
		return fmt.Errorf("%w: %s %s", cerebellum.ErrUnknownTool, capability.Name, why)
	}
	msg := fmt.Sprintf("%s has no tool %q; its tools: %s", capability.Name, tool, strings.Join(tools, ", "))
	if near := hint.Closest(tool, tools, 1); len(near) == 1 {
		msg = fmt.Sprintf("%s has no tool %q; did you mean %s? (its tools: %s)", capability.Name, tool, near[0], strings.Join(tools, ", "))
	}
	return fmt.Errorf("%w: %s", cerebellum.ErrUnknownTool, msg)
}

// printVerdict prints the gate's decision on the first line, then why.
func printVerdict(c *call, v gate.Verdict) error {
	word := decisionWord(v)
	if c.g.json {
		out := map[string]any{"decision": word, "reasons": orEmpty(v.Reasons), "line": v.Line}
		if len(v.Hosts) > 0 {
			out["hosts"] = v.Hosts
		}
		if v.Scope != "" {
			out["scope"] = v.Scope
		}
		return writeJSON(c.io.out, out)
	}
	fmt.Fprintln(c.io.out, word)
	if len(v.Reasons) == 0 {
		fmt.Fprintln(c.io.out, "no pattern of the safety policy matches this call")
	}
	for _, r := range v.Reasons {
		fmt.Fprintf(c.io.out, "  %s\n", r)
	}
	if v.Decision == gate.Confirm && v.Scope != "" {
		fmt.Fprintf(c.io.out, "  approving it for a chat covers %s\n", v.Scope)
	}
	for _, h := range v.Hosts {
		// Whether a host asks depends on the chat: the first time it does,
		// unless Settings → Web lists it as trusted.
		fmt.Fprintf(c.io.out, "  reaches %s: %s (asks the first time in a chat unless trusted)\n", h.Name, h.URL)
	}
	return nil
}
