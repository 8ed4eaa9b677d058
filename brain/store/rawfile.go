package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
)

// This file reads the bbolt file format itself, trusting nothing in the
// file: every page id, count, offset and size is checked against the file
// before it is used, a page is visited once per walk, and nesting is
// bounded, so a damaged file yields problems, never a panic, a memory
// fault or a loop. bbolt itself trusts its file (a garbage page id is a
// pointer outside its mapping), and its consistency check (Tx.Check) runs
// on a goroutine of its own, where such a fault cannot be recovered. Open
// uses this reader to look at a file before bbolt maps it; Diagnose and
// Salvage use it to read what a damaged file still holds.

// The layout, from go.etcd.io/bbolt/internal/common (file format version 2).
const (
	boltMagic      = 0xED0CDAED
	boltVersion    = 2
	pageHeaderSize = 16
	elemSize       = 16 // branch and leaf page elements alike
	metaSize       = 64 // the meta struct after the page header
	bucketHeader   = 16 // a bucket's value: root page id, sequence

	branchPageFlag   = 0x01
	leafPageFlag     = 0x02
	metaPageFlag     = 0x04
	freelistPageFlag = 0x10
	bucketLeafFlag   = 0x01

	noFreelist = ^uint64(0)

	minPageSize = 1024
	maxPageSize = 1 << 24 // bbolt looks for page sizes up to 16 MB

	// maxDepth bounds the nesting of branch pages and buckets a walk
	// follows: a real file is a few levels deep.
	maxDepth = 64
	// maxProblems bounds the problems a walk records one by one; the rest
	// are counted.
	maxProblems = 50
)

// rawMeta is a file's valid meta page with the highest transaction id.
type rawMeta struct {
	pageSize uint32
	root     uint64 // the root bucket's page
	rootSeq  uint64
	freelist uint64
	pgid     uint64 // the high water mark: pages below it are in use or free
	txid     uint64
}

// rawFile is a bbolt file read through an io.ReaderAt.
type rawFile struct {
	r    io.ReaderAt
	size int64
	// data, when set, is the whole file in memory: pages are slices of it.
	data     []byte
	pageSize int
	meta     rawMeta
	// note says what was wrong with the meta pages when one was damaged
	// and the other used (bbolt does the same); "" when both were fine.
	note string
	// older is the other valid meta page (the transaction before), when
	// there is one: salvage tries its root when the newer one's is lost.
	older *rawMeta
}

// readMeta decodes and validates the meta page in buf (a whole page).
func readMeta(buf []byte) (rawMeta, error) {
	if len(buf) < pageHeaderSize+metaSize {
		return rawMeta{}, errors.New("too short")
	}
	if flags := binary.LittleEndian.Uint16(buf[8:]); flags != metaPageFlag {
		return rawMeta{}, fmt.Errorf("not a meta page (flags %#x)", flags)
	}
	m := buf[pageHeaderSize : pageHeaderSize+metaSize]
	if binary.LittleEndian.Uint32(m[0:]) != boltMagic {
		return rawMeta{}, errors.New("not a bbolt database (wrong magic number)")
	}
	if v := binary.LittleEndian.Uint32(m[4:]); v != boltVersion {
		return rawMeta{}, fmt.Errorf("file format version %d, not %d", v, boltVersion)
	}
	h := fnv.New64a()
	h.Write(m[:56])
	if h.Sum64() != binary.LittleEndian.Uint64(m[56:]) {
		return rawMeta{}, errors.New("checksum mismatch")
	}
	meta := rawMeta{
		pageSize: binary.LittleEndian.Uint32(m[8:]),
		root:     binary.LittleEndian.Uint64(m[16:]),
		rootSeq:  binary.LittleEndian.Uint64(m[24:]),
		freelist: binary.LittleEndian.Uint64(m[32:]),
		pgid:     binary.LittleEndian.Uint64(m[40:]),
		txid:     binary.LittleEndian.Uint64(m[48:]),
	}
	if ps := meta.pageSize; ps < minPageSize || ps > maxPageSize || ps&(ps-1) != 0 {
		return rawMeta{}, fmt.Errorf("page size %d is not a power of two between %d and %d", ps, minPageSize, maxPageSize)
	}
	if meta.pgid < 4 || meta.root < 2 || meta.root >= meta.pgid ||
		(meta.freelist != noFreelist && (meta.freelist < 2 || meta.freelist >= meta.pgid)) {
		return rawMeta{}, fmt.Errorf("page numbers out of range (root %d, freelist %d, high water mark %d)", meta.root, meta.freelist, meta.pgid)
	}
	return meta, nil
}

