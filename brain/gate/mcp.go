package gate

import (
	"fmt"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// mcpDecision applies the rules for a tool of an MCP server on top of the
// patterns (v is the verdict from them):
//   - the user's "never" blocks it, and a danger pattern still blocks;
//   - the user's "always" runs it without the default question (a confirm
//     pattern still asks);
//   - a tool the server marks read-only runs without asking;
//   - any other asks the first time in a conversation, and "approve for
//     this conversation" covers later calls of that tool.
//
// The server's destructive hint only words the question: every tool that
// is not read-only asks, since a server's hints are its own claims.
func mcpDecision(v Verdict, call Call) Verdict {
	if call.ToolRule == cerebellum.PolicyNever {
		v.Decision = Block
		v.Reasons = append([]string{fmt.Sprintf("the user set %s to never run", call.Tool)}, v.Reasons...)
		return v
	}
	if v.Decision == Block || call.ToolRule == cerebellum.PolicyAlways || call.Annotations.ReadOnly {
		return v
	}
	v.Decision = Confirm
	v.mcpAsk = true
	v.Destructive = call.Annotations.Destructive
	if call.Annotations.Destructive {
		v.Reasons = append(v.Reasons, fmt.Sprintf("can change or delete things (the MCP server %s marks %s destructive)", call.Capability, call.Tool))
	} else {
		v.Reasons = append(v.Reasons, fmt.Sprintf("is a tool of the MCP server %s that is not marked read-only", call.Capability))
	}
	return v
}
