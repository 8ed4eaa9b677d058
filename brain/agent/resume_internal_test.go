package agent

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// identicalEvent compares every field of store.Event: a field added to it
// must be compared too, or a turn could continue a history that differs
// in it.
func TestIdenticalEventComparesEveryField(t *testing.T) {
	if n := reflect.TypeFor[store.Event]().NumField(); n != identicalEventFields {
		t.Fatalf("store.Event has %d fields, identicalEvent compares %d: compare the new ones and update identicalEventFields", n, identicalEventFields)
	}
}

// A turn continues the events its conversation's last turn ended with
// only when the store's history begins with exactly them; a difference in
// any one field of any one event makes it copy what the store has.
func TestResumeEventsContinuesOnlyAnIdenticalHistory(t *testing.T) {
	base := func() []store.Event {
		return []store.Event{
			{Seq: 1, Type: store.EventUserMessage, Time: time.Unix(100, 0), Text: "look", Images: []provider.Image{{MIMEType: "image/png", Data: []byte("png")}}},
			{Seq: 2, Type: store.EventToolCall, ToolCallID: "c1", ToolName: "fs_read", Arguments: json.RawMessage(`{"path":"a"}`), ParentCallID: "p"},
			{Seq: 3, Type: store.EventApproval, ToolCallID: "c1", Decision: &store.Decision{Kind: store.ApprovedConversation, Hosts: []string{"example.org"}}},
			{Seq: 4, Type: store.EventToolResult, ToolCallID: "c1", Text: "text", IsError: true, ToolRefs: []string{"t1"}, Fix: &hint.Hint{Action: "Grant it"}},
			{Seq: 5, Type: store.EventThinking, Signature: "sig", Redacted: "red"},
			{Seq: 6, Type: store.EventAssistantText, Text: "ok", Model: "m", Status: store.StatusComplete},
			{Seq: 7, Type: store.EventUsage, Usage: &provider.Usage{InputTokens: 3}},
		}
	}
	tests := []struct {
		name   string
		change func(e []store.Event)
	}{
		{"Seq", func(e []store.Event) { e[6].Seq = 8 }},
		{"Type", func(e []store.Event) { e[5].Type = store.EventError }},
		{"Time", func(e []store.Event) { e[0].Time = time.Unix(101, 0) }},
		{"Text", func(e []store.Event) { e[5].Text = "[redacted]" }},
		{"ToolCallID", func(e []store.Event) { e[3].ToolCallID = "c2" }},
		{"ToolName", func(e []store.Event) { e[1].ToolName = "fs_write" }},
		{"Arguments", func(e []store.Event) { e[1].Arguments = json.RawMessage(`{"path":"b"}`) }},
		{"IsError", func(e []store.Event) { e[3].IsError = false }},
		{"Decision", func(e []store.Event) { e[2].Decision = &store.Decision{Kind: store.ApprovedOnce} }},
		{"Usage", func(e []store.Event) { e[6].Usage = &provider.Usage{InputTokens: 4} }},
		{"Model", func(e []store.Event) { e[5].Model = "n" }},
		{"Status", func(e []store.Event) { e[5].Status = store.StatusInterrupted }},
		{"Images", func(e []store.Event) { e[0].Images = []provider.Image{{MIMEType: "image/png", Data: []byte("PNG")}} }},
		{"ToolRefs", func(e []store.Event) { e[3].ToolRefs = nil }},
		{"ParentCallID", func(e []store.Event) { e[1].ParentCallID = "" }},
		{"Fix", func(e []store.Event) { e[3].Fix = nil }},
		{"Signature", func(e []store.Event) { e[4].Signature = "other" }},
		{"Redacted", func(e []store.Event) { e[4].Redacted = "" }},
		{"one event fewer (an edit)", func(e []store.Event) {}},
	}
	if len(tests)-1 != identicalEventFields {
		t.Fatalf("%d fields changed, want each of the %d", len(tests)-1, identicalEventFields)
	}
	added := store.Event{Seq: 8, Type: store.EventUserMessage, Text: "next"}
	// Unchanged: the kept events are continued, not copied.
	kept := append(make([]store.Event, 0, 16), base()...)
	read := append(base(), added)
	got := resumeEvents(keptEvents{events: kept, lent: 4, epoch: 1}, read, 2)
	if !reflect.DeepEqual(got, read) {
		t.Fatalf("continued history differs from the store's:\n got %+v\nwant %+v", got, read)
	}
	if &got[0] != &kept[0] {
		t.Error("an unchanged history was copied instead of continued")
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			kept := append(make([]store.Event, 0, 16), base()...)
			read := append(base(), added)
			tc.change(read)
			if tc.name == "one event fewer (an edit)" {
				read = read[:len(kept)-1]
			}
			// Another slice lent (epoch 2, not 1): everything is compared.
			got := resumeEvents(keptEvents{events: kept, lent: 4, epoch: 1}, read, 2)
			if !reflect.DeepEqual(got, read) {
				t.Fatalf("the turn's history differs from the store's:\n got %+v\nwant %+v", got, read)
			}
			if &got[0] == &kept[0] {
				t.Error("a history that changed was continued")
			}
			if &got[0] == &read[0] {
				t.Error("the store's slice was handed to the turn to append to")
			}
		})
	}
}

// When the store lent the same slice as for the last turn (the same
// epoch), the events that turn read are not compared again (the store
// promises they are unchanged), but those it added still are.
func TestResumeEventsSameEpochComparesWhatTheLastTurnAdded(t *testing.T) {
	events := func() []store.Event {
		return []store.Event{
			{Seq: 1, Type: store.EventUserMessage, Text: "q1"},
			{Seq: 2, Type: store.EventAssistantText, Text: "a1"},
			{Seq: 3, Type: store.EventUserMessage, Text: "q2"},
			{Seq: 4, Type: store.EventAssistantText, Text: "a2"},
		}
	}
	tests := []struct {
		name      string
		change    func(e []store.Event)
		continued bool
	}{
		{"nothing changed", func([]store.Event) {}, true},
		{"the last turn's reply changed", func(e []store.Event) { e[3].Text = "[redacted]" }, false},
		{"the last turn's message changed", func(e []store.Event) { e[2].Seq = 5 }, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			kept := append(make([]store.Event, 0, 8), events()...)
			read := append(events(), store.Event{Seq: 5, Type: store.EventUserMessage, Text: "q3"})
			tc.change(read)
			got := resumeEvents(keptEvents{events: kept, lent: 2, epoch: 7}, read, 7)
			if !reflect.DeepEqual(got, read) {
				t.Fatalf("the turn's history differs from the store's:\n got %+v\nwant %+v", got, read)
			}
			if continued := &got[0] == &kept[0]; continued != tc.continued {
				t.Errorf("continued the kept events: %v, want %v", continued, tc.continued)
			}
		})
	}
}
