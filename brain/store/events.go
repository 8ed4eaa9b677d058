package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// EventType says what happened.
type EventType string

const (
	// EventUserMessage is what the user wrote (Text).
	EventUserMessage EventType = "user_message"
	// EventAssistantText is the model's reply text (Text, Model), possibly
	// streamed.
	EventAssistantText EventType = "assistant_text"
	// EventToolCall is one tool call the model made (ToolCallID, ToolName,
	// Arguments).
	EventToolCall EventType = "tool_call"
	// EventToolResult answers a call (ToolCallID, ToolName, Text, IsError).
	EventToolResult EventType = "tool_result"
	// EventError is a failure shown to the user (Text), not sent to the model.
	EventError EventType = "error"
	// EventApproval is the safety gate's decision on a call (ToolCallID,
	// ToolName, Decision).
	EventApproval EventType = "approval"
	// EventUsage is token accounting for one response (Usage, Model).
	EventUsage EventType = "usage"
	// EventThinking is the model's reasoning before or between its answer
	// and calls (Text, Model), possibly streamed, with the Signature or
	// Redacted data its provider must get back with it (Anthropic). Shown
	// apart from the answer, kept and exported; never sent to the model as
	// answer text (ToMessages gives it to the assistant message it
	// belongs to, as Thinking).
	EventThinking EventType = "thinking"
	// EventNotice is a sentence for the person about the model's answer
	// (Text): "llama2 cannot call tools, so it answers without them". Not
	// sent to the model.
	EventNotice EventType = "notice"
)

// Status is an event's completion state.
type Status string

const (
	// StatusComplete (empty) marks an ordinary, finished event.
	StatusComplete Status = ""
	// StatusStreaming marks a reply still being written with AppendText.
	StatusStreaming Status = "streaming"
	// StatusInterrupted marks a reply cut off (crash, cancel, provider
	// failure); Text holds what was written before.
	StatusInterrupted Status = "interrupted"
	// StatusLength marks a reply the model stopped at its length limit
	// (finish_reason length, done_reason length, stop_reason max_tokens):
	// complete as far as it goes, but not finished. A front end shows
	// "stopped: length" with Continue.
	StatusLength Status = "length"
)

// DecisionKind is the safety gate's verdict on one tool call.
type DecisionKind string

const (
	ApprovedOnce         DecisionKind = "approved_once"
	ApprovedConversation DecisionKind = "approved_conversation"
	Denied               DecisionKind = "denied"
	Blocked              DecisionKind = "blocked"
)

// Decision is recorded by approval events.
type Decision struct {
	Kind   DecisionKind `json:"kind"`
	Reason string       `json:"reason,omitempty"`
	// Hosts are the network hosts the answer was about (host keys, as
	// gate.HostKey gives them); with ApprovedConversation the
	// conversation may reach them from then on.
	Hosts []string `json:"hosts,omitempty"`
	// HostsOnly marks an answer about the hosts alone (a host reached in
	// the middle of a call): it approves nothing else of the call.
	HostsOnly bool `json:"hostsOnly,omitempty"`
}

// Event is one entry of a conversation's durable history. Which fields are
// used depends on Type (see the EventType constants).
type Event struct {
	// Seq numbers events within a conversation from 1, in order.
	Seq        uint64          `json:"seq"`
	Type       EventType       `json:"type"`
	Time       time.Time       `json:"time"`
	Text       string          `json:"text,omitempty"`
	ToolCallID string          `json:"toolCallId,omitempty"`
	ToolName   string          `json:"toolName,omitempty"`
	Arguments  json.RawMessage `json:"arguments,omitempty"`
	IsError    bool            `json:"isError,omitempty"`
	Decision   *Decision       `json:"decision,omitempty"`
	Usage      *provider.Usage `json:"usage,omitempty"`
	Model      string          `json:"model,omitempty"`
	Status     Status          `json:"status,omitempty"`
	// Images are the pictures a tool result carries or the person
	// attached to their message; their bytes are stored apart from the
	// event (images.go).
	Images []provider.Image `json:"images,omitempty"`
	// ToolRefs are the tools a tool result made callable (see
	// provider.Message.ToolRefs); kept so every later request sends the
	// same bytes for it.
	ToolRefs []string `json:"toolRefs,omitempty"`
	// ParentCallID, on the tool_call, approval and tool_result events of a
	// call a code-mode program made, is the ToolCallID of the program's
	// own call (run_go). Such events are shown nested under that call and
	// never sent to the model: only what the program printed is.
	ParentCallID string `json:"parentCallId,omitempty"`
	// Fix, on a tool_result, is what the user can do about the failure
	// (the hint of the registry's error, such as granting a plugin its
	// permissions): the window offers it as a button on the call's card.
	Fix *hint.Hint `json:"fix,omitempty"`
	// Signature, on a thinking event, is its provider's signature of the
	// text, sent back unchanged with it; Redacted is the encrypted data of
	// a block the provider withheld (Text then empty).
	Signature string `json:"signature,omitempty"`
	Redacted  string `json:"redacted,omitempty"`
}

