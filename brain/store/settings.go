package store

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Setting returns a stored setting.
func (d *DB) Setting(key string) (string, error) {
	var v string
	err := d.bolt.View(func(tx *bolt.Tx) error {
		raw := tx.Bucket([]byte(bucketSettings)).Get([]byte(key))
		if raw == nil {
			return fmt.Errorf("setting %q: %w", key, ErrNotFound)
		}
		v = string(raw)
		return nil
	})
	return v, err
}

// SetSetting stores a setting; keys follow the secret-name rules.
func (d *DB) SetSetting(key, value string) error {
	if !validName(key) {
		return fmt.Errorf("set setting: %w: %q", ErrInvalidName, key)
	}
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketSettings)).Put([]byte(key), []byte(value))
	})
	if err != nil {
		return fmt.Errorf("set setting %s: %w", key, err)
	}
	return nil
}

// DeleteSetting removes a setting; removing an absent one is not an error.
func (d *DB) DeleteSetting(key string) error {
	if !validName(key) {
		return nil
	}
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketSettings)).Delete([]byte(key))
	})
	if err != nil {
		return fmt.Errorf("delete setting %s: %w", key, err)
	}
	return nil
}