// openRaw reads a file's meta pages as bbolt does: the valid one with the
// higher transaction id wins, the page size is the first meta page's or
// found by trying each possible size for the second. An error (wrapping
// ErrCorrupt) means neither meta page is usable, or the file is shorter
// than its meta page says it is: then the file is returned too, for
// reading what is left.
func openRaw(r io.ReaderAt, size int64) (*rawFile, error) {
	if size == 0 {
		return nil, fmt.Errorf("%w: the file is empty (0 bytes)", ErrCorrupt)
	}
	first := make([]byte, 4096)
	n, _ := r.ReadAt(first, 0)
	first = first[:n]
	m0, err0 := readMeta(first)
	var m1 rawMeta
	var err1 error
	if err0 == nil {
		m1, err1 = readMetaAt(r, size, int64(m0.pageSize))
	} else {
		err1 = errors.New("not found")
		for ps := int64(minPageSize); ps <= maxPageSize && ps < size; ps *= 2 {
			if m, err := readMetaAt(r, size, ps); err == nil && int64(m.pageSize) == ps {
				m1, err1 = m, nil
				break
			}
		}
	}
	f := &rawFile{r: r, size: size}
	switch {
	case err0 == nil && err1 == nil:
		f.meta, f.older = m0, &m1
		if m1.txid > m0.txid {
			f.meta, f.older = m1, &m0
		}
		if m0.pageSize != m1.pageSize {
			return nil, fmt.Errorf("%w: the two meta pages disagree on the page size (%d and %d)", ErrCorrupt, m0.pageSize, m1.pageSize)
		}
	case err0 == nil:
		f.meta, f.note = m0, "the second meta page is damaged ("+err1.Error()+"); the first is used"
	case err1 == nil:
		f.meta, f.note = m1, "the first meta page is damaged ("+err0.Error()+"); the second is used"
	default:
		if n < pageHeaderSize+metaSize {
			return nil, fmt.Errorf("%w: the file is too short to be a database (%d bytes)", ErrCorrupt, size)
		}
		return nil, fmt.Errorf("%w: neither meta page can be read (%v; %v)", ErrCorrupt, err0, err1)
	}
	f.pageSize = int(f.meta.pageSize)
	if need := int64(f.meta.pgid) * int64(f.pageSize); need > size {
		return f, fmt.Errorf("%w: the file is %d bytes but its pages reach %d bytes (it was cut short)", ErrCorrupt, size, need)
	}
	return f, nil
}

func readMetaAt(r io.ReaderAt, size, off int64) (rawMeta, error) {
	if off+pageHeaderSize+metaSize > size {
		return rawMeta{}, errors.New("past the end of the file")
	}
	buf := make([]byte, pageHeaderSize+metaSize)
	if _, err := r.ReadAt(buf, off); err != nil {
		return rawMeta{}, err
	}
	return readMeta(buf)
}

// page reads page id with its overflow pages, checking that it lies inside
// the file and below the high water mark and that it says it is page id.
func (f *rawFile) page(id uint64) ([]byte, error) {
	if id < 2 || id >= f.meta.pgid {
		return nil, fmt.Errorf("page %d is out of range (2 to %d)", id, f.meta.pgid-1)
	}
	off := int64(id) * int64(f.pageSize)
	if off+int64(f.pageSize) > f.size {
		return nil, fmt.Errorf("page %d lies past the end of the file (it was cut short)", id)
	}
	var head []byte
	if f.data != nil {
		head = f.data[off : off+pageHeaderSize] // openRaw checked the size
	} else {
		head = make([]byte, pageHeaderSize)
		if _, err := f.r.ReadAt(head, off); err != nil {
			return nil, fmt.Errorf("page %d: %w", id, err)
		}
	}
	if got := binary.LittleEndian.Uint64(head); got != id {
		return nil, fmt.Errorf("page %d says it is page %d", id, got)
	}
	overflow := uint64(binary.LittleEndian.Uint32(head[12:]))
	if id+overflow >= f.meta.pgid {
		return nil, fmt.Errorf("page %d runs %d pages past the high water mark", id, id+overflow-f.meta.pgid+1)
	}
	n := int64(overflow+1) * int64(f.pageSize)
	if off+n > f.size {
		return nil, fmt.Errorf("page %d runs past the end of the file (it was cut short)", id)
	}
	if f.data != nil {
		return f.data[off : off+n : off+n], nil
	}
	buf := make([]byte, n)
	if _, err := f.r.ReadAt(buf, off); err != nil {
		return nil, fmt.Errorf("page %d: %w", id, err)
	}
	return buf, nil
}

