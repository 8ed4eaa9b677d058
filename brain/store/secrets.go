package store

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// MaxNameLen bounds secret and setting names.
const MaxNameLen = 64

// ValidName accepts names made of ASCII letters, digits, '_', '.', '-',
// starting with a letter or '_' (API_KEY, openai.key), at most MaxNameLen
// bytes: the rule for secret and setting names. Such names are safe inside
// "[redacted:NAME]" in text and JSON.
func ValidName(name string) bool { return validName(name) }

func validName(name string) bool {
	if name == "" || len(name) > MaxNameLen {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case i > 0 && (c >= '0' && c <= '9' || c == '.' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// SetSecret stores a secret (an API key, a token). The value is kept
// unencrypted in the 0600 database file; from now on it is redacted from
// everything the store writes. History written earlier is not rewritten.
func (d *DB) SetSecret(name, value string) error {
	if !validName(name) {
		return fmt.Errorf("set secret: %w: %q (use letters, digits, '_', '.', '-', up to %d characters)", ErrInvalidName, name, MaxNameLen)
	}
	if value == "" {
		return fmt.Errorf("set secret %s: %w (use DeleteSecret to remove it)", name, ErrEmptyValue)
	}
	return d.changeSecrets("set secret "+name, func(b *bolt.Bucket) error {
		return b.Put([]byte(name), []byte(value))
	})
}

// DeleteSecret removes a secret.
func (d *DB) DeleteSecret(name string) error {
	return d.changeSecrets("delete secret "+name, func(b *bolt.Bucket) error {
		if b.Get([]byte(name)) == nil {
			return fmt.Errorf("secret %q: %w", name, ErrNotFound)
		}
		return b.Delete([]byte(name))
	})
}

// changeSecrets applies fn and rebuilds the redactor from the result.
func (d *DB) changeSecrets(what string, fn func(*bolt.Bucket) error) error {
	var secrets map[string]string
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		if err := fn(tx.Bucket([]byte(bucketSecrets))); err != nil {
			return err
		}
		var err error
		secrets, err = loadSecrets(tx)
		return err
	})
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	d.setSecrets(secrets)
	return nil
}

// Secret returns a secret's value.
func (d *DB) Secret(name string) (string, error) {
	var v string
	err := d.bolt.View(func(tx *bolt.Tx) error {
		raw := tx.Bucket([]byte(bucketSecrets)).Get([]byte(name))
		if raw == nil {
			return fmt.Errorf("secret %q: %w", name, ErrNotFound)
		}
		v = string(raw)
		return nil
	})
	return v, err
}

// SecretNames lists the stored secrets' names, sorted.
func (d *DB) SecretNames() ([]string, error) {
	var names []string
	err := d.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketSecrets)).ForEach(func(k, _ []byte) error {
			names = append(names, string(k))
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list secrets: %w", err)
	}
	return names, nil // bbolt iterates in byte order
}

func loadSecrets(tx *bolt.Tx) (map[string]string, error) {
	m := map[string]string{}
	err := tx.Bucket([]byte(bucketSecrets)).ForEach(func(k, v []byte) error {
		m[string(k)] = string(v)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read secrets: %w", err)
	}
	return m, nil
}
