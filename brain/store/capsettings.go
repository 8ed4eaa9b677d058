package store

import (
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// DB persists capability settings for the capability engine.
var _ cerebellum.SettingsStore = (*DB)(nil)

// validCapName accepts what can key a capability's records.
func validCapName(name string) bool { return name != "" && len(name) <= bolt.MaxKeySize }

// CapSettings returns the stored setting values of one capability, keyed
// by setting key; a capability with none gives an empty map.
func (d *DB) CapSettings(name string) (map[string]string, error) {
	out := map[string]string{}
	if !validCapName(name) {
		return out, nil // cannot be stored, so nothing is
	}
	err := d.bolt.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketCapSettings)).Bucket([]byte(name))
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			out[string(k)] = string(v)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("read settings of %s: %w", name, err)
	}
	return out, nil
}

// SetCapSetting stores one setting value of a capability. The engine
// validates the value against the capability's declaration first; keys
// follow the setting-name rules.
func (d *DB) SetCapSetting(name, key, value string) error {
	if !validCapName(name) {
		return fmt.Errorf("set capability setting: %w: capability %q", ErrInvalidName, name)
	}
	if !validName(key) {
		return fmt.Errorf("set setting of %s: %w: %q (use letters, digits, '_', '.', '-', up to %d characters)", name, ErrInvalidName, key, MaxNameLen)
	}
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		b, err := tx.Bucket([]byte(bucketCapSettings)).CreateBucketIfNotExists([]byte(name))
		if err != nil {
			return err
		}
		return b.Put([]byte(key), []byte(value))
	})
	if err != nil {
		return fmt.Errorf("set %s of %s: %w", key, name, err)
	}
	return nil
}

// DeleteCapSetting forgets one setting value, so its default applies
// again; forgetting an unset one is not an error. The capability's bucket
// goes with its last value.
func (d *DB) DeleteCapSetting(name, key string) error {
	if !validCapName(name) || !validName(key) {
		return nil // cannot be stored, so nothing to forget
	}
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		parent := tx.Bucket([]byte(bucketCapSettings))
		b := parent.Bucket([]byte(name))
		if b == nil {
			return nil
		}
		if err := b.Delete([]byte(key)); err != nil {
			return err
		}
		if k, _ := b.Cursor().First(); k == nil {
			return parent.DeleteBucket([]byte(name))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("delete %s of %s: %w", key, name, err)
	}
	return nil
}
