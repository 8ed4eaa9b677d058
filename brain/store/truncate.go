package store

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// TruncateFrom removes the conversation's events from seq on (seq itself
// included), in one transaction: editing and resending a message, or
// regenerating a reply, replaces what followed. It returns how many events
// went. A seq past the end removes nothing. Versions kept after the
// events removed go with them; KeepVersion keeps what it removes.
func (d *DB) TruncateFrom(id ID, seq uint64) (int, error) {
	removed := 0
	var gone []uint64
	w := d.cache.begin(id, max(seq, 1))
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		eb := eventBucket(tx, id)
		if eb == nil {
			return fmt.Errorf("conversation %s: %w", id, ErrNotFound)
		}
		c := eb.Cursor()
		for k, _ := c.Seek(encodeU64(seq)); k != nil; k, _ = c.Next() {
			if s, ok := decodeU64(k); ok {
				gone = append(gone, s)
			}
		}
		if err := unindexEvents(eb, id, gone); err != nil {
			return err
		}
		sb := tx.Bucket([]byte(bucketStreaming))
		for _, s := range gone {
			if err := eb.Delete(encodeU64(s)); err != nil {
				return fmt.Errorf("delete event %d: %w", s, err)
			}
			if err := deleteStream(sb, id, s); err != nil {
				return err
			}
		}
		// Only the images of the events removed: a kept version's events
		// may have later seqs (versions.go).
		ib := tx.Bucket([]byte(bucketImages))
		for _, s := range gone {
			if err := deleteImages(ib, streamKey(id, s)); err != nil {
				return err
			}
		}
		if err := dropVersionsAfter(tx, id, gone); err != nil {
			return err
		}
		removed = len(gone)
		return d.touch(tx, id, nil, -removed)
	})
	d.cache.end(w, err == nil, truncateAt(seq))
	if err != nil {
		return 0, fmt.Errorf("truncate conversation %s: %w", id, err)
	}
	d.streamMu.Lock()
	for _, s := range gone {
		delete(d.tails, tailKey(id, s))
	}
	d.streamMu.Unlock()
	return removed, nil
}
