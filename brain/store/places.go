package store

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// SecretPlaces is where a secret may go, besides the model's redaction.
// A provider's API key is bound to one origin; other secrets to the
// capabilities the person assigned them to. The record is kept apart from
// the value: a name may be assigned before its value is stored, and a
// key set again keeps its assignments (the caller binds its origin anew).
type SecretPlaces struct {
	// Host is the origin (scheme://host, and :port when not the scheme's
	// default) that a provider key may be sent to; "" when not bound. A
	// file written before origins were holds host[:port] alone, which the
	// application core upgrades at start.
	Host string `json:"host,omitempty"`
	// Capabilities are the capabilities that may reference the secret,
	// sorted.
	Capabilities []string `json:"capabilities,omitempty"`
	// Destinations holds, for each of Capabilities, where that capability
	// sent what it was given when the secret was assigned (a fingerprint
	// the application core makes of an MCP server's address or command,
	// a plugin's hosts): the assignment holds only while the capability
	// still sends there, not for another one installed under its name.
	// Missing for an assignment made before destinations were recorded.
	Destinations map[string]string `json:"destinations,omitempty"`
}

// Allows reports whether capability may use the secret, wherever it
// sends it (AllowsAt says whether for destination).
func (p SecretPlaces) Allows(capability string) bool {
	_, ok := slices.BinarySearch(p.Capabilities, capability)
	return ok
}

// AllowsAt reports whether capability may use the secret while it sends
// it to destination, as when it was assigned.
func (p SecretPlaces) AllowsAt(capability, destination string) bool {
	d, ok := p.Destinations[capability]
	return ok && d == destination && p.Allows(capability)
}

// SecretPlaces returns where secret name may go: the zero SecretPlaces
// when nothing was bound or assigned.
func (d *DB) SecretPlaces(name string) (SecretPlaces, error) {
	var p SecretPlaces
	err := d.bolt.View(func(tx *bolt.Tx) error {
		var err error
		p, err = readPlaces(tx, name)
		return err
	})
	return p, err
}

// BindSecretHost records the one host secret name (a provider key) may
// be sent to; "" unbinds it.
func (d *DB) BindSecretHost(name, host string) error {
	return d.changePlaces("bind secret "+name, name, func(p *SecretPlaces) { p.Host = host })
}

// AssignSecret lets capability reference secret name while it sends
// what it is given to destination (assigning again records the new one).
// The secret need not be stored yet.
func (d *DB) AssignSecret(name, capability, destination string) error {
	if capability == "" {
		return fmt.Errorf("assign secret %s: %w: no capability named", name, ErrInvalidName)
	}
	return d.changePlaces("assign secret "+name, name, func(p *SecretPlaces) { assign(p, capability, destination) })
}

func assign(p *SecretPlaces, capability, destination string) {
	if i, ok := slices.BinarySearch(p.Capabilities, capability); !ok {
		p.Capabilities = slices.Insert(p.Capabilities, i, capability)
	}
	if p.Destinations == nil {
		p.Destinations = map[string]string{}
	}
	p.Destinations[capability] = destination
}

// UnassignSecret withdraws capability's use of secret name; withdrawing
// what was not assigned is not an error.
func (d *DB) UnassignSecret(name, capability string) error {
	return d.changePlaces("unassign secret "+name, name, func(p *SecretPlaces) { unassign(p, capability) })
}

// unassign takes capability out of p, saying whether it was in.
func unassign(p *SecretPlaces, capability string) bool {
	delete(p.Destinations, capability)
	if len(p.Destinations) == 0 {
		p.Destinations = nil
	}
	i, ok := slices.BinarySearch(p.Capabilities, capability)
	if ok {
		p.Capabilities = slices.Delete(p.Capabilities, i, i+1)
	}
	return ok
}

// UnassignAll withdraws every secret assigned to capability (it was
// removed, or now sends elsewhere) in one transaction, and returns their
// names, sorted.
func (d *DB) UnassignAll(capability string) ([]string, error) {
	var names []string
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		all, err := allPlaces(tx)
		if err != nil {
			return err
		}
		for _, name := range slices.Sorted(maps.Keys(all)) {
			p := all[name]
			if unassign(&p, capability) {
				names = append(names, name)
				if err := writePlaces(tx, name, p); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("withdraw the secrets of %s: %w", capability, err)
	}
	return names, nil
}

// RecordDestinations gives each assignment made before destinations were
// recorded the one destinationOf says its capability has now, once per
// file: an assignment whose capability is gone (ok false) is withdrawn,
// so a capability installed later under its name does not inherit it.
// It returns the assignments withdrawn, as "secret → capability".
func (d *DB) RecordDestinations(destinationOf func(capability string) (destination string, ok bool)) ([]string, error) {
	var dropped []string
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		meta := tx.Bucket([]byte(bucketMeta))
		if meta.Get([]byte(keyDestinationsRecorded)) != nil {
			return nil
		}
		all, err := allPlaces(tx)
		if err != nil {
			return err
		}
		for _, name := range slices.Sorted(maps.Keys(all)) {
			p := all[name]
			changed := false
			for _, capName := range slices.Clone(p.Capabilities) {
				if _, ok := p.Destinations[capName]; ok {
					continue
				}
				changed = true
				if dest, ok := destinationOf(capName); ok {
					assign(&p, capName, dest)
				} else {
					unassign(&p, capName)
					dropped = append(dropped, name+" → "+capName)
				}
			}
			if changed {
				if err := writePlaces(tx, name, p); err != nil {
					return err
				}
			}
		}
		return meta.Put([]byte(keyDestinationsRecorded), []byte{1})
	})
	if err != nil {
		return nil, fmt.Errorf("record where assigned secrets go: %w", err)
	}
	return dropped, nil
}