// validate checks what the loop can get wrong; stored events are not
// re-validated on read (a newer Wrasse may write more).
func (e Event) validate() error {
	switch e.Type {
	case EventUserMessage, EventAssistantText, EventToolCall, EventToolResult, EventError, EventUsage, EventThinking, EventNotice:
	case EventApproval:
		if e.Decision == nil {
			return fmt.Errorf("%w: an approval needs a Decision", ErrInvalidEvent)
		}
		switch e.Decision.Kind {
		case ApprovedOnce, ApprovedConversation, Denied, Blocked:
		default:
			return fmt.Errorf("%w: decision %q is not one of approved_once, approved_conversation, denied, blocked", ErrInvalidEvent, e.Decision.Kind)
		}
	default:
		return fmt.Errorf("%w: type %q is not one of user_message, assistant_text, tool_call, tool_result, error, approval, usage, thinking, notice", ErrInvalidEvent, e.Type)
	}
	if e.Type == EventUsage && e.Usage == nil {
		return fmt.Errorf("%w: a usage event needs Usage", ErrInvalidEvent)
	}
	switch e.Status {
	case StatusComplete, StatusStreaming, StatusInterrupted, StatusLength:
	default:
		return fmt.Errorf("%w: status %q is not one of \"\", streaming, interrupted, length", ErrInvalidEvent, e.Status)
	}
	return nil
}

func putEvent(eb *bolt.Bucket, id ID, e Event) error {
	b, err := encodeEvent(e)
	if err != nil {
		return err
	}
	// The index, in the same transaction, first: it reads the words of
	// the record this one replaces.
	if err := indexEvent(eb, id, e); err != nil {
		return err
	}
	if err := eb.Put(encodeU64(e.Seq), b); err != nil {
		return fmt.Errorf("write event %d: %w", e.Seq, err)
	}
	return nil
}

// readEvent decodes one stored event; a damaged one becomes a visible error
// event instead of hiding the rest of the conversation. A streaming reply
// reads with the pieces stored so far.
func (d *DB) readEvent(tx *bolt.Tx, id ID, seq uint64, raw []byte) Event {
	return d.readEventAs(tx, id, seq, raw, true)
}

// readEventAs is readEvent; without imageBytes the event's images carry
// their type only (see PageBefore).
func (d *DB) readEventAs(tx *bolt.Tx, id ID, seq uint64, raw []byte, imageBytes bool) Event {
	e, err := decodeEvent(raw)
	if err != nil {
		d.log.Warn("damaged event", "conversation", id.String(), "seq", seq, "err", err)
		return Event{Seq: seq, Type: EventError, IsError: true,
			Text: "This part of the conversation is damaged in the workspace database and cannot be shown."}
	}
	e.Seq = seq
	if imageBytes {
		loadImages(tx, id, &e)
	}
	if e.Status == StatusStreaming {
		e.Text = joinPieces(e.Text, tx.Bucket([]byte(bucketStreaming)), id, seq, "")
	}
	return e
}

// setStreaming keeps the streaming bucket in step with an event's status:
// the event's pieces go (its Text now holds everything), and its index key
// stays only while it streams.
func setStreaming(tx *bolt.Tx, id ID, e Event) error {
	sb := tx.Bucket([]byte(bucketStreaming))
	if err := deleteStream(sb, id, e.Seq); err != nil {
		return err
	}
	if e.Status == StatusStreaming {
		return sb.Put(streamKey(id, e.Seq), nil)
	}
	return nil
}

// pieces joins the text pieces stored for a streaming reply, in order.
func pieces(sb *bolt.Bucket, id ID, seq uint64) string {
	return joinPieces("", sb, id, seq, "")
}

