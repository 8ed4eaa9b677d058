package cerebellum

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"sort"
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
	dec    map[reflect.Type]decodeFn
	// decStats and decCap decode a scanEntry's stats and capability.
	decStats, decCap decodeFn
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
	c.dec = map[reflect.Type]decodeFn{}
	for t := range c.fields {
		c.decoderFor(t)
	}
	c.decStats, c.decCap = c.decoderFor(reflect.TypeFor[[]fileStat]()), c.decoderFor(reflect.TypeFor[Capability]())
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
		// In key order when the keys are strings (all of ours), so that an
		// entry encodes the same every time: brain/cerebellum's generated
		// parsed form is compared with a fresh encoding.
		keys := v.MapKeys()
		if v.Type().Key().Kind() == reflect.String {
			sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		}
		for _, k := range keys {
			buf = c.encodeValue(buf, k)
			buf = c.encodeValue(buf, v.MapIndex(k))
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
	// Most are lengths under 128: one byte.
	if len(d.data) > 0 && d.data[0] < 0x80 {
		x := uint64(d.data[0])
		d.data = d.data[1:]
		return x
	}
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

// decodeFn decodes one value of its type into the memory at p. The codec
// makes one per type when it is made, so a decode runs straight code over
// field offsets instead of asking reflect about every field of every
// capability (which was most of decoding 10,000 cache entries).
type decodeFn func(d *decoder, p unsafe.Pointer)

// decoderFor returns the decodeFn of t, making it (and those of the types
// it holds) on first use; only newCodec calls it, so the codec stays
// read-only afterwards.
func (c *codec) decoderFor(t reflect.Type) decodeFn {
	if f, ok := c.dec[t]; ok {
		return f
	}
	// A type that holds itself finds this forwarder while being made.
	var fn decodeFn
	c.dec[t] = func(d *decoder, p unsafe.Pointer) { fn(d, p) }
	fn = c.makeDecoder(t)
	c.dec[t] = fn
	return fn
}

func (c *codec) makeDecoder(t reflect.Type) decodeFn {
	switch t.Kind() {
	case reflect.String:
		// Strings share the cache file's buffer too: it is never written
		// to, and copying 10,000 capabilities' text was most of a decode.
		return func(d *decoder, p unsafe.Pointer) {
			if b := d.bytes(d.uvarint()); len(b) > 0 {
				*(*string)(p) = unsafe.String(unsafe.SliceData(b), len(b))
			}
		}
	case reflect.Bool:
		return func(d *decoder, p unsafe.Pointer) {
			if b := d.bytes(1); len(b) == 1 {
				*(*bool)(p) = b[0] == 1
			}
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		size := t.Size()
		return func(d *decoder, p unsafe.Pointer) {
			x, n := binary.Varint(d.data)
			if n <= 0 {
				d.err = errCorruptEntry
				return
			}
			d.data = d.data[n:]
			storeInt(p, size, uint64(x))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		size := t.Size()
		return func(d *decoder, p unsafe.Pointer) { storeInt(p, size, d.uvarint()) }
	case reflect.Float32:
		return func(d *decoder, p unsafe.Pointer) {
			if b := d.bytes(8); len(b) == 8 {
				*(*float32)(p) = float32(math.Float64frombits(binary.BigEndian.Uint64(b)))
			}
		}
	case reflect.Float64:
		return func(d *decoder, p unsafe.Pointer) {
			if b := d.bytes(8); len(b) == 8 {
				*(*float64)(p) = math.Float64frombits(binary.BigEndian.Uint64(b))
			}
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			// Shared with the cache file's buffer, which nothing writes to
			// (capped, so an append copies): the tools' schemas are half
			// of an entry.
			return func(d *decoder, p unsafe.Pointer) {
				if n, isNil := d.length(); !isNil {
					*(*[]byte)(p) = d.bytes(uint64(n))
				}
			}
		}
		elem, size := c.decoderFor(t.Elem()), t.Elem().Size()
		return func(d *decoder, p unsafe.Pointer) {
			n, isNil := d.length()
			if isNil {
				return
			}
			s := reflect.MakeSlice(t, n, n)
			base := s.UnsafePointer()
			for i := 0; i < n && d.err == nil; i++ {
				elem(d, unsafe.Add(base, uintptr(i)*size))
			}
			reflect.NewAt(t, p).Elem().Set(s)
		}
	case reflect.Array:
		elem, size, n := c.decoderFor(t.Elem()), t.Elem().Size(), t.Len()
		return func(d *decoder, p unsafe.Pointer) {
			for i := 0; i < n; i++ {
				elem(d, unsafe.Add(p, uintptr(i)*size))
			}
		}
	case reflect.Map:
		kt, et := t.Key(), t.Elem()
		key, elem := c.decoderFor(kt), c.decoderFor(et)
		return func(d *decoder, p unsafe.Pointer) {
			n, isNil := d.length()
			if isNil {
				return
			}
			m := reflect.MakeMapWithSize(t, n)
			for i := 0; i < n && d.err == nil; i++ {
				k, e := reflect.New(kt), reflect.New(et)
				key(d, k.UnsafePointer())
				elem(d, e.UnsafePointer())
				m.SetMapIndex(k.Elem(), e.Elem())
			}
			reflect.NewAt(t, p).Elem().Set(m)
		}
	case reflect.Pointer:
		et := t.Elem()
		elem := c.decoderFor(et)
		return func(d *decoder, p unsafe.Pointer) {
			if b := d.bytes(1); len(b) == 0 || b[0] == 0 {
				return
			}
			v := reflect.New(et).UnsafePointer()
			elem(d, v)
			*(*unsafe.Pointer)(p) = v
		}
	case reflect.Struct:
		type field struct {
			off uintptr
			fn  decodeFn
		}
		var fields []field
		for _, i := range c.fields[t] {
			f := t.Field(i)
			fields = append(fields, field{f.Offset, c.decoderFor(f.Type)})
		}
		return func(d *decoder, p unsafe.Pointer) {
			for _, f := range fields {
				if d.err != nil {
					return
				}
				f.fn(d, unsafe.Add(p, f.off))
			}
		}
	}
	// Kinds encodeValue writes nothing for.
	return func(*decoder, unsafe.Pointer) {}
}

// storeInt stores the low size bytes of x at p, as reflect's SetInt and
// SetUint truncate.
func storeInt(p unsafe.Pointer, size uintptr, x uint64) {
	switch size {
	case 1:
		*(*uint8)(p) = uint8(x)
	case 2:
		*(*uint16)(p) = uint16(x)
	case 4:
		*(*uint32)(p) = uint32(x)
	default:
		*(*uint64)(p) = x
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
	c.decStats(d, unsafe.Pointer(&e.Stats))
	if d.err == nil {
		c.decCap(d, unsafe.Pointer(e.cap))
	}
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
