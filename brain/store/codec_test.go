package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

func TestDecodeEvent(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    Event
		wantErr error
	}{
		{"minimal", `{"type":"error","time":"2025-01-02T03:04:05Z"}`,
			Event{Type: EventError, Time: mustTime(t, "2025-01-02T03:04:05Z")}, nil},
		{"raw arguments restored", `{"type":"tool_call","time":"0001-01-01T00:00:00Z","rawArguments":"{broken"}`,
			Event{Type: EventToolCall, Arguments: json.RawMessage("{broken")}, nil},
		{"unknown type and field kept", `{"type":"future","time":"0001-01-01T00:00:00Z","newField":1}`,
			Event{Type: "future"}, nil},
		{"fix kept", `{"type":"tool_result","time":"0001-01-01T00:00:00Z","isError":true,"fix":{"action":"Enable calc","command":["caps","enable","calc"],"page":"capabilities","target":"calc"}}`,
			Event{Type: EventToolResult, IsError: true, Fix: &hint.Hint{Action: "Enable calc", Command: []string{"caps", "enable", "calc"},
				Page: hint.PageCapabilities, Target: "calc"}}, nil},
		{"bad fix", `{"type":"tool_result","fix":"enable it"}`, Event{}, ErrCorrupt},
		{"no type", `{"text":"x"}`, Event{}, ErrCorrupt},
		{"not JSON", `{`, Event{}, ErrCorrupt},
		{"array", `[]`, Event{}, ErrCorrupt},
		{"bad time", `{"type":"error","time":"yesterday"}`, Event{}, ErrCorrupt},
		{"bad usage", `{"type":"usage","usage":{"inputTokens":"many"}}`, Event{}, ErrCorrupt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeEvent([]byte(tt.in))
			wantErr(t, err, tt.wantErr)
			if err == nil && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("decodeEvent = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func mustTime(t *testing.T, s string) (tm time.Time) {
	t.Helper()
	if err := tm.UnmarshalText([]byte(s)); err != nil {
		t.Fatal(err)
	}
	return tm
}

// FuzzDecodeEvent: stored bytes never panic the decoder, and whatever
// decodes re-encodes to a fixed point.
func FuzzDecodeEvent(f *testing.F) {
	f.Add([]byte(`{"seq":3,"type":"assistant_text","time":"2025-03-01T12:00:01Z","text":"hi","model":"m","status":"streaming"}`))
	f.Add([]byte(`{"seq":1,"type":"tool_call","time":"2025-03-01T12:00:01Z","toolCallId":"c","toolName":"t","arguments":{"a":[1,2]}}`))
	f.Add([]byte(`{"seq":1,"type":"tool_call","time":"2025-03-01T12:00:01Z","rawArguments":"{\"a\":"}`))
	f.Add([]byte(`{"seq":2,"type":"approval","time":"2025-03-01T12:00:01Z","decision":{"kind":"denied","reason":"no"}}`))
	f.Add([]byte(`{"seq":2,"type":"usage","time":"2025-03-01T12:00:01Z","usage":{"inputTokens":1,"outputTokens":2,"cachedTokens":3}}`))
	f.Add([]byte(`{"type":"x","arguments":null}`))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := decodeEvent(b)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		b2, err := encodeEvent(e)
		if err != nil {
			return // e.g. a time outside years 0-9999 cannot be written back
		}
		e2, err := decodeEvent(b2)
		if err != nil {
			t.Fatalf("re-encoded event does not decode: %v\n%s", err, b2)
		}
		b3, err := encodeEvent(e2)
		if err != nil || !bytes.Equal(b2, b3) {
			t.Fatalf("encoding is not a fixed point:\n%s\n%s (%v)", b2, b3, err)
		}
		if e2.Type != e.Type || e2.Text != e.Text || e2.Status != e.Status || e2.ToolCallID != e.ToolCallID {
			t.Fatalf("round trip changed the event: %+v → %+v", e, e2)
		}
	})
}

// FuzzDecodeConversation: same properties for conversation records.
func FuzzDecodeConversation(f *testing.F) {
	f.Add([]byte(`{"id":"c1","title":"Trip","model":"m","created":"2025-03-01T12:00:01Z","updated":"2025-03-01T12:00:02Z","loaded":["web","files"],"events":4}`))
	f.Add([]byte(`{"events":-1}`))
	f.Add([]byte(`{"id":"c0"}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := decodeConversation(7, b)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		if c.ID != 7 {
			t.Fatalf("ID = %d, want the key's 7", c.ID)
		}
		b2, err := encodeConversation(c)
		if err != nil {
			return
		}
		c2, err := decodeConversation(7, b2)
		if err != nil {
			t.Fatalf("re-encoded record does not decode: %v\n%s", err, b2)
		}
		if b3, _ := encodeConversation(c2); !bytes.Equal(b2, b3) {
			t.Fatalf("encoding is not a fixed point:\n%s\n%s", b2, b3)
		}
	})
}
