package store

import (
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// DB persists capability states for the capability engine.
var _ cerebellum.StateStore = (*DB)(nil)

// States returns every stored capability state, keyed by capability name.
// A damaged record is skipped (logged), so the capability falls back to
// its defaults rather than blocking startup.
func (d *DB) States() (map[string]cerebellum.CapState, error) {
	out := map[string]cerebellum.CapState{}
	err := d.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketCapabilities)).ForEach(func(k, v []byte) error {
			var s cerebellum.CapState
			if err := json.Unmarshal(v, &s); err != nil {
				d.log.Warn("damaged capability state; using defaults", "capability", string(k), "err", err)
				return nil
			}
			out[string(k)] = s
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("read capability states: %w", err)
	}
	return out, nil
}

// SetState stores the state of one capability.
func (d *DB) SetState(name string, s cerebellum.CapState) error {
	if name == "" || len(name) > bolt.MaxKeySize {
		return fmt.Errorf("set capability state: %w: %q", ErrInvalidName, name)
	}
	b, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("set capability state %s: %w", name, err)
	}
	err = d.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketCapabilities)).Put([]byte(name), b)
	})
	if err != nil {
		return fmt.Errorf("set capability state %s: %w", name, err)
	}
	return nil
}

// DeleteState forgets a capability's state; forgetting an unknown one is
// not an error.
func (d *DB) DeleteState(name string) error {
	if name == "" || len(name) > bolt.MaxKeySize {
		return nil // cannot be stored, so nothing to forget
	}
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketCapabilities)).Delete([]byte(name))
	})
	if err != nil {
		return fmt.Errorf("delete capability state %s: %w", name, err)
	}
	return nil
}
