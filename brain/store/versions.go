package store

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// Versions of a conversation. Editing a message or regenerating a reply
// does not overwrite what followed: KeepVersion moves the events from the
// message on (the tail) into the versions bucket, attached to the event
// before it (the anchor; 0 when the tail starts the conversation), and the
// new message starts a new tail after the same anchor. The tails after one
// anchor are that place's versions, numbered in the order they were made
// (by their first seq: seqs only grow). The live events are always the
// versions chosen, so everything that reads a conversation (the agent, the
// window, export, search) sees a plain event list; SwitchVersion swaps the
// live tail with a kept one in one transaction.
//
// A kept tail keeps its events' seqs and their stored bytes, so its images
// (keyed by seq) stay where they are and a version edited inside a kept
// tail (a group whose anchor is in it) comes back with it. Kept events are
// not in the search index until they are live again.

// ErrNoVersion means a version asked for does not exist (the message has
// fewer versions, or none kept).
var ErrNoVersion = errors.New("no such version of the message")

// Version says which of a message's versions is shown (N, from 1) and
// how many there are (Of, at least 2: a message with one has none).
type Version struct {
	N, Of int
}

// versionGroup is the versions bucket of the tails after anchor in
// conversation id; nil when none was kept. create makes it.
func versionGroup(tx *bolt.Tx, id ID, anchor uint64, create bool) (*bolt.Bucket, error) {
	vb := tx.Bucket([]byte(bucketVersions))
	cb := vb.Bucket(conversationKey(id))
	if cb == nil {
		if !create {
			return nil, nil
		}
		var err error
		if cb, err = vb.CreateBucket(conversationKey(id)); err != nil {
			return nil, fmt.Errorf("create versions of %s: %w", id, err)
		}
	}
	gb := cb.Bucket(encodeU64(anchor))
	if gb == nil && create {
		var err error
		if gb, err = cb.CreateBucket(encodeU64(anchor)); err != nil {
			return nil, fmt.Errorf("create versions after event %d: %w", anchor, err)
		}
	}
	return gb, nil
}

// anchorOf is the live event before seq (0 when none is).
func anchorOf(eb *bolt.Bucket, seq uint64) uint64 {
	c := eb.Cursor()
	k, _ := c.Seek(encodeU64(seq))
	if k == nil {
		k, _ = c.Last()
	} else {
		k, _ = c.Prev()
	}
	if s, ok := decodeU64(k); ok && s < seq {
		return s
	}
	return 0
}

// liveFrom lists the live events' seqs from seq on.
func liveFrom(eb *bolt.Bucket, seq uint64) []uint64 {
	var out []uint64
	c := eb.Cursor()
	for k, _ := c.Seek(encodeU64(seq)); k != nil; k, _ = c.Next() {
		if s, ok := decodeU64(k); ok {
			out = append(out, s)
		}
	}
	return out
}

// keepTail moves the live events seqs (a tail, in order) into gb under
// the tail's first seq, out of the search index and the streaming bucket
// (a reply left streaming is kept as interrupted, with its text so far).
func (d *DB) keepTail(tx *bolt.Tx, id ID, eb, gb *bolt.Bucket, seqs []uint64) error {
	if len(seqs) == 0 {
		return nil
	}
	tb, err := gb.CreateBucket(encodeU64(seqs[0]))
	if err != nil {
		return fmt.Errorf("keep the version from event %d: %w", seqs[0], err)
	}
	if err := unindexEvents(eb, id, seqs); err != nil {
		return err
	}
	sb := tx.Bucket([]byte(bucketStreaming))
	for _, s := range seqs {
		raw := bytes.Clone(eb.Get(encodeU64(s)))
		if sb.Get(streamKey(id, s)) != nil {
			e := d.readEvent(tx, id, s, raw)
			e.Status = StatusInterrupted
			if raw, err = encodeEvent(e); err != nil {
				return err
			}
		}
		if err := deleteStream(sb, id, s); err != nil {
			return err
		}
		if err := tb.Put(encodeU64(s), raw); err != nil {
			return fmt.Errorf("keep event %d: %w", s, err)
		}
		if err := eb.Delete(encodeU64(s)); err != nil {
			return fmt.Errorf("delete event %d: %w", s, err)
		}
	}
	return nil
}

