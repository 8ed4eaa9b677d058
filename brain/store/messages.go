package store

import "github.com/wrasse-app/wrasse/brain/provider"

// InterruptedToolResult answers, on replay, a tool call whose result was
// never stored (Wrasse stopped while the tool ran). Providers reject a
// history with an unanswered call, and the model should know the outcome
// is unknown rather than assume success.
const InterruptedToolResult = "interrupted: Wrasse stopped before this tool call finished; its outcome is unknown"

// ToMessages rebuilds the model-facing history from stored events:
//   - user_message → a user message, with the images the person attached;
//   - assistant_text (complete or interrupted, with the text written) and
//     tool_call events → one assistant message, until a user message or a
//     tool result ends it;
//   - tool_result → a tool message, kept only when it answers a call of the
//     assistant message just before (orphans would be rejected);
//   - calls left unanswered get an InterruptedToolResult error result before
//     the next message (or at the end);
//   - thinking events go to the assistant message they begin (or the one
//     being built) as Thinking, never as its text: a provider that must
//     get signed blocks back sends them its own way, the others leave
//     them out;
//   - error, notice, approval and usage events are for people, not the
//     model, and are skipped, as are unknown types.
func ToMessages(events []Event) []provider.Message {
	var (
		out     []provider.Message
		cur     = -1 // index in out of the assistant message being built
		pending []provider.ToolCall
		done    = map[string]bool{}
	)
	if len(events) > 0 {
		// About one message per event: sized once, not grown by copies.
		out = make([]provider.Message, 0, len(events))
	}
	closeCalls := func() {
		for _, c := range pending {
			if !done[c.ID] {
				out = append(out, provider.Message{Role: provider.RoleTool, Content: InterruptedToolResult,
					ToolCallID: c.ID, ToolName: c.Name, IsError: true})
			}
		}
		pending = pending[:0] // its calls were copied into their message
		clear(done)
	}
	assistant := func() *provider.Message {
		if cur < 0 {
			closeCalls()
			out = append(out, provider.Message{Role: provider.RoleAssistant})
			cur = len(out) - 1
		}
		return &out[cur]
	}
	for _, e := range events {
		if e.ParentCallID != "" {
			// A code-mode program's own call: the model reads what the
			// program printed, not each call it made.
			continue
		}
		switch e.Type {
		case EventUserMessage:
			closeCalls()
			cur = -1
			out = append(out, provider.Message{Role: provider.RoleUser, Content: e.Text, Images: e.Images})
		case EventAssistantText:
			if e.Text != "" {
				m := assistant()
				m.Content += e.Text
			}
		case EventThinking:
			if e.Text != "" || e.Redacted != "" {
				m := assistant()
				m.Thinking = append(m.Thinking, provider.ThinkingBlock{Text: e.Text, Signature: e.Signature, Redacted: e.Redacted})
			}
		case EventToolCall:
			m := assistant()
			c := provider.ToolCall{ID: e.ToolCallID, Name: e.ToolName, Arguments: e.Arguments}
			m.ToolCalls = append(m.ToolCalls, c)
			pending = append(pending, c)
		case EventToolResult:
			if done[e.ToolCallID] || !callPending(pending, e.ToolCallID) {
				continue
			}
			cur = -1
			done[e.ToolCallID] = true
			out = append(out, provider.Message{Role: provider.RoleTool, Content: e.Text,
				ToolCallID: e.ToolCallID, ToolName: e.ToolName, IsError: e.IsError, Images: e.Images, ToolRefs: e.ToolRefs})
		}
	}
	closeCalls()
	return out
}

func callPending(pending []provider.ToolCall, id string) bool {
	for _, c := range pending {
		if c.ID == id {
			return true
		}
	}
	return false
}
