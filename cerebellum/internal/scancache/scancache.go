// Package scancache is the file behind the manifest cache: what the last
// scan read from each capability folder, and which failures were logged,
// kept across runs so a start reads only the folders that changed.
//
// Read File first: Open decodes the whole file once (encoding/gob), Get and
// Put work in memory, and Save writes the whole file again (atomically, a
// temporary file renamed over it) when something changed. It is a cache:
// a missing, damaged or other-version file is an empty cache, and two
// processes saving at once lose only the other's entries, which the next
// scan reads again.
package scancache

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"

	"github.com/wrasse-app/wrasse/cerebellum/atomicfile"
)

// File is a cache file of entries V by key (a capability folder) and of
// logged failures by capability name. It is safe for concurrent use; the
// values Get returns are shared and must not be changed.
type File[V any] struct {
	path    string
	version string

	mu      sync.Mutex
	entries map[string]V
	fails   map[string]string
	// dirty is set by every change since the last save.
	dirty bool
}

// header opens the file: the version alone is decoded before the rest, so
// a file of another version is skipped without decoding its entries.
type header struct{ Version string }

// body is the rest of the file.
type body[V any] struct {
	Entries map[string]V
	Fails   map[string]string
}

// Open reads the file at path, written for version (an empty cache when
// it is missing, damaged or of another version). An empty path is a cache
// in memory only.
func Open[V any](path, version string) *File[V] {
	f := &File[V]{path: path, version: version, entries: map[string]V{}, fails: map[string]string{}}
	if path == "" {
		return f
	}
	file, err := os.Open(path)
	if err != nil {
		return f
	}
	defer file.Close()
	// Read through a buffer, not whole: the file (33 MB at 10,000
	// capabilities) need not be in memory beside what it decodes to.
	dec := gob.NewDecoder(bufio.NewReaderSize(file, 64<<10))
	var h header
	if dec.Decode(&h) != nil || h.Version != version {
		f.dirty = true
		return f
	}
	var b body[V]
	if dec.Decode(&b) != nil {
		f.dirty = true
		return f
	}
	if b.Entries != nil {
		f.entries = b.Entries
	}
	if b.Fails != nil {
		f.fails = b.Fails
	}
	return f
}

// Get returns the entry of key.
func (f *File[V]) Get(key string) (V, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	v, ok := f.entries[key]
	return v, ok
}

// Put sets the entry of key for the next save.
func (f *File[V]) Put(key string, v V) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.entries[key] = v
	f.dirty = true
}

// Delete drops the entry of key.
func (f *File[V]) Delete(key string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.entries[key]; ok {
		delete(f.entries, key)
		f.dirty = true
	}
}

// Keys returns every key with an entry, in no order.
func (f *File[V]) Keys() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]string, 0, len(f.entries))
	for k := range f.entries {
		out = append(out, k)
	}
	return out
}

// Fails returns a copy of the failures logged, by capability name.
func (f *File[V]) Fails() map[string]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make(map[string]string, len(f.fails))
	for k, v := range f.fails {
		out[k] = v
	}
	return out
}

// SetFail records the failure logged for name; "" forgets it.
func (f *File[V]) SetFail(name, msg string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fails[name] == msg {
		return
	}
	if msg == "" {
		delete(f.fails, name)
	} else {
		f.fails[name] = msg
	}
	f.dirty = true
}

// Save writes the whole file when something changed since it was read or
// last saved.
func (f *File[V]) Save() error {
	if f.path == "" {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.dirty {
		return nil
	}
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	enc := gob.NewEncoder(w)
	if err := enc.Encode(header{Version: f.version}); err != nil {
		return fmt.Errorf("encode the scan cache: %w", err)
	}
	if err := enc.Encode(body[V]{Entries: f.entries, Fails: f.fails}); err != nil {
		return fmt.Errorf("encode the scan cache: %w", err)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(f.path), 0o700); err != nil {
		return err
	}
	if err := atomicfile.Write(f.path, buf.Bytes(), 0o600); err != nil {
		return err
	}
	f.dirty = false
	return nil
}

// Fingerprint names the shape of t (field names and kinds, nested) as 16
// hex digits, for a cache version: gob matches fields by name and leaves a
// field it does not find at zero, so a renamed or retyped field must
// retire the entries written before.
func Fingerprint(t reflect.Type) string {
	var b strings.Builder
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		fmt.Fprintf(&b, "%s:%s(", t.String(), t.Kind())
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(t.Elem())
		case reflect.Map:
			walk(t.Key())
			walk(t.Elem())
		case reflect.Struct:
			if seen[t] || t == reflect.TypeFor[regexp.Regexp]() {
				break
			}
			seen[t] = true
			for i := range t.NumField() {
				if fl := t.Field(i); fl.IsExported() {
					b.WriteString(fl.Name + "=")
					walk(fl.Type)
				}
			}
		}
		b.WriteString(")")
	}
	walk(t)
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:8])
}