// checkFreelist reads the freelist page as bbolt will when it opens the
// file (a damaged one panics inside bbolt's Open).
func (f *rawFile) checkFreelist() error {
	if f.meta.freelist == noFreelist {
		return nil
	}
	p, err := f.page(f.meta.freelist)
	if err != nil {
		return fmt.Errorf("freelist: %w", err)
	}
	if flags := binary.LittleEndian.Uint16(p[8:]); flags != freelistPageFlag {
		return fmt.Errorf("freelist page %d is not a freelist page (flags %#x)", f.meta.freelist, flags)
	}
	count, start := uint64(binary.LittleEndian.Uint16(p[10:])), uint64(pageHeaderSize)
	if count == 0xFFFF {
		// The real count is the first element.
		if len(p) < pageHeaderSize+8 {
			return fmt.Errorf("freelist page %d is too short", f.meta.freelist)
		}
		count, start = binary.LittleEndian.Uint64(p[pageHeaderSize:]), pageHeaderSize+8
	}
	if count > (uint64(len(p))-start)/8 {
		return fmt.Errorf("freelist page %d lists %d pages, more than it can hold", f.meta.freelist, count)
	}
	for i := uint64(0); i < count; i++ {
		if id := binary.LittleEndian.Uint64(p[start+8*i:]); id < 2 || id >= f.meta.pgid {
			return fmt.Errorf("freelist page %d lists page %d, out of range", f.meta.freelist, id)
		}
	}
	return nil
}

// rawBucket is where a bucket's pages are: a root page, or, for a small
// bucket, a page stored inline in its parent's value.
type rawBucket struct {
	root   uint64
	seq    uint64
	inline []byte
}

func (f *rawFile) rootBucket() rawBucket {
	return rawBucket{root: f.meta.root, seq: f.meta.rootSeq}
}

// olderRoot is the root bucket as of the transaction before, if known.
func (f *rawFile) olderRoot() (rawBucket, bool) {
	if f.older == nil || f.older.root == f.meta.root {
		return rawBucket{}, false
	}
	return rawBucket{root: f.older.root, seq: f.older.rootSeq}, true
}

// bucketOf decodes a bucket's value (its header and any inline page).
func bucketOf(v []byte) (rawBucket, error) {
	if len(v) < bucketHeader {
		return rawBucket{}, fmt.Errorf("bucket value of %d bytes is shorter than its header", len(v))
	}
	b := rawBucket{root: binary.LittleEndian.Uint64(v), seq: binary.LittleEndian.Uint64(v[8:])}
	if b.root == 0 {
		if len(v) < bucketHeader+pageHeaderSize {
			return rawBucket{}, errors.New("inline bucket is shorter than a page header")
		}
		b.inline = v[bucketHeader:]
	}
	return b, nil
}

// walker visits a file's buckets, recording what it cannot read and going
// on with the rest.
type walker struct {
	f        *rawFile
	visited  map[uint64]bool
	pages    int // pages read, overflow pages counted
	problems []string
	more     int // problems beyond maxProblems
}

func newWalker(f *rawFile) *walker {
	return &walker{f: f, visited: map[uint64]bool{}}
}

func (w *walker) problem(format string, a ...any) {
	if len(w.problems) < maxProblems {
		w.problems = append(w.problems, fmt.Sprintf(format, a...))
		return
	}
	w.more++
}

