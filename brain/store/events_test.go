package store

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/wrasse-app/wrasse/brain/provider"
)

func TestAppendEventValidation(t *testing.T) {
	tests := []struct {
		name    string
		e       Event
		wantErr error
	}{
		{"user", Event{Type: EventUserMessage, Text: "hi"}, nil},
		{"empty type", Event{Text: "hi"}, ErrInvalidEvent},
		{"unknown type", Event{Type: "thought"}, ErrInvalidEvent},
		{"approval without decision", Event{Type: EventApproval}, ErrInvalidEvent},
		{"approval bad kind", Event{Type: EventApproval, Decision: &Decision{Kind: "maybe"}}, ErrInvalidEvent},
		{"approval blocked", Event{Type: EventApproval, Decision: &Decision{Kind: Blocked, Reason: "rm -rf /"}}, nil},
		{"usage without usage", Event{Type: EventUsage}, ErrInvalidEvent},
		{"usage", Event{Type: EventUsage, Usage: &provider.Usage{InputTokens: 1}}, nil},
		{"bad status", Event{Type: EventAssistantText, Status: "done"}, ErrInvalidEvent},
		{"streaming", Event{Type: EventAssistantText, Status: StatusStreaming}, nil},
		{"interrupted", Event{Type: EventAssistantText, Status: StatusInterrupted, Text: "half"}, nil},
		{"time out of range", Event{Type: EventError, Time: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}, ErrInvalidEvent},
	}
	db, _, _ := openTest(t)
	c := mustConv(t, db, "")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := db.GetConversation(c.ID)
			_, err := db.AppendEvent(c.ID, tt.e)
			wantErr(t, err, tt.wantErr)
			after, _ := db.GetConversation(c.ID)
			if grew := after.EventCount - before.EventCount; (err == nil) != (grew == 1) {
				t.Errorf("event count grew by %d with err %v", grew, err)
			}
		})
	}
}

func TestAppendEventRoundTrip(t *testing.T) {
	at := time.Date(2024, 5, 6, 7, 8, 9, 10, time.FixedZone("CEST", 7200))
	tests := []struct {
		name string
		in   Event
		// check adjusts the expectation from in (besides Seq and Time).
		check func(*Event)
	}{
		{"user", Event{Type: EventUserMessage, Text: "hello\nworld ✓"}, nil},
		{"assistant", Event{Type: EventAssistantText, Text: "hi", Model: "claude-x"}, nil},
		{"tool call", Event{Type: EventToolCall, ToolCallID: "c1", ToolName: "read_file", Arguments: json.RawMessage(`{"path":"a.txt"}`)}, nil},
		{"tool call, invalid JSON kept verbatim", Event{Type: EventToolCall, ToolCallID: "c2", ToolName: "x", Arguments: json.RawMessage(`{"path": "a.txt"`)}, nil},
		{"tool call, JSON compacted", Event{Type: EventToolCall, ToolCallID: "c3", ToolName: "x", Arguments: json.RawMessage(`{ "a" : 1 }`)},
			func(e *Event) { e.Arguments = json.RawMessage(`{"a":1}`) }},
		{"tool result", Event{Type: EventToolResult, ToolCallID: "c1", ToolName: "read_file", Text: "no such file", IsError: true}, nil},
		{"approval", Event{Type: EventApproval, ToolCallID: "c1", ToolName: "shell", Decision: &Decision{Kind: Denied, Reason: "user said no"}}, nil},
		{"usage", Event{Type: EventUsage, Model: "m", Usage: &provider.Usage{InputTokens: 100, OutputTokens: 20, CachedTokens: 80}}, nil},
		{"error", Event{Type: EventError, Text: "network down"}, nil},
		{"given time kept in UTC", Event{Type: EventError, Text: "t", Time: at},
			func(e *Event) { e.Time = at.UTC() }},
	}
	db, path, clock := openTest(t)
	c := mustConv(t, db, "")
	var stored []Event
	for i, tt := range tests {
		got := mustAppend(t, db, c.ID, tt.in)
		want := tt.in
		want.Seq = uint64(i + 1)
		if want.Time.IsZero() {
			want.Time = got.Time
			if got.Time.IsZero() || got.Time.Location() != time.UTC {
				t.Errorf("%s: time %v not stamped in UTC", tt.name, got.Time)
			}
		}
		if tt.check != nil {
			tt.check(&want)
		}
		stored = append(stored, want)
		// The returned event (before the JSON round trip) may differ only in
		// the compacting of arguments.
		if tt.check == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("%s: AppendEvent returned %+v, want %+v", tt.name, got, want)
		}
		read, err := db.Event(c.ID, want.Seq)
		if err != nil || !reflect.DeepEqual(read, want) {
			t.Errorf("%s: Event = %+v, %v; want %+v", tt.name, read, err, want)
		}
	}
	db = reopen(t, db, path, clock)
	if got := mustEvents(t, db, c.ID); !reflect.DeepEqual(got, stored) {
		t.Errorf("Events after reopen:\n got %+v\nwant %+v", got, stored)
	}
}