// restoreTail makes the kept tail head of gb live again (indexed) and
// removes it from gb. It returns the events restored.
func restoreTail(eb, gb *bolt.Bucket, id ID, head uint64) (int, error) {
	tb := gb.Bucket(encodeU64(head))
	if tb == nil {
		return 0, fmt.Errorf("version from event %d: %w", head, ErrNoVersion)
	}
	n := 0
	err := tb.ForEach(func(k, raw []byte) error {
		s, ok := decodeU64(k)
		if !ok {
			return nil
		}
		e, err := decodeEvent(raw)
		if err == nil {
			e.Seq = s
			if err := indexEvent(eb, id, e); err != nil {
				return err
			}
		}
		n++
		if err := eb.Put(encodeU64(s), bytes.Clone(raw)); err != nil {
			return fmt.Errorf("restore event %d: %w", s, err)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, gb.DeleteBucket(encodeU64(head))
}

// members are the versions after one anchor: the kept tails' first seqs
// and the live one's, in the order they were made.
func members(gb *bolt.Bucket, live uint64) []uint64 {
	out := []uint64{}
	if live != 0 {
		out = append(out, live)
	}
	_ = gb.ForEach(func(k, v []byte) error {
		if s, ok := decodeU64(k); ok && v == nil {
			out = append(out, s)
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// firstUser reports whether no live user message comes before seq: a
// tail from seq holds the message that names the conversation.
func firstUser(d *DB, tx *bolt.Tx, id ID, eb *bolt.Bucket, seq uint64) bool {
	c := eb.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		s, ok := decodeU64(k)
		if !ok || s >= seq {
			return true
		}
		if d.readEvent(tx, id, s, v).Type == EventUserMessage {
			return false
		}
	}
	return true
}

// KeepVersion keeps the conversation's events from seq on as a version
// of that place (see Versions) and removes them from the live events, in
// one transaction: the next event appended starts the new version. When
// they hold the message that named the conversation, and the title is
// still the one it made, the title is cleared so the new message names it
// again (a title the person gave stays). It returns how many events were
// kept; a seq past the end keeps none.
func (d *DB) KeepVersion(id ID, seq uint64) (int, error) {
	kept := 0
	var gone []uint64
	w := d.cache.begin(id, max(seq, 1))
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		eb := eventBucket(tx, id)
		if eb == nil {
			return fmt.Errorf("conversation %s: %w", id, ErrNotFound)
		}
		gone = liveFrom(eb, seq)
		if len(gone) == 0 {
			return nil
		}
		c, err := getConversation(tx, id)
		if err != nil {
			return err
		}
		if firstUser(d, tx, id, eb, gone[0]) {
			head := d.readEvent(tx, id, gone[0], eb.Get(encodeU64(gone[0])))
			if head.Type == EventUserMessage && c.Title == MakeTitle(head.Text) {
				c.Title = ""
				if err := putConversation(tx, c); err != nil {
					return err
				}
			}
		}
		gb, err := versionGroup(tx, id, anchorOf(eb, gone[0]), true)
		if err != nil {
			return err
		}
		if err := d.keepTail(tx, id, eb, gb, gone); err != nil {
			return err
		}
		kept = len(gone)
		return d.touch(tx, id, nil, -kept)
	})
	d.cache.end(w, err == nil, truncateAt(seq))
	if err != nil {
		return 0, fmt.Errorf("keep a version of conversation %s: %w", id, err)
	}
	d.forgetTails(id, gone)
	return kept, nil
}

// SwitchVersion shows version n (from 1) of the place whose live version
// starts at event seq: the live events from seq on are kept as a version
// and version n's become live, in one transaction. The title follows the
// first message when it is still the one that message made. It returns
// the seq the live version now starts at (seq itself when n is the one
// shown).
func (d *DB) SwitchVersion(id ID, seq uint64, n int) (uint64, error) {
	var head uint64
	var gone []uint64
	w := d.cache.begin(id, 1) // the live events may change anywhere
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		eb := eventBucket(tx, id)
		if eb == nil {
			return fmt.Errorf("conversation %s: %w", id, ErrNotFound)
		}
		if eb.Get(encodeU64(seq)) == nil {
			return fmt.Errorf("event %d: %w", seq, ErrNotFound)
		}
		anchor := anchorOf(eb, seq)
		gb, err := versionGroup(tx, id, anchor, false)
		if err != nil {
			return err
		}
		if gb == nil {
			return fmt.Errorf("message %d has one version: %w", seq, ErrNoVersion)
		}
		all := members(gb, seq)
		if n < 1 || n > len(all) {
			return fmt.Errorf("version %d of %d: %w", n, len(all), ErrNoVersion)
		}
		head = all[n-1]
		if head == seq {
			return nil
		}
		c, err := getConversation(tx, id)
		if err != nil {
			return err
		}
		first := firstUser(d, tx, id, eb, seq)
		old := d.readEvent(tx, id, seq, eb.Get(encodeU64(seq)))
		gone = liveFrom(eb, seq)
		if err := d.keepTail(tx, id, eb, gb, gone); err != nil {
			return err
		}
		back, err := restoreTail(eb, gb, id, head)
		if err != nil {
			return err
		}
		if first && old.Type == EventUserMessage && c.Title == MakeTitle(old.Text) {
			if raw := eb.Get(encodeU64(head)); raw != nil {
				if e := d.readEvent(tx, id, head, raw); e.Type == EventUserMessage {
					c.Title = MakeTitle(e.Text)
					if err := putConversation(tx, c); err != nil {
						return err
					}
				}
			}
		}
		return d.touch(tx, id, nil, back-len(gone))
	})
	// The live events changed in the middle: read them afresh.
	d.cache.end(w, false, nil)
	if err != nil {
		return 0, fmt.Errorf("switch to version %d of message %d of %s: %w", n, seq, id, err)
	}
	d.forgetTails(id, gone)
	return head, nil
}

// Versions says, for each live event that starts a place with kept
// versions, which version it is and how many there are.
func (d *DB) Versions(id ID) (map[uint64]Version, error) {
	out := map[uint64]Version{}
	err := d.bolt.View(func(tx *bolt.Tx) error {
		eb := eventBucket(tx, id)
		if eb == nil {
			return fmt.Errorf("conversation %s: %w", id, ErrNotFound)
		}
		cb := tx.Bucket([]byte(bucketVersions)).Bucket(conversationKey(id))
		if cb == nil {
			return nil
		}
		return cb.ForEach(func(k, v []byte) error {
			anchor, ok := decodeU64(k)
			if !ok || v != nil || (anchor != 0 && eb.Get(k) == nil) {
				return nil // an anchor in a kept version: not live
			}
			h, _ := eb.Cursor().Seek(encodeU64(anchor + 1))
			live, ok := decodeU64(h)
			if !ok {
				return nil // nothing follows it now
			}
			all := members(cb.Bucket(k), live)
			if len(all) > 1 {
				out[live] = Version{N: slices.Index(all, live) + 1, Of: len(all)}
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("versions of %s: %w", id, err)
	}
	return out, nil
}

// VersionEvents are the events of each version not shown of the place
// whose live version starts at seq, by version number (from 1): for
// export. The live version's number has none.
func (d *DB) VersionEvents(id ID, seq uint64) (map[int][]Event, error) {
	out := map[int][]Event{}
	err := d.bolt.View(func(tx *bolt.Tx) error {
		eb := eventBucket(tx, id)
		if eb == nil {
			return fmt.Errorf("conversation %s: %w", id, ErrNotFound)
		}
		gb, err := versionGroup(tx, id, anchorOf(eb, seq), false)
		if gb == nil || err != nil {
			return err
		}
		for i, head := range members(gb, seq) {
			tb := gb.Bucket(encodeU64(head))
			if tb == nil {
				continue
			}
			_ = tb.ForEach(func(k, v []byte) error {
				if s, ok := decodeU64(k); ok {
					out[i+1] = append(out[i+1], d.readEvent(tx, id, s, v))
				}
				return nil
			})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("versions of %s event %d: %w", id, seq, err)
	}
	return out, nil
}

// dropVersionsAfter removes the versions kept after the events seqs (gone
// for good), with their images, and so on for versions kept inside them.
func dropVersionsAfter(tx *bolt.Tx, id ID, seqs []uint64) error {
	cb := tx.Bucket([]byte(bucketVersions)).Bucket(conversationKey(id))
	if cb == nil {
		return nil
	}
	ib := tx.Bucket([]byte(bucketImages))
	for len(seqs) > 0 {
		s := seqs[0]
		seqs = seqs[1:]
		gb := cb.Bucket(encodeU64(s))
		if gb == nil {
			continue
		}
		var kept []uint64
		_ = gb.ForEach(func(head, v []byte) error {
			if tb := gb.Bucket(head); v == nil && tb != nil {
				_ = tb.ForEach(func(k, _ []byte) error {
					if e, ok := decodeU64(k); ok {
						kept = append(kept, e)
					}
					return nil
				})
			}
			return nil
		})
		if err := cb.DeleteBucket(encodeU64(s)); err != nil {
			return fmt.Errorf("delete versions after event %d: %w", s, err)
		}
		for _, e := range kept {
			if err := deleteImages(ib, streamKey(id, e)); err != nil {
				return err
			}
		}
		seqs = append(seqs, kept...)
	}
	return nil
}

// forgetTails drops held stream tails of events that left the live list.
func (d *DB) forgetTails(id ID, seqs []uint64) {
	d.streamMu.Lock()
	defer d.streamMu.Unlock()
	for _, s := range seqs {
		delete(d.tails, tailKey(id, s))
	}
}
