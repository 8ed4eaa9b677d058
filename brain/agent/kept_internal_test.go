package agent

import (
	"testing"

	"github.com/wrasse-app/wrasse/brain/store"
)

// TestKeptSaysWhatWasStored: the failure message names exactly what the
// turn stored before it failed, counting only this turn's events and
// only calls that ran.
func TestKeptSaysWhatWasStored(t *testing.T) {
	user := store.Event{Type: store.EventUserMessage, Text: "hi"}
	reply := func(s string) store.Event { return store.Event{Type: store.EventAssistantText, Text: s} }
	ran := func(name string) store.Event {
		return store.Event{Type: store.EventToolResult, ToolName: name, Text: "ok"}
	}
	tests := []struct {
		name   string
		events []store.Event
		want   string
	}{
		{"nothing", []store.Event{user}, ""},
		{"an empty reply", []store.Event{user, reply("")}, ""},
		{"text", []store.Event{user, reply("Let me check")}, "What it had written so far (12 characters) is kept."},
		{"one call", []store.Event{user, {Type: store.EventToolCall, ToolName: "shell_exec"}, ran("shell_exec")},
			"The result of the tool call that ran (shell_exec) is kept."},
		{"text and calls", []store.Event{user, reply("Looking"), ran("shell_exec"), reply("now é"), ran("calc_eval")},
			"What it had written so far (12 characters) and the results of the 2 tool calls that ran (shell_exec, calc_eval) are kept."},
		{"calls that did not run", []store.Event{user,
			{Type: store.EventToolResult, ToolName: "a", Text: notRunBrokenOff, IsError: true},
			{Type: store.EventToolResult, ToolName: "b", Text: interruptedBeforeRun, IsError: true}}, ""},
		{"a program's inner calls", []store.Event{user, {Type: store.EventToolResult, ToolName: "calc_eval", ParentCallID: "p1"}, ran("run_go")},
			"The result of the tool call that ran (run_go) is kept."},
		{"only this turn", []store.Event{user, reply("old answer"), ran("old"), user}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := &turn{events: tt.events}
			if got := tr.kept(); got != tt.want {
				t.Errorf("kept() = %q\n want %q", got, tt.want)
			}
		})
	}
}