// joinPieces is head, the pieces stored for a streaming reply and tail,
// joined into one string made at its full size: a long reply's text is
// copied once, not grown by doubling and then copied again.
func joinPieces(head string, sb *bolt.Bucket, id ID, seq uint64, tail string) string {
	prefix := streamKey(id, seq)
	size := len(head) + len(tail)
	c := sb.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if len(k) == 24 {
			size += len(v)
		}
	}
	var b strings.Builder
	b.Grow(size)
	b.WriteString(head)
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if len(k) == 24 {
			b.Write(v)
		}
	}
	b.WriteString(tail)
	return b.String()
}

// nextPiece is the number of a streaming reply's next piece.
func nextPiece(sb *bolt.Bucket, id ID, seq uint64) uint64 {
	c := sb.Cursor()
	k, _ := c.Seek(pieceKey(id, seq, math.MaxUint64))
	if k == nil {
		k, _ = c.Last()
	} else {
		k, _ = c.Prev()
	}
	if len(k) == 24 && bytes.HasPrefix(k, streamKey(id, seq)) {
		return binary.BigEndian.Uint64(k[16:]) + 1
	}
	return 1
}

// deleteStream removes a reply's index key and pieces.
func deleteStream(sb *bolt.Bucket, id ID, seq uint64) error {
	prefix := streamKey(id, seq)
	var keys [][]byte
	c := sb.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		keys = append(keys, append([]byte(nil), k...))
	}
	for _, k := range keys {
		if err := sb.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// touch moves the conversation's Updated time, and names it from the first
// user message.
func (d *DB) touch(tx *bolt.Tx, id ID, e *Event, added int) error {
	c, err := getConversation(tx, id)
	if err != nil {
		return err
	}
	c.Updated = d.stamp()
	c.EventCount += added
	if e != nil && e.Type == EventUserMessage && c.Title == "" {
		c.Title = MakeTitle(e.Text)
	}
	return putConversation(tx, c)
}

// AppendEvent stores e as the conversation's next event, in its own
// committed transaction, and returns it as stored: Seq assigned, Time set to
// the clock when zero (always UTC), secrets redacted. To stream a reply,
// append it with Status StatusStreaming, then use AppendText and FinishEvent
// (streamed text may end held back: see AppendText).
func (d *DB) AppendEvent(id ID, e Event) (Event, error) {
	if err := e.validate(); err != nil {
		return Event{}, fmt.Errorf("append event to %s: %w", id, err)
	}
	e = d.Redactor().Event(e)
	if e.Time.IsZero() {
		e.Time = d.stamp()
	} else {
		e.Time = e.Time.UTC().Round(0)
	}
	e.Arguments = slices.Clone(e.Arguments)
	var tail string
	if e.Status == StatusStreaming {
		// Hold back a possible secret start, as AppendText does.
		d.streamMu.Lock()
		defer d.streamMu.Unlock()
		e.Text, tail = d.Redactor().Hold(e.Text)
	}
	var stored Event
	w := d.cache.begin(id, 0)
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		eb := eventBucket(tx, id)
		if eb == nil {
			return fmt.Errorf("conversation %s: %w", id, ErrNotFound)
		}
		seq, err := eb.NextSequence()
		if err != nil {
			return err
		}
		e.Seq = seq
		if err := putEvent(eb, id, e); err != nil {
			return err
		}
		if err := putImages(tx, id, e); err != nil {
			return err
		}
		if err := setStreaming(tx, id, e); err != nil {
			return err
		}
		// What a read will give, for the cache.
		stored = d.readEvent(tx, id, seq, eb.Get(encodeU64(seq)))
		return d.touch(tx, id, &e, 1)
	})
	d.cache.end(w, err == nil, appendEvent(stored))
	if err != nil {
		return Event{}, fmt.Errorf("append event to %s: %w", id, err)
	}
	if tail != "" {
		d.setTail(tailKey(id, e.Seq), tail)
	}
	return e, nil
}