// entry is one key of a bucket: a value, or a nested bucket.
type entry struct {
	key, value []byte
	bucket     bool
}

// each calls fn with every entry of b that can be read, in page order
// (which is key order in an undamaged file). Unreadable pages are recorded
// as problems and skipped; what is below a readable branch page is still
// visited. fn's slices are valid only during the call. path names b in
// problems ("events/c12").
func (w *walker) each(b rawBucket, path string, fn func(entry) error) error {
	if b.inline != nil {
		return w.leaf(b.inline, path, true, fn)
	}
	return w.node(b.root, path, 0, fn)
}

func (w *walker) node(id uint64, path string, depth int, fn func(entry) error) error {
	if depth > maxDepth {
		w.problem("%s: page %d is nested more than %d levels deep", path, id, maxDepth)
		return nil
	}
	if w.visited[id] {
		w.problem("%s: page %d is reached twice", path, id)
		return nil
	}
	w.visited[id] = true
	p, err := w.f.page(id)
	if err != nil {
		w.problem("%s: %v", path, err)
		return nil
	}
	w.pages += len(p) / w.f.pageSize
	switch flags := binary.LittleEndian.Uint16(p[8:]); flags {
	case leafPageFlag:
		return w.leaf(p, path, false, fn)
	case branchPageFlag:
		count := int(binary.LittleEndian.Uint16(p[10:]))
		if pageHeaderSize+count*elemSize > len(p) {
			w.problem("%s: branch page %d claims %d elements, more than it holds", path, id, count)
			return nil
		}
		for i := range count {
			e := p[pageHeaderSize+i*elemSize:]
			if err := w.node(binary.LittleEndian.Uint64(e[8:]), path, depth+1, fn); err != nil {
				return err
			}
		}
		return nil
	default:
		w.problem("%s: page %d is not a branch or leaf page (flags %#x)", path, id, flags)
		return nil
	}
}

// leaf visits the elements of a leaf page p, or of an inline bucket's
// page. bbolt stores a bucket inline only when it holds no buckets, so a
// bucket inside an inline one is damage; following it could nest page in
// page without end.
func (w *walker) leaf(p []byte, path string, inline bool, fn func(entry) error) error {
	if len(p) < pageHeaderSize {
		w.problem("%s: leaf page is too short", path)
		return nil
	}
	if flags := binary.LittleEndian.Uint16(p[8:]); flags != leafPageFlag {
		w.problem("%s: inline bucket page is not a leaf page (flags %#x)", path, flags)
		return nil
	}
	count := int(binary.LittleEndian.Uint16(p[10:]))
	if pageHeaderSize+count*elemSize > len(p) {
		w.problem("%s: leaf page %d claims %d elements, more than it holds", path, binary.LittleEndian.Uint64(p), count)
		return nil
	}
	for i := range count {
		at := pageHeaderSize + i*elemSize
		e := p[at:]
		flags := binary.LittleEndian.Uint32(e)
		pos := uint64(binary.LittleEndian.Uint32(e[4:]))
		ksize := uint64(binary.LittleEndian.Uint32(e[8:]))
		vsize := uint64(binary.LittleEndian.Uint32(e[12:]))
		start := uint64(at) + pos
		if start+ksize+vsize > uint64(len(p)) {
			w.problem("%s: element %d of a leaf page reaches past its end", path, i)
			continue
		}
		k := p[start : start+ksize]
		v := p[start+ksize : start+ksize+vsize]
		bucket := flags&bucketLeafFlag != 0
		if bucket && inline {
			w.problem("%s: an inline bucket holds a bucket", path)
			continue
		}
		if err := fn(entry{key: k, value: v, bucket: bucket}); err != nil {
			return err
		}
	}
	return nil
}

// buckets returns the nested buckets of b by name, reading b once.
func (w *walker) buckets(b rawBucket, path string) map[string]rawBucket {
	out := map[string]rawBucket{}
	_ = w.each(b, path, func(e entry) error {
		if !e.bucket {
			return nil
		}
		nb, err := bucketOf(e.value)
		if err != nil {
			w.problem("%s/%s: %v", path, e.key, err)
			return nil
		}
		out[string(e.key)] = nb
		return nil
	})
	return out
}
