package history_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/history"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
)

func openDB(t *testing.T) *store.DB {
	t.Helper()
	now := time.Date(2025, 3, 4, 10, 0, 0, 0, time.UTC)
	db, err := store.Open(filepath.Join(t.TempDir(), "w.db"), store.Options{Clock: func() time.Time {
		now = now.Add(time.Minute)
		return now
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func add(t *testing.T, db *store.DB, id store.ID, events ...store.Event) {
	t.Helper()
	for _, e := range events {
		if _, err := db.AppendEvent(id, e); err != nil {
			t.Fatal(err)
		}
	}
}

func call(t *testing.T, rt *history.Runtime, ctx context.Context, tool, args string) cerebellum.Result {
	t.Helper()
	res, err := rt.Call(ctx, tool, json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s %s: %v", tool, args, err)
	}
	return res
}

func TestSearchAndRead(t *testing.T) {
	db := openDB(t)
	if err := db.SetSecret("api_token", "tok-123456"); err != nil {
		t.Fatal(err)
	}
	a, _ := db.CreateConversation("m")
	add(t, db, a.ID,
		store.Event{Type: store.EventUserMessage, Text: "Make an invoice template as PDF"},
		store.Event{Type: store.EventAssistantText, Text: "I will write invoice.md first."},
		store.Event{Type: store.EventToolCall, ToolCallID: "1", ToolName: "fs_write", Arguments: json.RawMessage(`{"path":"invoice.md","content":"token tok-123456"}`)},
		store.Event{Type: store.EventApproval, ToolCallID: "1", ToolName: "fs_write", Decision: &store.Decision{Kind: store.ApprovedOnce}},
		store.Event{Type: store.EventToolResult, ToolCallID: "1", ToolName: "fs_write", Text: "permission denied", IsError: true},
		store.Event{Type: store.EventUsage, Usage: &provider.Usage{InputTokens: 5}},
		store.Event{Type: store.EventError, Text: "the model stopped"},
	)
	b, _ := db.CreateConversation("m")
	add(t, db, b.ID, store.Event{Type: store.EventUserMessage, Text: "What is the weather?"},
		store.Event{Type: store.EventAssistantText, Text: "Sunny; the invoice can wait.", Status: store.StatusStreaming})
	if err := db.FinishEvent(b.ID, 2, store.StatusInterrupted); err != nil {
		t.Fatal(err)
	}
	rt := history.New(db)
	ctx := cerebellum.WithSession(t.Context(), cerebellum.NewSession(b.ID.String(), nil, 0))

	res := call(t, rt, ctx, "history_search", `{"query":"invoice PDF"}`)
	want := "2 conversations match \"invoice PDF\" (best first):\n" +
		"1. c1 \"Make an invoice template as PDF\", updated 2025-03-04 10:15 UTC — event 2 (assistant): I will write invoice.md first.\n" +
		"2. c2 \"What is the weather?\", updated 2025-03-04 10:21 UTC (this conversation) — event 2 (assistant): Sunny; the invoice can wait.\n" +
		"Read one with history_read(conversation=\"cN\", from=<event - 3>)."
	if res.IsError || res.Content != want {
		t.Errorf("search:\n%s\nwant:\n%s", res.Content, want)
	}

	res = call(t, rt, ctx, "history_read", `{"conversation":"c1"}`)
	want = "Conversation c1 \"Make an invoice template as PDF\", started 2025-03-04 10:01 UTC, 7 events.\n" +
		"[1] user: Make an invoice template as PDF\n" +
		"[2] assistant: I will write invoice.md first.\n" +
		"[3] tool call fs_write: {\"path\":\"invoice.md\",\"content\":\"token [redacted:api_token]\"}\n" +
		"[4] approval fs_write: approved once\n" +
		"[5] tool result fs_write (error): permission denied\n" +
		"[7] error: the model stopped\n" +
		"(end of conversation)"
	if res.IsError || res.Content != want {
		t.Errorf("read:\n%s\nwant:\n%s", res.Content, want)
	}

	res = call(t, rt, ctx, "history_read", `{"conversation":"2","from":2}`)
	if !strings.Contains(res.Content, "(this conversation)") || !strings.Contains(res.Content, "[2] assistant (interrupted): Sunny") ||
		strings.Contains(res.Content, "[1]") {
		t.Errorf("read from 2:\n%s", res.Content)
	}
}

func TestReadPaging(t *testing.T) {
	db := openDB(t)
	c, _ := db.CreateConversation("m")
	for i := 1; i <= 7; i++ {
		add(t, db, c.ID, store.Event{Type: store.EventUserMessage, Text: fmt.Sprintf("message %d %s", i, strings.Repeat("x", 3000))})
	}
	rt := history.New(db)
	res := call(t, rt, t.Context(), "history_read", `{"conversation":"c1","limit":3}`)
	if !strings.Contains(res.Content, "[3] user: message 3") || strings.Contains(res.Content, "[4]") ||
		!strings.HasSuffix(res.Content, `More: history_read(conversation="c1", from=4)`) {
		t.Errorf("page 1:\n%s", res.Content)
	}
	if !strings.Contains(res.Content, " …[1510 more characters]") {
		t.Error("long events are cut with a note")
	}
	res = call(t, rt, t.Context(), "history_read", `{"conversation":"c1","from":6}`)
	if !strings.Contains(res.Content, "[6] user") || !strings.HasSuffix(res.Content, "(end of conversation)") {
		t.Errorf("last page:\n%s", res.Content)
	}
	res = call(t, rt, t.Context(), "history_read", `{"conversation":"c1","from":60}`)
	if !strings.HasSuffix(res.Content, "No events from 60 on.") {
		t.Errorf("past the end:\n%s", res.Content)
	}
}

func TestErrors(t *testing.T) {
	db := openDB(t)
	rt := history.New(db)
	tests := []struct{ tool, args, want string }{
		{"history_search", `{"query":"  ?! "}`, "say what to look for"},
		{"history_search", `[]`, "arguments must be a JSON object"},
		{"history_read", `{"conversation":"c9"}`, "there is no conversation c9"},
		{"history_read", `{"conversation":"yesterday"}`, `"yesterday" is not a conversation id`},
	}
	for _, tt := range tests {
		res := call(t, rt, t.Context(), tt.tool, tt.args)
		if !res.IsError || !strings.Contains(res.Content, tt.want) {
			t.Errorf("%s %s = %+v, want error containing %q", tt.tool, tt.args, res, tt.want)
		}
	}
	res := call(t, rt, t.Context(), "history_search", `{"query":"nothing"}`)
	if res.IsError || !strings.Contains(res.Content, "No past conversation mentions") {
		t.Errorf("no hits: %+v", res)
	}
	if _, err := rt.Call(t.Context(), "history_delete", nil); !errors.Is(err, cerebellum.ErrUnknownTool) {
		t.Errorf("unknown tool: %v", err)
	}
}