// AppendText adds one streamed piece to a streaming reply and commits it.
// Pieces are stored append-only, each under its own key, so a piece costs
// the same however long the reply already is; reads join them, and
// FinishEvent folds them into the event. Each piece is redacted; an ending
// that may be the start of a secret is held in memory until the next piece
// or FinishEvent, so a secret split across pieces is still caught and a
// crash cannot leave part of a secret on disk. Callers may coalesce pieces;
// each call is one fsync.
func (d *DB) AppendText(id ID, seq uint64, piece string) error {
	red := d.Redactor()
	d.streamMu.Lock()
	defer d.streamMu.Unlock()
	key := tailKey(id, seq)
	var tail, show string
	w := d.cache.begin(id, seq)
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		if _, _, err := d.streamingEvent(tx, id, seq); err != nil {
			return err
		}
		// Stored text never ends with the start of a secret, so no secret
		// straddles the stored text and this piece.
		show, tail = red.Hold(d.tails[key] + piece)
		if show == "" {
			return nil
		}
		sb := tx.Bucket([]byte(bucketStreaming))
		if err := sb.Put(pieceKey(id, seq, nextPiece(sb, id, seq)), []byte(show)); err != nil {
			return fmt.Errorf("write text piece: %w", err)
		}
		return nil
	})
	d.cache.end(w, err == nil, appendText(seq, show))
	if err != nil {
		return fmt.Errorf("append text to %s event %d: %w", id, seq, err)
	}
	d.setTail(key, tail)
	return nil
}

func (d *DB) setTail(key [16]byte, tail string) {
	if tail == "" {
		delete(d.tails, key)
	} else {
		d.tails[key] = tail
	}
}

// FinishEvent ends a streaming reply with StatusComplete, with
// StatusInterrupted when it was cancelled or the provider failed, or with
// StatusLength when the model stopped at its length limit.
func (d *DB) FinishEvent(id ID, seq uint64, status Status) error {
	if status != StatusComplete && status != StatusInterrupted && status != StatusLength {
		return fmt.Errorf("finish %s event %d: %w: status must be complete, interrupted or length, not %q", id, seq, ErrInvalidEvent, status)
	}
	red := d.Redactor()
	d.streamMu.Lock()
	defer d.streamMu.Unlock()
	key := tailKey(id, seq)
	var stored Event
	w := d.cache.begin(id, seq)
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		eb, e, err := d.streamingEvent(tx, id, seq)
		if err != nil {
			return err
		}
		// One pass over the whole text also catches a secret added while
		// the reply streamed.
		e.Text = red.String(joinPieces(e.Text, tx.Bucket([]byte(bucketStreaming)), id, seq, d.tails[key]))
		e.Status = status
		if err := putEvent(eb, id, e); err != nil {
			return err
		}
		if err := setStreaming(tx, id, e); err != nil {
			return err
		}
		// e is the stored record decoded, now complete: what a read will
		// give, without decoding a long reply's text again.
		stored = e
		loadImages(tx, id, &stored)
		return d.touch(tx, id, nil, 0)
	})
	d.cache.end(w, err == nil, setEvent(stored))
	if err != nil {
		return fmt.Errorf("finish %s event %d: %w", id, seq, err)
	}
	d.setTail(key, "")
	return nil
}

func (d *DB) streamingEvent(tx *bolt.Tx, id ID, seq uint64) (*bolt.Bucket, Event, error) {
	eb := eventBucket(tx, id)
	if eb == nil {
		return nil, Event{}, fmt.Errorf("conversation %s: %w", id, ErrNotFound)
	}
	raw := eb.Get(encodeU64(seq))
	if raw == nil {
		return nil, Event{}, fmt.Errorf("event %d: %w", seq, ErrNotFound)
	}
	e, err := decodeEvent(raw)
	if err != nil {
		return nil, Event{}, err
	}
	e.Seq = seq
	if e.Status != StatusStreaming {
		return nil, Event{}, fmt.Errorf("status %q: %w", e.Status, ErrNotStreaming)
	}
	return eb, e, nil
}