func TestStreaming(t *testing.T) {
	db, path, clock := openTest(t)
	c := mustConv(t, db, "")
	mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "tell me"})

	// A reply streamed and finished.
	r := mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Status: StatusStreaming})
	for _, p := range []string{"Once ", "upon ", "a time."} {
		if err := db.AppendText(c.ID, r.Seq, p); err != nil {
			t.Fatal(err)
		}
	}
	mid, _ := db.Event(c.ID, r.Seq)
	if mid.Status != StatusStreaming || mid.Text != "Once upon a time." {
		t.Errorf("mid-stream event = %+v", mid)
	}
	if err := db.FinishEvent(c.ID, r.Seq, StatusComplete); err != nil {
		t.Fatal(err)
	}
	wantErr(t, db.AppendText(c.ID, r.Seq, "more"), ErrNotStreaming)
	wantErr(t, db.FinishEvent(c.ID, r.Seq, StatusComplete), ErrNotStreaming)
	wantErr(t, db.FinishEvent(c.ID, r.Seq, StatusStreaming), ErrInvalidEvent)
	wantErr(t, db.AppendText(c.ID, 99, "x"), ErrNotFound)

	// A reply cancelled by the user.
	r2 := mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Status: StatusStreaming, Text: "Let me"})
	if err := db.AppendText(c.ID, r2.Seq, " think"); err != nil {
		t.Fatal(err)
	}
	if err := db.FinishEvent(c.ID, r2.Seq, StatusInterrupted); err != nil {
		t.Fatal(err)
	}

	// A reply cut off by a crash (Close stands in for it: nothing finishes it).
	r3 := mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Status: StatusStreaming})
	if err := db.AppendText(c.ID, r3.Seq, "The answer is"); err != nil {
		t.Fatal(err)
	}

	db = reopen(t, db, path, clock)
	want := []struct {
		text   string
		status Status
	}{
		{"tell me", StatusComplete},
		{"Once upon a time.", StatusComplete},
		{"Let me think", StatusInterrupted},
		{"The answer is", StatusInterrupted},
	}
	got := mustEvents(t, db, c.ID)
	if len(got) != len(want) {
		t.Fatalf("got %d events, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].Text != w.text || got[i].Status != w.status {
			t.Errorf("event %d = %q/%q, want %q/%q", i+1, got[i].Text, got[i].Status, w.text, w.status)
		}
	}
	wantErr(t, db.AppendText(c.ID, r3.Seq, "42"), ErrNotStreaming)
	assertNoStreamingIndex(t, db)
}

func assertNoStreamingIndex(t *testing.T, db *DB) {
	t.Helper()
	_ = db.bolt.View(func(tx *bolt.Tx) error {
		if n := tx.Bucket([]byte(bucketStreaming)).Stats().KeyN; n != 0 {
			t.Errorf("streaming index holds %d keys, want 0", n)
		}
		return nil
	})
}

func TestDeleteConversationForgetsStreams(t *testing.T) {
	db, path, clock := openTest(t)
	a := mustConv(t, db, "")
	b := mustConv(t, db, "")
	mustAppend(t, db, a.ID, Event{Type: EventAssistantText, Status: StatusStreaming, Text: "a"})
	rb := mustAppend(t, db, b.ID, Event{Type: EventAssistantText, Status: StatusStreaming, Text: "b"})
	if err := db.DeleteConversation(a.ID); err != nil {
		t.Fatal(err)
	}
	db = reopen(t, db, path, clock)
	assertNoStreamingIndex(t, db)
	if e, _ := db.Event(b.ID, rb.Seq); e.Status != StatusInterrupted {
		t.Errorf("other conversation's reply status = %q, want interrupted", e.Status)
	}
}

func TestUpdateEvent(t *testing.T) {
	db, path, clock := openTest(t)
	c := mustConv(t, db, "")
	e := mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Text: "draft"})

	upd := Event{Seq: e.Seq, Type: EventAssistantText, Text: "final", Model: "m"}
	if err := db.UpdateEvent(c.ID, upd); err != nil {
		t.Fatal(err)
	}
	got, _ := db.Event(c.ID, e.Seq)
	if got.Text != "final" || got.Model != "m" || !got.Time.Equal(e.Time) {
		t.Errorf("updated = %+v (time should be kept: %v)", got, e.Time)
	}
	wantErr(t, db.UpdateEvent(c.ID, Event{Seq: 42, Type: EventError}), ErrNotFound)
	wantErr(t, db.UpdateEvent(c.ID, Event{Seq: e.Seq, Type: "bogus"}), ErrInvalidEvent)

	// Setting streaming through UpdateEvent indexes it like AppendEvent.
	upd.Status = StatusStreaming
	if err := db.UpdateEvent(c.ID, upd); err != nil {
		t.Fatal(err)
	}
	db = reopen(t, db, path, clock)
	if got, _ := db.Event(c.ID, e.Seq); got.Status != StatusInterrupted {
		t.Errorf("status after reopen = %q, want interrupted", got.Status)
	}
}

