package cerebellum

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strings"
	"unsafe"
)

// The manifest cache stores scanned capabilities in a compact binary form
// written and read by reflection over the Go types, field by field in
// declaration order: decoding is several times faster than JSON (which
// parses text twice), every exported field round-trips exactly (nil and
// empty kept apart) without a list of fields to keep current, and the
// cache's version includes a fingerprint of the types, so a changed struct
// invalidates old entries instead of misreading them. Compiled regular
// expressions and interfaces (Capability.FS) are not stored; patterns are
// compiled again on decoding.

// skipped reports whether a field of type t is left out of the encoding.
func skipped(t reflect.Type) bool {
	k := t.Kind()
	return t == reflect.TypeFor[*regexp.Regexp]() || k == reflect.Interface || k == reflect.Func || k == reflect.Chan || k == reflect.UnsafePointer
}

// codec holds, for every struct type reachable from a root type, the
// indices of its encoded fields, computed once (reflect's Field is too slow
// to ask 100,000 times a scan). It is read-only once made.
type codec struct {
	fields map[reflect.Type][]int
}

func newCodec(root reflect.Type) *codec {
	c := &codec{fields: map[reflect.Type][]int{}}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(t.Elem())
		case reflect.Map:
			walk(t.Key())
			walk(t.Elem())
		case reflect.Struct:
			if _, done := c.fields[t]; done {
				return
			}
			idx := []int{}
			c.fields[t] = idx
			for i := range t.NumField() {
				f := t.Field(i)
				if f.IsExported() && !skipped(f.Type) {
					idx = append(idx, i)
					walk(f.Type)
				}
			}
			c.fields[t] = idx
		}
	}
	walk(root)
	return c
}

// typeFingerprint names the shape of t (field names and kinds, nested), as
// 16 hex digits.
func typeFingerprint(t reflect.Type) string {
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
			if seen[t] {
				break
			}
			seen[t] = true
			for i := range t.NumField() {
				f := t.Field(i)
				if !f.IsExported() || skipped(f.Type) {
					continue
				}
				b.WriteString(f.Name + "=")
				walk(f.Type)
			}
		}
		b.WriteString(")")
	}
	walk(t)
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:8])
}

