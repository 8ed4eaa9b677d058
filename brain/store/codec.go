package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// Encoding of keys and values, kept apart from the transaction code.
// Values are JSON: debuggable with bbolt's CLI, stdlib only, small volumes.

func encodeU64(v uint64) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, v)
	return b
}

func decodeU64(b []byte) (uint64, bool) {
	if len(b) != 8 {
		return 0, false
	}
	return binary.BigEndian.Uint64(b), true
}

// streamKey indexes one streaming reply: conversation ID then seq, so the
// keys of one conversation are contiguous.
func streamKey(id ID, seq uint64) []byte {
	b := make([]byte, 16)
	binary.BigEndian.PutUint64(b, uint64(id))
	binary.BigEndian.PutUint64(b[8:], seq)
	return b
}

func tailKey(id ID, seq uint64) [16]byte { return [16]byte(streamKey(id, seq)) }

// pieceKey names piece n (from 1) of a streaming reply's text: the reply's
// streamKey then n, so a reply's pieces follow its index key in order.
func pieceKey(id ID, seq, n uint64) []byte {
	b := make([]byte, 24)
	binary.BigEndian.PutUint64(b, uint64(id))
	binary.BigEndian.PutUint64(b[8:], seq)
	binary.BigEndian.PutUint64(b[16:], n)
	return b
}

func decodeStreamKey(b []byte) (ID, uint64, bool) {
	if len(b) != 16 {
		return 0, 0, false
	}
	return ID(binary.BigEndian.Uint64(b)), binary.BigEndian.Uint64(b[8:]), true
}

// eventRecord is the stored form of an Event. It differs from Event only in
// how arguments that are not valid JSON are kept: models do write broken
// arguments, and the history must keep them verbatim.
type eventRecord struct {
	Seq          uint64          `json:"seq"`
	Type         EventType       `json:"type"`
	Time         time.Time       `json:"time"`
	Text         string          `json:"text,omitempty"`
	ToolCallID   string          `json:"toolCallId,omitempty"`
	ToolName     string          `json:"toolName,omitempty"`
	Arguments    json.RawMessage `json:"arguments,omitempty"`
	RawArguments string          `json:"rawArguments,omitempty"`
	IsError      bool            `json:"isError,omitempty"`
	Decision     *Decision       `json:"decision,omitempty"`
	Usage        *provider.Usage `json:"usage,omitempty"`
	Model        string          `json:"model,omitempty"`
	Status       Status          `json:"status,omitempty"`
	// Images describe the event's images; the bytes are in the images bucket.
	Images       []imageMeta `json:"images,omitempty"`
	ToolRefs     []string    `json:"toolRefs,omitempty"`
	ParentCallID string      `json:"parentCallId,omitempty"`
	Fix          *hint.Hint  `json:"fix,omitempty"`
	Signature    string      `json:"signature,omitempty"`
	Redacted     string      `json:"redacted,omitempty"`
}

func encodeEvent(e Event) ([]byte, error) {
	r := eventRecord{
		Seq: e.Seq, Type: e.Type, Time: e.Time, Text: e.Text,
		ToolCallID: e.ToolCallID, ToolName: e.ToolName, IsError: e.IsError,
		Decision: e.Decision, Usage: e.Usage, Model: e.Model, Status: e.Status,
		ToolRefs: e.ToolRefs, ParentCallID: e.ParentCallID, Fix: e.Fix, Signature: e.Signature, Redacted: e.Redacted,
	}
	r.Images = imageMetas(e.Images)
	if len(e.Arguments) > 0 {
		if json.Valid(e.Arguments) {
			r.Arguments = e.Arguments
		} else {
			r.RawArguments = string(e.Arguments)
		}
	}
	b, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("encode event: %w: %w", ErrInvalidEvent, err)
	}
	return b, nil
}

// decodeEvent decodes a stored event. It accepts unknown event types and
// fields (written by a newer Wrasse) and rejects anything that is not a JSON
// object of the right shape.
func decodeEvent(b []byte) (Event, error) {
	var r eventRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return Event{}, fmt.Errorf("decode event: %w: %w", ErrCorrupt, err)
	}
	if r.Type == "" {
		return Event{}, fmt.Errorf("decode event: no type: %w", ErrCorrupt)
	}
	e := Event{
		Seq: r.Seq, Type: r.Type, Time: r.Time, Text: r.Text,
		ToolCallID: r.ToolCallID, ToolName: r.ToolName, Arguments: r.Arguments,
		IsError: r.IsError, Decision: r.Decision, Usage: r.Usage, Model: r.Model,
		Status: r.Status, ToolRefs: r.ToolRefs, ParentCallID: r.ParentCallID, Fix: r.Fix, Signature: r.Signature, Redacted: r.Redacted,
	}
	e.Images = imagesOf(r.Images)
	if len(e.Arguments) == 0 && r.RawArguments != "" {
		e.Arguments = json.RawMessage(r.RawArguments)
	}
	return e, nil
}

func encodeConversation(c Conversation) ([]byte, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("encode conversation %s: %w", c.ID, err)
	}
	return b, nil
}

// decodeConversation decodes a stored conversation record; id comes from
// the key, never from the value.
func decodeConversation(id ID, b []byte) (Conversation, error) {
	var c Conversation
	if err := json.Unmarshal(b, &c); err != nil {
		return Conversation{}, fmt.Errorf("decode conversation %s: %w: %w", id, ErrCorrupt, err)
	}
	if c.EventCount < 0 {
		return Conversation{}, fmt.Errorf("decode conversation %s: negative event count: %w", id, ErrCorrupt)
	}
	c.ID = id
	return c, nil
}