func TestEventsPaging(t *testing.T) {
	db, _, _ := openTest(t)
	c := mustConv(t, db, "")
	for i := 1; i <= 25; i++ {
		mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: strings.Repeat("x", i)})
	}
	seqs := func(evs []Event) []uint64 {
		var s []uint64
		for _, e := range evs {
			s = append(s, e.Seq)
			if len(e.Text) != int(e.Seq) {
				t.Errorf("event %d carries text of event %d", e.Seq, len(e.Text))
			}
		}
		return s
	}
	span := func(a, b uint64) []uint64 {
		var s []uint64
		for i := a; i <= b; i++ {
			s = append(s, i)
		}
		return s
	}
	tests := []struct {
		name      string
		before    uint64
		n         int
		want      []uint64
		useEvents bool
	}{
		{"all", 0, 0, span(1, 25), true},
		{"last 5", 0, 5, span(21, 25), false},
		{"last more than all", 0, 100, span(1, 25), false},
		{"page before 21", 21, 5, span(16, 20), false},
		{"page near start", 3, 10, span(1, 2), false},
		{"before 1", 1, 10, nil, false},
		{"before past end", 100, 3, span(23, 25), false},
		{"before, unlimited", 5, 0, span(1, 4), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var evs []Event
			var err error
			if tt.useEvents {
				evs, err = db.Events(c.ID)
			} else {
				evs, err = db.EventsBefore(c.ID, tt.before, tt.n)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := seqs(evs); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("seqs = %v, want %v", got, tt.want)
			}
		})
	}
	last, err := db.LastEvents(c.ID, 2)
	if err != nil || !reflect.DeepEqual(seqs(last), []uint64{24, 25}) {
		t.Errorf("LastEvents(2) = %v, %v", seqs(last), err)
	}
}

func TestDamagedEventIsShownNotHidden(t *testing.T) {
	db, _, _ := openTest(t)
	c := mustConv(t, db, "")
	mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "one"})
	mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "two"})
	mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "three"})
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		return eventBucket(tx, c.ID).Put(encodeU64(2), []byte("{not json"))
	})
	if err != nil {
		t.Fatal(err)
	}
	got := mustEvents(t, db, c.ID)
	if len(got) != 3 || got[0].Text != "one" || got[2].Text != "three" {
		t.Fatalf("events = %+v", got)
	}
	if got[1].Seq != 2 || got[1].Type != EventError || !got[1].IsError || got[1].Text == "" {
		t.Errorf("damaged event placeholder = %+v", got[1])
	}
	wantErr(t, db.AppendText(c.ID, 2, "x"), ErrCorrupt)
}