// encodeValue appends v to buf.
func (c *codec) encodeValue(buf []byte, v reflect.Value) []byte {
	switch v.Kind() {
	case reflect.String:
		buf = binary.AppendUvarint(buf, uint64(v.Len()))
		return append(buf, v.String()...)
	case reflect.Bool:
		if v.Bool() {
			return append(buf, 1)
		}
		return append(buf, 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return binary.AppendVarint(buf, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return binary.AppendUvarint(buf, v.Uint())
	case reflect.Float32, reflect.Float64:
		return binary.BigEndian.AppendUint64(buf, math.Float64bits(v.Float()))
	case reflect.Slice:
		if v.IsNil() {
			return append(buf, 0)
		}
		buf = binary.AppendUvarint(buf, uint64(v.Len())+1)
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return append(buf, v.Bytes()...)
		}
		for i := range v.Len() {
			buf = c.encodeValue(buf, v.Index(i))
		}
		return buf
	case reflect.Array:
		for i := range v.Len() {
			buf = c.encodeValue(buf, v.Index(i))
		}
		return buf
	case reflect.Map:
		if v.IsNil() {
			return append(buf, 0)
		}
		buf = binary.AppendUvarint(buf, uint64(v.Len())+1)
		it := v.MapRange()
		for it.Next() {
			buf = c.encodeValue(buf, it.Key())
			buf = c.encodeValue(buf, it.Value())
		}
		return buf
	case reflect.Pointer:
		if v.IsNil() {
			return append(buf, 0)
		}
		return c.encodeValue(append(buf, 1), v.Elem())
	case reflect.Struct:
		for _, i := range c.fields[v.Type()] {
			buf = c.encodeValue(buf, v.Field(i))
		}
		return buf
	}
	return buf
}

// decoder reads what encodeValue wrote. What it returns shares data's
// memory (strings and byte slices), so data must never change afterwards.
type decoder struct {
	*codec
	data []byte
	err  error
}

func (d *decoder) uvarint() uint64 {
	x, n := binary.Uvarint(d.data)
	if n <= 0 {
		d.err = errCorruptEntry
		d.data = nil
		return 0
	}
	d.data = d.data[n:]
	return x
}

func (d *decoder) bytes(n uint64) []byte {
	if n > uint64(len(d.data)) {
		d.err = errCorruptEntry
		d.data = nil
		return nil
	}
	b := d.data[:n:n]
	d.data = d.data[n:]
	return b
}

// length reads a slice or map length written as len+1 (0 for nil),
// bounded by what is left so corrupt input cannot allocate without limit.
func (d *decoder) length() (n int, isNil bool) {
	x := d.uvarint()
	if x == 0 || d.err != nil {
		return 0, true
	}
	if x-1 > uint64(len(d.data)) {
		d.err = errCorruptEntry
		d.data = nil
		return 0, true
	}
	return int(x - 1), false
}

func (d *decoder) value(v reflect.Value) {
	if d.err != nil {
		return
	}
	switch v.Kind() {
	case reflect.String:
		// Strings share the cache file's buffer too: it is never written
		// to, and copying 10,000 capabilities' text was most of a decode.
		if b := d.bytes(d.uvarint()); len(b) > 0 {
			v.SetString(unsafe.String(unsafe.SliceData(b), len(b)))
		}
	case reflect.Bool:
		b := d.bytes(1)
		if len(b) == 1 {
			v.SetBool(b[0] == 1)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x, n := binary.Varint(d.data)
		if n <= 0 {
			d.err = errCorruptEntry
			return
		}
		d.data = d.data[n:]
		v.SetInt(x)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(d.uvarint())
	case reflect.Float32, reflect.Float64:
		b := d.bytes(8)
		if len(b) == 8 {
			v.SetFloat(math.Float64frombits(binary.BigEndian.Uint64(b)))
		}
	case reflect.Slice:
		n, isNil := d.length()
		if isNil {
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			// Shared with the cache file's buffer, which nothing writes to
			// (capped, so an append copies): the tools' schemas are half
			// of an entry.
			v.SetBytes(d.bytes(uint64(n)))
			return
		}
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := 0; i < n && d.err == nil; i++ {
			d.value(s.Index(i))
		}
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			d.value(v.Index(i))
		}
	case reflect.Map:
		n, isNil := d.length()
		if isNil {
			return
		}
		m := reflect.MakeMapWithSize(v.Type(), n)
		kt, et := v.Type().Key(), v.Type().Elem()
		for i := 0; i < n && d.err == nil; i++ {
			k := reflect.New(kt).Elem()
			d.value(k)
			e := reflect.New(et).Elem()
			d.value(e)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Pointer:
		b := d.bytes(1)
		if len(b) == 0 || b[0] == 0 {
			return
		}
		p := reflect.New(v.Type().Elem())
		d.value(p.Elem())
		v.Set(p)
	case reflect.Struct:
		for _, i := range d.fields[v.Type()] {
			if d.err != nil {
				return
			}
			d.value(v.Field(i))
		}
	}
}

// marshalEntry and unmarshalEntry store a scanEntry; c must be made for
// scanRecord.
func (c *codec) marshalEntry(e *scanEntry) []byte {
	buf := binary.AppendVarint(nil, e.At)
	buf = c.encodeValue(buf, reflect.ValueOf(e.Stats))
	return c.encodeValue(buf, reflect.ValueOf(e.cap).Elem())
}

func (c *codec) unmarshalEntry(data []byte) (*scanEntry, error) {
	d := &decoder{codec: c, data: data}
	at, n := binary.Varint(d.data)
	if n <= 0 {
		return nil, errCorruptEntry
	}
	d.data = d.data[n:]
	e := &scanEntry{At: at, cap: &Capability{}}
	d.value(reflect.ValueOf(&e.Stats).Elem())
	d.value(reflect.ValueOf(e.cap).Elem())
	if d.err == nil && len(d.data) != 0 {
		d.err = errCorruptEntry
	}
	if d.err != nil {
		return nil, d.err
	}
	return e, nil
}

// scanRecord is the shape marshalEntry writes, for the codec and its
// fingerprint.
type scanRecord struct {
	At    int64
	Stats []fileStat
	Cap   Capability
}
