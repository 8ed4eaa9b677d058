package store

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
)

func TestToMessages(t *testing.T) {
	args := json.RawMessage(`{"q":"x"}`)
	user := func(s string) Event { return Event{Type: EventUserMessage, Text: s} }
	text := func(s string) Event { return Event{Type: EventAssistantText, Text: s} }
	call := func(id string) Event {
		return Event{Type: EventToolCall, ToolCallID: id, ToolName: "t", Arguments: args}
	}
	result := func(id, s string) Event {
		return Event{Type: EventToolResult, ToolCallID: id, ToolName: "t", Text: s}
	}
	mUser := func(s string) provider.Message { return provider.Message{Role: provider.RoleUser, Content: s} }
	mAsst := func(s string, ids ...string) provider.Message {
		m := provider.Message{Role: provider.RoleAssistant, Content: s}
		for _, id := range ids {
			m.ToolCalls = append(m.ToolCalls, provider.ToolCall{ID: id, Name: "t", Arguments: args})
		}
		return m
	}
	mTool := func(id, s string) provider.Message {
		return provider.Message{Role: provider.RoleTool, ToolCallID: id, ToolName: "t", Content: s}
	}
	mLost := func(id string) provider.Message {
		m := mTool(id, InterruptedToolResult)
		m.IsError = true
		return m
	}

	tests := []struct {
		name string
		in   []Event
		want []provider.Message
	}{
		{"empty", nil, nil},
		{"simple exchange", []Event{user("hi"), text("hello")}, []provider.Message{mUser("hi"), mAsst("hello")}},
		{"text pieces join", []Event{user("hi"), text("a"), text("b")}, []provider.Message{mUser("hi"), mAsst("ab")}},
		{"tool round", []Event{
			user("q"), text("let me look"), call("1"), call("2"),
			{Type: EventApproval, ToolCallID: "1", Decision: &Decision{Kind: ApprovedOnce}},
			result("1", "r1"), result("2", "r2"), text("done"),
			{Type: EventUsage, Usage: &provider.Usage{}}, {Type: EventError, Text: "x"},
		}, []provider.Message{
			mUser("q"), mAsst("let me look", "1", "2"), mTool("1", "r1"), mTool("2", "r2"), mAsst("done"),
		}},
		{"call without text", []Event{user("q"), call("1"), result("1", "r")},
			[]provider.Message{mUser("q"), mAsst("", "1"), mTool("1", "r")}},
		{"tool error kept", []Event{user("q"), call("1"), {Type: EventToolResult, ToolCallID: "1", ToolName: "t", Text: "boom", IsError: true}},
			[]provider.Message{mUser("q"), mAsst("", "1"), {Role: provider.RoleTool, ToolCallID: "1", ToolName: "t", Content: "boom", IsError: true}}},
		{"crash mid tool: unanswered at end", []Event{user("q"), call("1"), call("2"), result("1", "r1")},
			[]provider.Message{mUser("q"), mAsst("", "1", "2"), mTool("1", "r1"), mLost("2")}},
		{"unanswered before next user message", []Event{user("q"), call("1"), user("again")},
			[]provider.Message{mUser("q"), mAsst("", "1"), mLost("1"), mUser("again")}},
		{"orphan and duplicate results dropped", []Event{user("q"), result("9", "orphan"), call("1"), result("1", "r"), result("1", "dup")},
			[]provider.Message{mUser("q"), mAsst("", "1"), mTool("1", "r")}},
		{"interrupted reply kept", []Event{user("q"), {Type: EventAssistantText, Text: "half a th", Status: StatusInterrupted}, user("go on")},
			[]provider.Message{mUser("q"), mAsst("half a th"), mUser("go on")}},
		{"empty interrupted reply dropped", []Event{user("q"), {Type: EventAssistantText, Status: StatusInterrupted}, user("hello?")},
			[]provider.Message{mUser("q"), mUser("hello?")}},
		{"unknown types skipped", []Event{user("q"), {Type: "future_thing", Text: "?"}, text("a")},
			[]provider.Message{mUser("q"), mAsst("a")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ToMessages(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ToMessages:\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// Reasoning belongs to the assistant message it begins, never to its
// text; notices are for people only.
func TestToMessagesThinking(t *testing.T) {
	args := json.RawMessage(`{}`)
	events := []Event{
		{Type: EventUserMessage, Text: "6*7?"},
		{Type: EventNotice, Text: "llama2 cannot call tools"},
		{Type: EventThinking, Text: "Use the calculator.", Signature: "sig-1"},
		{Type: EventThinking, Redacted: "opaque"},
		{Type: EventToolCall, ToolCallID: "c1", ToolName: "calc", Arguments: args},
		{Type: EventToolResult, ToolCallID: "c1", ToolName: "calc", Text: "42"},
		{Type: EventThinking, Text: "Now answer."},
		{Type: EventAssistantText, Text: "42", Status: StatusLength},
	}
	want := []provider.Message{
		{Role: provider.RoleUser, Content: "6*7?"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c1", Name: "calc", Arguments: args}},
			Thinking: []provider.ThinkingBlock{{Text: "Use the calculator.", Signature: "sig-1"}, {Redacted: "opaque"}}},
		{Role: provider.RoleTool, ToolCallID: "c1", ToolName: "calc", Content: "42"},
		{Role: provider.RoleAssistant, Content: "42", Thinking: []provider.ThinkingBlock{{Text: "Now answer."}}},
	}
	if got := ToMessages(events); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}
