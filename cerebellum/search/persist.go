package search

import "maps"

// An Index is immutable once published, and Update makes the next one
// from it while the old one may still be searched. The two share all that
// the change does not touch: tables indexed by number are chunked (vec),
// and maps keep their entries in a shared base plus a small delta (smap),
// so an update copies what it changes and a bounded amount besides.

const (
	chunkBits = 9
	chunkLen  = 1 << chunkBits
)

// vec is a growable array shared between index versions chunk by chunk.
// A version writes only chunks it owns: fresh ones, or copies made by own.
type vec[T any] struct {
	chunks []*[chunkLen]T
	n      int
	// owned marks the chunks this version may write; nil when it owns all
	// of them (a fresh index being built).
	owned map[int]bool
	all   bool
}

func (v *vec[T]) len() int { return v.n }

func (v *vec[T]) at(i int) *T { return &v.chunks[i>>chunkBits][i&(chunkLen-1)] }

// fork returns a version sharing v's chunks, owning none.
func (v *vec[T]) fork() vec[T] {
	return vec[T]{chunks: append([]*[chunkLen]T(nil), v.chunks...), n: v.n, owned: map[int]bool{}}
}

// mut returns element i for writing, copying its chunk first if shared.
func (v *vec[T]) mut(i int) *T {
	c := i >> chunkBits
	if !v.all && !v.owned[c] {
		cp := *v.chunks[c]
		v.chunks[c] = &cp
		v.owned[c] = true
	}
	return &v.chunks[c][i&(chunkLen-1)]
}

// push appends x and returns its position.
func (v *vec[T]) push(x T) int {
	i := v.n
	if i>>chunkBits == len(v.chunks) {
		v.chunks = append(v.chunks, new([chunkLen]T))
		if !v.all {
			v.owned[i>>chunkBits] = true
		}
	}
	v.n++
	*v.mut(i) = x
	return i
}

// smap is a string-keyed map shared between index versions: lookups try
// the delta, then the base; a version writes only its own delta, which is
// folded into a new base once it grows past a fraction of it, so an
// update copies O(delta) entries and, amortised, O(1) per change.
type smap[V any] struct {
	base  map[string]V
	delta map[string]sval[V]
	// all means the base is this version's own (a fresh index): write it.
	all bool
}

type sval[V any] struct {
	v   V
	del bool
}

func newSmap[V any](n int) smap[V] {
	return smap[V]{base: make(map[string]V, n), all: true}
}

func (m *smap[V]) get(k string) (V, bool) {
	if d, ok := m.delta[k]; ok {
		return d.v, !d.del
	}
	v, ok := m.base[k]
	return v, ok
}

// getBytes is get without allocating the key.
func (m *smap[V]) getBytes(k []byte) (V, bool) {
	if d, ok := m.delta[string(k)]; ok {
		return d.v, !d.del
	}
	v, ok := m.base[string(k)]
	return v, ok
}

func (m *smap[V]) set(k string, v V) {
	if m.all {
		m.base[k] = v
		return
	}
	m.delta[k] = sval[V]{v: v}
}

func (m *smap[V]) del(k string) {
	if m.all {
		delete(m.base, k)
		return
	}
	m.delta[k] = sval[V]{del: true}
}

// fork returns a version sharing the base with a copy of the delta.
func (m *smap[V]) fork() smap[V] {
	d := make(map[string]sval[V], len(m.delta)+8)
	maps.Copy(d, m.delta)
	return smap[V]{base: m.base, delta: d}
}

// settle folds a delta grown past a sixteenth of the base into a new base.
func (m *smap[V]) settle() {
	if m.all || len(m.delta) <= max(256, len(m.base)/16) {
		return
	}
	b := make(map[string]V, len(m.base)+len(m.delta))
	maps.Copy(b, m.base)
	for k, d := range m.delta {
		if d.del {
			delete(b, k)
		} else {
			b[k] = d.v
		}
	}
	m.base, m.delta = b, map[string]sval[V]{}
}

// each calls f for every entry, in no particular order.
func (m *smap[V]) each(f func(k string, v V)) {
	for k, v := range m.base {
		if _, shadowed := m.delta[k]; !shadowed {
			f(k, v)
		}
	}
	for k, d := range m.delta {
		if !d.del {
			f(k, d.v)
		}
	}
}