func TestSecretsRedactedOnWrite(t *testing.T) {
	const key = "sk-live-ABCDEF123456"
	db, _, _ := openTest(t)
	if err := db.SetSecret("OPENAI_API_KEY", key); err != nil {
		t.Fatal(err)
	}
	c := mustConv(t, db, "")
	user := mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "my key is " + key + " ok"})
	call := mustAppend(t, db, c.ID, Event{Type: EventToolCall, ToolCallID: "1", ToolName: "http",
		Arguments: json.RawMessage(`{"headers":{"Authorization":"Bearer ` + key + `"}}`)})
	appr := mustAppend(t, db, c.ID, Event{Type: EventApproval, Decision: &Decision{Kind: Denied, Reason: "sends " + key}})
	// The key arrives split across streamed pieces.
	r := mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Status: StatusStreaming, Text: "Using sk-li"})
	for _, p := range []string{"ve-ABC", "DEF123", "456 now"} {
		if err := db.AppendText(c.ID, r.Seq, p); err != nil {
			t.Fatal(err)
		}
	}
	upd := mustAppend(t, db, c.ID, Event{Type: EventToolResult, ToolCallID: "1", Text: "pending"})
	if err := db.UpdateEvent(c.ID, Event{Seq: upd.Seq, Type: EventToolResult, ToolCallID: "1", Text: "echo " + key}); err != nil {
		t.Fatal(err)
	}
	if err := db.SetTitle(c.ID, "about "+key); err != nil {
		t.Fatal(err)
	}

	if user.Text != "my key is [redacted:OPENAI_API_KEY] ok" {
		t.Errorf("returned event text = %q", user.Text)
	}
	if string(call.Arguments) != `{"headers":{"Authorization":"Bearer [redacted:OPENAI_API_KEY]"}}` {
		t.Errorf("returned arguments = %s", call.Arguments)
	}
	if appr.Decision.Reason != "sends [redacted:OPENAI_API_KEY]" {
		t.Errorf("returned reason = %q", appr.Decision.Reason)
	}
	conv, _ := db.GetConversation(c.ID)
	if conv.Title != "about [redacted:OPENAI_API_KEY]" {
		t.Errorf("title = %q", conv.Title)
	}
	// Nothing stored anywhere in the conversation contains the key.
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return eventBucket(tx, c.ID).ForEach(func(k, v []byte) error {
			if strings.Contains(string(v), key) {
				t.Errorf("event %x stored the secret: %s", k, v)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := db.Event(c.ID, r.Seq); e.Text != "Using [redacted:OPENAI_API_KEY] now" {
		t.Errorf("streamed text = %q", e.Text)
	}
}

// TestStreamingHoldsBackSecretPrefix: a crash mid-secret must not leave the
// start of the secret on disk.
func TestStreamingHoldsBackSecretPrefix(t *testing.T) {
	const key = "sk-live-ABCDEF123456"
	db, path, clock := openTest(t)
	if err := db.SetSecret("KEY", key); err != nil {
		t.Fatal(err)
	}
	c := mustConv(t, db, "")
	steps := []struct {
		piece, stored string
	}{
		{"Your key is sk-l", "Your key is "},
		{"ive-ABCDEF12", "Your key is "},
		{"3456, keep it safe", "Your key is [redacted:KEY], keep it safe"},
		{" sk-live-XYZ 9", "Your key is [redacted:KEY], keep it safe sk-live-XYZ 9"}, // not the key after all (9 begins none of its forms)
		{" and sk-live-AB", "Your key is [redacted:KEY], keep it safe sk-live-XYZ 9 and "},
	}
	r := mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Status: StatusStreaming})
	for i, s := range steps {
		if err := db.AppendText(c.ID, r.Seq, s.piece); err != nil {
			t.Fatal(err)
		}
		if e, _ := db.Event(c.ID, r.Seq); e.Text != s.stored {
			t.Errorf("step %d: stored %q, want %q", i, e.Text, s.stored)
		}
	}
	// Finishing flushes the held tail.
	r2 := mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Status: StatusStreaming, Text: "ends with sk-li"})
	if r2.Text != "ends with " {
		t.Errorf("AppendEvent stored %q, want the possible key start held back", r2.Text)
	}
	if err := db.AppendText(c.ID, r2.Seq, "ve"); err != nil {
		t.Fatal(err)
	}
	if err := db.FinishEvent(c.ID, r2.Seq, StatusComplete); err != nil {
		t.Fatal(err)
	}
	if e, _ := db.Event(c.ID, r2.Seq); e.Text != "ends with sk-live" {
		t.Errorf("finished text = %q", e.Text)
	}
	// A crash loses the held tail; the rest reads back interrupted.
	db = reopen(t, db, path, clock)
	e, _ := db.Event(c.ID, r.Seq)
	if e.Status != StatusInterrupted || e.Text != steps[len(steps)-1].stored {
		t.Errorf("after crash: %q %q", e.Status, e.Text)
	}
}

// Reasoning streams into a thinking event like a reply, keeps its
// signature, and a reply stopped at the length limit says so.
func TestThinkingAndLengthEvents(t *testing.T) {
	db, _, _ := openTest(t)
	c := mustConv(t, db, "")
	mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "6*7?"})
	th := mustAppend(t, db, c.ID, Event{Type: EventThinking, Status: StatusStreaming})
	for _, p := range []string{"Six ", "sevens."} {
		if err := db.AppendText(c.ID, th.Seq, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.FinishEvent(c.ID, th.Seq, StatusComplete); err != nil {
		t.Fatal(err)
	}
	got, _ := db.Event(c.ID, th.Seq)
	got.Signature = "sig-abc"
	if err := db.UpdateEvent(c.ID, got); err != nil {
		t.Fatal(err)
	}
	r := mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Status: StatusStreaming, Text: "The first"})
	if err := db.FinishEvent(c.ID, r.Seq, StatusLength); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, db, c.ID, Event{Type: EventNotice, Text: "llama2 cannot call tools"})
	events, err := db.Events(c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if e := events[1]; e.Type != EventThinking || e.Text != "Six sevens." || e.Signature != "sig-abc" || e.Status != StatusComplete {
		t.Errorf("thinking event %+v", e)
	}
	if e := events[2]; e.Status != StatusLength || e.Text != "The first" {
		t.Errorf("length-stopped reply %+v", e)
	}
	if events[3].Type != EventNotice {
		t.Errorf("notice %+v", events[3])
	}
}
