package chat

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/store"
)

func TestExportMarkdown(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 0, 0, time.UTC)
	events := []store.Event{
		{Seq: 1, Type: store.EventUserMessage, Time: at, Text: "List the files"},
		{Seq: 2, Type: store.EventToolCall, Time: at, ToolCallID: "a", ToolName: "shell_exec", Arguments: json.RawMessage(`{ "command": "ls" }`)},
		{Seq: 3, Type: store.EventApproval, Time: at, ToolCallID: "a", Decision: &store.Decision{Kind: store.ApprovedOnce, Reason: "marked destructive"}},
		{Seq: 4, Type: store.EventToolResult, Time: at.Add(1500 * time.Millisecond), ToolCallID: "a", Text: "a.txt\n```b```"},
		{Seq: 5, Type: store.EventAssistantText, Time: at, Model: "m1", Text: "Two files."},
		{Seq: 6, Type: store.EventUsage, Time: at},
		{Seq: 7, Type: store.EventError, Time: at, Text: "Stopped: the turn was interrupted."},
	}
	want := "# Files\n" +
		"\n## You · 2026-03-04 05:06\n\nList the files\n" +
		"\n> **Tool call** `shell_exec`\n>\n> ```json\n> {\"command\":\"ls\"}\n> ```\n" +
		">\n> *Approved once*: marked destructive\n" +
		">\n> Result after 1.5s:\n>\n> ````\n> a.txt\n> ```b```\n> ````\n" +
		"\n## Wrasse (m1) · 2026-03-04 05:06\n\nTwo files.\n" +
		"\n> **Error:** Stopped: the turn was interrupted.\n"
	if got := exportMarkdown("Files", events); got != want {
		t.Errorf("export:\n%s\nwant:\n%s", got, want)
	}
}

func TestExportName(t *testing.T) {
	for _, tc := range []struct{ title, want string }{
		{"What is 6*7?", "what-is-6-7.md"},
		{"", "conversation.md"},
		{"  Ünïcode only  ", "n-code-only.md"},
	} {
		if got := exportName(tc.title); got != tc.want {
			t.Errorf("exportName(%q) = %q, want %q", tc.title, got, tc.want)
		}
	}
}