func allPlaces(tx *bolt.Tx) (map[string]SecretPlaces, error) {
	all := map[string]SecretPlaces{}
	err := tx.Bucket([]byte(bucketSecretPlaces)).ForEach(func(k, v []byte) error {
		var p SecretPlaces
		if err := json.Unmarshal(v, &p); err != nil {
			return fmt.Errorf("read places of secret %s: %w: %w", k, ErrCorrupt, err)
		}
		all[string(k)] = p
		return nil
	})
	return all, err
}

// SecretsAssignedTo lists the secrets capability may reference, sorted.
func (d *DB) SecretsAssignedTo(capability string) ([]string, error) {
	var out []string
	err := d.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketSecretPlaces)).ForEach(func(k, v []byte) error {
			var p SecretPlaces
			if err := json.Unmarshal(v, &p); err != nil {
				return fmt.Errorf("read places of secret %s: %w: %w", k, ErrCorrupt, err)
			}
			if p.Allows(capability) {
				out = append(out, string(k))
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list secrets of %s: %w", capability, err)
	}
	return out, nil
}

func (d *DB) changePlaces(what, name string, fn func(*SecretPlaces)) error {
	if !validName(name) {
		return fmt.Errorf("%s: %w: %q (use letters, digits, '_', '.', '-', up to %d characters)", what, ErrInvalidName, name, MaxNameLen)
	}
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		p, err := readPlaces(tx, name)
		if err != nil {
			return err
		}
		fn(&p)
		return writePlaces(tx, name, p)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

func readPlaces(tx *bolt.Tx, name string) (SecretPlaces, error) {
	var p SecretPlaces
	raw := tx.Bucket([]byte(bucketSecretPlaces)).Get([]byte(name))
	if raw == nil {
		return p, nil
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return p, fmt.Errorf("read places of secret %s: %w: %w", name, ErrCorrupt, err)
	}
	return p, nil
}

func writePlaces(tx *bolt.Tx, name string, p SecretPlaces) error {
	b := tx.Bucket([]byte(bucketSecretPlaces))
	if p.Host == "" && len(p.Capabilities) == 0 {
		return b.Delete([]byte(name))
	}
	raw, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return b.Put([]byte(name), raw)
}

// assignMovedSecrets is the one-time start of the secret_places bucket in a
// file written before it existed: each secret that Wrasse itself made
// from an MCP server's literal value (mcp.<capability>.<variable>, when
// the server was added or imported) is assigned to that capability, as a
// server added now gets it. Every other reference must be assigned by the
// person.
func assignMovedSecrets(tx *bolt.Tx) error {
	meta := tx.Bucket([]byte(bucketMeta))
	if meta.Get([]byte(keyPlacesStarted)) != nil {
		return nil
	}
	var names []string
	if err := tx.Bucket([]byte(bucketSecrets)).ForEach(func(k, _ []byte) error {
		names = append(names, string(k))
		return nil
	}); err != nil {
		return err
	}
	for _, name := range names {
		capName, ok := MovedSecretCapability(name)
		if !ok {
			continue
		}
		p, err := readPlaces(tx, name)
		if err != nil {
			return err
		}
		if !p.Allows(capName) {
			// Its destination is recorded when the application opens
			// the file (RecordDestinations).
			i, _ := slices.BinarySearch(p.Capabilities, capName)
			p.Capabilities = slices.Insert(p.Capabilities, i, capName)
		}
		if err := writePlaces(tx, name, p); err != nil {
			return err
		}
	}
	return meta.Put([]byte(keyPlacesStarted), []byte{1})
}

// MovedSecretCapability is the capability a secret named
// mcp.<capability>.<variable> was made for, when name has that form.
func MovedSecretCapability(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, "mcp.")
	if !ok {
		return "", false
	}
	capName, _, ok := strings.Cut(rest, ".")
	return capName, ok && capName != ""
}
