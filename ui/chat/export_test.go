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

// Reasoning exports as a collapsed <details> block with its text fenced,
// an encrypted block as a note; notices and length stops are said.
func TestExportThinkingNoticesAndLength(t *testing.T) {
	tests := []struct {
		name  string
		event store.Event
		want  string
	}{
		{"thinking", store.Event{Seq: 2, Type: store.EventThinking, Model: "qwen3:8b", Text: "a <b> `c`"},
			"\n<details>\n<summary>Thinking (qwen3:8b)</summary>\n\n```text\na <b> `c`\n```\n\n</details>\n"},
		{"interrupted thinking", store.Event{Seq: 2, Type: store.EventThinking, Text: "half", Status: store.StatusInterrupted},
			"\n<details>\n<summary>Thinking, interrupted</summary>\n\n```text\nhalf\n```\n\n</details>\n"},
		{"encrypted", store.Event{Seq: 2, Type: store.EventThinking, Redacted: "EncryptedBlob"},
			"\n*(the model's reasoning, encrypted by the provider, is not shown)*\n"},
		{"empty thinking", store.Event{Seq: 2, Type: store.EventThinking}, ""},
		{"notice", store.Event{Seq: 2, Type: store.EventNotice, Text: "llama2 cannot call tools, so it answers without them."},
			"\n> *Note:* llama2 cannot call tools, so it answers without them.\n"},
		{"length", store.Event{Seq: 2, Type: store.EventAssistantText, Text: "Half", Status: store.StatusLength},
			"\n## Wrasse\n\nHalf\n\n*(stopped at the model's length limit)*\n"},
		{"length without text", store.Event{Seq: 2, Type: store.EventAssistantText, Status: store.StatusLength},
			"\n## Wrasse\n\n*(stopped at the model's length limit)*\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := exportMarkdown("T", []store.Event{tt.event})
			if want := "# T\n" + tt.want; got != want {
				t.Errorf("export:\n%q\nwant:\n%q", got, want)
			}
		})
	}
}
