package store

import (
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// DB remembers what each MCP capability's server offers (its tools,
// prompts and resources as last listed), so the index shows its tool
// count and tool_search finds its tools without the server running.
var _ cerebellum.CatalogStore = (*DB)(nil)

// RemoteCatalog returns the stored catalog of MCP capability name.
func (d *DB) RemoteCatalog(name string) (cerebellum.Catalog, bool, error) {
	var out cerebellum.Catalog
	if !validCapName(name) {
		return out, false, nil
	}
	var raw []byte
	err := d.bolt.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket([]byte(bucketMCPCatalogs)).Get([]byte(name)); v != nil {
			raw = append([]byte(nil), v...)
		}
		return nil
	})
	if err != nil {
		return out, false, fmt.Errorf("read the MCP tool list of %s: %w", name, err)
	}
	if raw == nil {
		return out, false, nil
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return cerebellum.Catalog{}, false, fmt.Errorf("read the MCP tool list of %s: %w: %v", name, ErrCorrupt, err)
	}
	return out, true, nil
}

// SetRemoteCatalog stores the catalog of MCP capability name.
func (d *DB) SetRemoteCatalog(name string, c cerebellum.Catalog) error {
	if !validCapName(name) {
		return fmt.Errorf("store an MCP tool list: %w: capability %q", ErrInvalidName, name)
	}
	raw, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("store the MCP tool list of %s: %w", name, err)
	}
	err = d.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketMCPCatalogs)).Put([]byte(name), raw)
	})
	if err != nil {
		return fmt.Errorf("store the MCP tool list of %s: %w", name, err)
	}
	return nil
}

// DeleteRemoteCatalog forgets the catalog of name; a missing one is not an error.
func (d *DB) DeleteRemoteCatalog(name string) error {
	if !validCapName(name) {
		return nil
	}
	err := d.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketMCPCatalogs)).Delete([]byte(name))
	})
	if err != nil {
		return fmt.Errorf("forget the MCP tool list of %s: %w", name, err)
	}
	return nil
}