// UpdateEvent replaces the stored event e.Seq (for example to fill in a
// result or correct a streamed reply's final text). A zero Time keeps the
// stored time. Secrets are redacted.
func (d *DB) UpdateEvent(id ID, e Event) error {
	if err := e.validate(); err != nil {
		return fmt.Errorf("update %s event %d: %w", id, e.Seq, err)
	}
	e = d.Redactor().Event(e)
	e.Arguments = slices.Clone(e.Arguments)
	// The update carries the whole event: a held tail no longer applies.
	d.streamMu.Lock()
	defer d.streamMu.Unlock()
	var stored Event
	w := d.cache.begin(id, max(e.Seq, 1))
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		eb := eventBucket(tx, id)
		if eb == nil {
			return fmt.Errorf("conversation %s: %w", id, ErrNotFound)
		}
		raw := eb.Get(encodeU64(e.Seq))
		if raw == nil {
			return fmt.Errorf("event %d: %w", e.Seq, ErrNotFound)
		}
		if e.Time.IsZero() {
			e.Time = d.readEvent(tx, id, e.Seq, raw).Time
		}
		e.Time = e.Time.UTC().Round(0)
		if err := putEvent(eb, id, e); err != nil {
			return err
		}
		if err := putImages(tx, id, e); err != nil {
			return err
		}
		if err := setStreaming(tx, id, e); err != nil {
			return err
		}
		stored = d.readEvent(tx, id, e.Seq, eb.Get(encodeU64(e.Seq)))
		return d.touch(tx, id, nil, 0)
	})
	d.cache.end(w, err == nil, setEvent(stored))
	if err != nil {
		return fmt.Errorf("update %s event %d: %w", id, e.Seq, err)
	}
	d.setTail(tailKey(id, e.Seq), "")
	return nil
}

// Event returns one event.
func (d *DB) Event(id ID, seq uint64) (Event, error) {
	var e Event
	err := d.bolt.View(func(tx *bolt.Tx) error {
		eb := eventBucket(tx, id)
		if eb == nil {
			return fmt.Errorf("conversation %s: %w", id, ErrNotFound)
		}
		raw := eb.Get(encodeU64(seq))
		if raw == nil {
			return fmt.Errorf("event %d: %w", seq, ErrNotFound)
		}
		e = d.readEvent(tx, id, seq, raw)
		return nil
	})
	if err != nil {
		return Event{}, fmt.Errorf("read %s event %d: %w", id, seq, err)
	}
	return e, nil
}

// Events returns all of a conversation's events in order. The last few
// conversations read are kept decoded in memory (evcache.go), so reading
// one again costs a copy of the slice, not a decode of its history; the
// events returned share their byte slices and pointers (Arguments, Images,
// Decision…) with that copy and must not be changed in place.
func (d *DB) Events(id ID) ([]Event, error) {
	d.historyReads.Add(1)
	if evs, ok := d.cache.get(id); ok {
		return evs, nil
	}
	r := d.cache.reading(id)
	evs, err := d.EventsBefore(id, 0, 0)
	if err != nil {
		d.cache.install(id, cacheRead{}, nil, 0)
		return nil, err
	}
	d.cache.install(id, r, evs, 0)
	return evs, nil
}

// SharedEvents is Events without the copy, for a reader that only reads
// (the agent at the start of a turn): when the conversation is cached, the
// slice returned is the cache's own, its capacity its length (appending to
// it copies it), and the cache never changes those events in place after
// lending them (it copies its slice first). The events must not be changed.
//
// epoch says which slice was lent: when two calls return the same epoch
// (never 0), the events the first returned are, unchanged, the first
// events of the second, so a reader that kept them need not compare them
// again; 0 says nothing (the history was decoded from the file).
func (d *DB) SharedEvents(id ID) (events []Event, epoch uint64, err error) {
	d.historyReads.Add(1)
	if evs, epoch, ok := d.cache.lend(id); ok {
		return evs, epoch, nil
	}
	r := d.cache.reading(id)
	evs, err := d.EventsBefore(id, 0, 0)
	if err != nil {
		d.cache.install(id, cacheRead{}, nil, 0)
		return nil, 0, err
	}
	d.cache.install(id, r, evs, 0)
	return evs, 0, nil
}

// SharedTail is SharedEvents for a reader that keeps only the tail of a
// conversation (the agent, whose requests can use only what fits the
// model's window): the events from seq from on, lent as SharedEvents lends
// them, when from is where the tail the reader kept begins (KeepTail) and
// no event before it was changed or removed since. ok false says it is
// not (an edit, a resend, a version switch before the tail, another
// reader's tail): the reader knows nothing valid of the events before
// from, and reads the whole history again (SharedEvents).
//
// A reader of a tail watches it for one reader only: two readers keeping
// tails of one conversation make each other read everything again.
func (d *DB) SharedTail(id ID, from uint64) (events []Event, epoch uint64, ok bool, err error) {
	d.historyReads.Add(1)
	evs, epoch, ok, loaded := d.cache.lendTail(id, from)
	if !ok || loaded {
		return evs, epoch, ok, nil
	}
	r := d.cache.reading(id)
	evs, err = d.eventsFrom(id, from)
	if err != nil {
		d.cache.install(id, cacheRead{}, nil, 0)
		return nil, 0, false, err
	}
	d.cache.install(id, r, evs, from)
	return evs, 0, true, nil
}

// KeepTail says that the reader of conversation id that read it last
// (SharedEvents or SharedTail) keeps only its events from seq from on
// (a user message): the cache drops the events before it, so a long
// conversation holds in memory only the tail its reader uses, and
// SharedTail(id, from) lends that tail until an event before from is
// changed or removed. It reports false, keeping nothing, when an event
// before from changed since that read: what the reader learnt of them is
// out of date.
func (d *DB) KeepTail(id ID, from uint64) bool {
	return d.cache.keepTail(id, from)
}

// eventsFrom reads the events with Seq >= from, in order.
func (d *DB) eventsFrom(id ID, from uint64) ([]Event, error) {
	var out []Event
	err := d.bolt.View(func(tx *bolt.Tx) error {
		eb := eventBucket(tx, id)
		if eb == nil {
			return fmt.Errorf("conversation %s: %w", id, ErrNotFound)
		}
		c := eb.Cursor()
		for k, v := c.Seek(encodeU64(from)); k != nil; k, v = c.Next() {
			if e, ok := d.keyedEvent(tx, id, k, v, true); ok {
				out = append(out, e)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read events of %s: %w", id, err)
	}
	return out, nil
}

// LastEvents returns the last n events in order (all when n <= 0).
func (d *DB) LastEvents(id ID, n int) ([]Event, error) {
	return d.EventsBefore(id, 0, n)
}

// EventsBefore returns, in order, up to n events with Seq < before: a page
// for scrolling back. before == 0 means from the end; n <= 0 means no limit.
func (d *DB) EventsBefore(id ID, before uint64, n int) ([]Event, error) {
	return d.eventsBefore(id, before, n, true)
}

// PageBefore is EventsBefore for a page the window shows: the events'
// images carry their type but no bytes, which ImageData reads when a
// thumbnail is drawn. A conversation of pictures then holds, in memory,
// the pixels of the rows in view only, not every picture's file.
func (d *DB) PageBefore(id ID, before uint64, n int) ([]Event, error) {
	return d.eventsBefore(id, before, n, false)
}

func (d *DB) eventsBefore(id ID, before uint64, n int, imageBytes bool) ([]Event, error) {
	var out []Event
	err := d.bolt.View(func(tx *bolt.Tx) error {
		eb := eventBucket(tx, id)
		if eb == nil {
			return fmt.Errorf("conversation %s: %w", id, ErrNotFound)
		}
		c := eb.Cursor()
		if n <= 0 && before == 0 {
			// Whole history: one forward pass, sized up front.
			if conv, err := getConversation(tx, id); err == nil {
				// Capped: a damaged count must not size a huge allocation.
				out = make([]Event, 0, min(conv.EventCount, 1<<16))
			}
			for k, v := c.First(); k != nil; k, v = c.Next() {
				if e, ok := d.keyedEvent(tx, id, k, v, imageBytes); ok {
					out = append(out, e)
				}
			}
			return nil
		}
		var k, v []byte
		if before == 0 {
			k, v = c.Last()
		} else if k, _ = c.Seek(encodeU64(before)); k == nil {
			k, v = c.Last() // every event is before `before`
		} else {
			k, v = c.Prev()
		}
		for ; k != nil && (n <= 0 || len(out) < n); k, v = c.Prev() {
			if e, ok := d.keyedEvent(tx, id, k, v, imageBytes); ok {
				out = append(out, e)
			}
		}
		slices.Reverse(out)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read events of %s: %w", id, err)
	}
	return out, nil
}

func (d *DB) keyedEvent(tx *bolt.Tx, id ID, k, v []byte, imageBytes bool) (Event, bool) {
	seq, ok := decodeU64(k)
	if !ok {
		d.log.Warn("skipping malformed event key", "conversation", id.String(), "key", fmt.Sprintf("%x", k))
		return Event{}, false
	}
	return d.readEventAs(tx, id, seq, v, imageBytes), true
}
