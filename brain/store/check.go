package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime/debug"
	"slices"
	"strings"
)

// FullCheckSize bounds the pages in use (below the high water mark) of a
// file Open checks page by page before using it: about 2 ms of CPU here
// (docs/performance.md). A larger one gets the quick check (the meta and
// free-list pages, the root and the first page of each bucket) and is
// checked in full on the copy each daily backup makes.
const FullCheckSize = 8 << 20

// Diagnosis is what Diagnose found in a database file.
type Diagnosis struct {
	Path string
	// Missing: there is no file (a new one is created on the next open).
	Missing bool
	Size    int64
	// Schema is the schema version stored in the file (0 when it cannot be
	// read); Supported is the newest this Wrasse reads.
	Schema, Supported uint64
	// Readable records.
	Conversations, Events, Secrets int
	// Pages is the number of pages read.
	Pages int
	// Problems say what is damaged in the file's structure, each in a
	// sentence fragment; none when the file is sound.
	Problems []string
	// Unreadable are records that cannot be decoded in a sound file (the
	// store skips them, as wrasse doctor --salvage does).
	Unreadable []string
}

// Healthy reports whether the file can be opened and used as it is.
func (d Diagnosis) Healthy() bool {
	return !d.Missing && len(d.Problems) == 0 && !d.Newer()
}

// Newer reports whether a newer Wrasse wrote the file.
func (d Diagnosis) Newer() bool { return d.Schema > d.Supported }

// Err is the error Open gives for the file: nil when it is healthy (or
// missing), else one wrapping ErrNewerSchema or ErrCorrupt.
func (d Diagnosis) Err() error {
	switch {
	case d.Missing:
		return nil
	case d.Newer():
		return &SchemaError{Path: d.Path, Found: d.Schema, Supported: d.Supported}
	case len(d.Problems) > 0:
		return fmt.Errorf("%w: %s: %s", ErrCorrupt, d.Path, strings.Join(d.Problems, "; "))
	}
	return nil
}

// Diagnose reads the whole file at path, page by page and record by
// record, without bbolt and without writing anything, and says what can
// be read and what is damaged. Reading a file that a running Wrasse is
// writing can report damage that is not there: use DB.Check for an open
// database.
func Diagnose(path string) (Diagnosis, error) {
	d := Diagnosis{Path: path, Supported: schemaVersion}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		d.Missing = true
		return d, nil
	}
	if err != nil {
		return d, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return d, fmt.Errorf("read %s: %w", path, err)
	}
	d.Size = fi.Size()
	rf, err := openRaw(f, d.Size)
	if err != nil {
		d.Problems = append(d.Problems, strings.TrimPrefix(err.Error(), ErrCorrupt.Error()+": "))
	}
	if rf != nil {
		// What is left of a file cut short can still be counted.
		problems := d.Problems
		diagnose(rf, &d, true)
		d.Problems = append(problems, d.Problems...)
	}
	return d, nil
}

// diagnose walks every bucket of rf; with records it decodes the records
// it knows, else it only reads every page.
func diagnose(rf *rawFile, d *Diagnosis, records bool) {
	w := newWalker(rf)
	if rf.note != "" {
		w.problem("%s", rf.note)
	}
	if err := rf.checkFreelist(); err != nil {
		w.problem("%v", err)
	}
	top := w.buckets(rf.rootBucket(), "root")
	if len(top) == 0 {
		// As Salvage does: the transaction before kept its own root.
		if older, ok := rf.olderRoot(); ok {
			top = w.buckets(older, "root (the previous transaction's)")
		}
	}
	if why := foreign(top); why != "" {
		w.problem("%s", why)
		d.Pages, d.Problems = w.pages, w.report()
		return
	}
	if m, ok := top[bucketMeta]; ok {
		_ = w.each(m, bucketMeta, func(e entry) error {
			if string(e.key) == keySchemaVersion && !e.bucket {
				if v, ok := decodeU64(e.value); ok {
					d.Schema = v
				} else {
					w.problem("%s/%s: not a version number", bucketMeta, keySchemaVersion)
				}
			}
			return nil
		})
	}
	if d.Schema > schemaVersion {
		// A newer layout: only its pages can be checked.
		for name, b := range top {
			_ = w.each(b, name, func(entry) error { return nil })
		}
		d.Pages, d.Problems = w.pages, w.report()
		return
	}
	for _, name := range allBuckets() {
		b, ok := top[name]
		if !ok {
			continue // an older layout, or a new file
		}
		if !records && name != bucketMeta {
			w.eachDeep(b, name)
			continue
		}
		switch name {
		case bucketMeta:
		case bucketConversations:
			_ = w.each(b, name, func(e entry) error {
				id, ok := decodeU64(e.key)
				if !ok || e.bucket {
					d.unreadable("a conversation record with the key %x", e.key)
					return nil
				}
				if _, err := decodeConversation(ID(id), e.value); err != nil {
					d.unreadable("the record of conversation %s", ID(id))
					return nil
				}
				d.Conversations++
				return nil
			})
		case bucketEvents:
			for key, eb := range w.buckets(b, name) {
				id, _ := decodeU64([]byte(key))
				path := name + "/" + ID(id).String()
				_ = w.each(eb, path, func(e entry) error {
					if _, err := decodeEvent(e.value); err != nil || e.bucket {
						d.unreadable("event %x of conversation %s", e.key, ID(id))
						return nil
					}
					d.Events++
					return nil
				})
			}
		case bucketSecrets:
			_ = w.each(b, name, func(e entry) error {
				if !e.bucket {
					d.Secrets++
				}
				return nil
			})
		default:
			w.eachDeep(b, name)
		}
	}
	d.Pages, d.Problems = w.pages, w.report()
}

func (d *Diagnosis) unreadable(format string, a ...any) {
	if len(d.Unreadable) < maxProblems {
		d.Unreadable = append(d.Unreadable, fmt.Sprintf(format, a...))
	}
}

// foreign says why a sound bbolt file with buckets but none of Wrasse's
// is not a Wrasse database ("" when it may be one): opening it would add
// Wrasse's buckets to another program's file.
func foreign(top map[string]rawBucket) string {
	if len(top) == 0 {
		return "" // a new file, before its first transaction
	}
	if _, ok := top[bucketMeta]; ok {
		return ""
	}
	names := make([]string, 0, len(top))
	for n := range top {
		names = append(names, fmt.Sprintf("%q", n))
	}
	slices.Sort(names)
	if len(names) > 5 {
		names = append(names[:5], "…")
	}
	return "not a Wrasse database: it holds the buckets " + strings.Join(names, ", ")
}

// eachDeep reads every page of b and of the buckets nested in it.
func (w *walker) eachDeep(b rawBucket, path string) {
	_ = w.each(b, path, func(e entry) error {
		if !e.bucket {
			return nil
		}
		nb, err := bucketOf(e.value)
		if err != nil {
			w.problem("%s/%x: %v", path, e.key, err)
			return nil
		}
		w.eachDeep(nb, path+"/"+string(e.key))
		return nil
	})
}

// report is the problems found, with a count of those not listed.
func (w *walker) report() []string {
	out := append([]string(nil), w.problems...)
	if w.more > 0 {
		out = append(out, fmt.Sprintf("and %d more problems", w.more))
	}
	return out
}

// precheck looks at the file at path before bbolt maps it: a file bbolt
// would panic or fault on, or that was cut short, fails with ErrCorrupt;
// one a newer Wrasse wrote is left to Open's schema check. A file whose
// pages in use fit in full bytes is read in full; a larger one gets the
// quick check.
func precheck(path string, full int64) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if fi.Size() == 0 {
		// bbolt would make an empty file a new database, hiding that
		// whatever it held is gone.
		return fmt.Errorf("%w: %s is empty (0 bytes)", ErrCorrupt, path)
	}
	rf, err := openRaw(f, fi.Size())
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	d := Diagnosis{Path: path, Size: fi.Size(), Supported: schemaVersion}
	if used := int64(rf.meta.pgid) * int64(rf.pageSize); used <= full {
		// The pages in use mapped at once: every page is a slice of them.
		data, unmap, err := mapFile(f, used)
		if err != nil {
			return fmt.Errorf("read %s: %w", path, err)
		}
		defer unmap()
		rf.data = data
		if err := guardFaults(func() { diagnose(rf, &d, false) }); err != nil {
			return fmt.Errorf("%w: %s: %v", ErrCorrupt, path, err)
		}
	} else {
		quickCheck(rf, &d)
	}
	if d.Newer() {
		return nil
	}
	return d.Err()
}

// quickCheck reads what bbolt reads when it opens the file and starts a
// transaction: the free-list page, the root bucket and the first page of
// each bucket in it.
func quickCheck(rf *rawFile, d *Diagnosis) {
	w := newWalker(rf)
	if err := rf.checkFreelist(); err != nil {
		w.problem("%v", err)
	}
	top := w.buckets(rf.rootBucket(), "root")
	if why := foreign(top); why != "" {
		w.problem("%s", why)
	}
	for name, b := range top {
		if b.inline != nil {
			continue
		}
		p, err := rf.page(b.root)
		if err != nil {
			w.problem("%s: %v", name, err)
			continue
		}
		w.pages += len(p) / rf.pageSize
		if flags := binary.LittleEndian.Uint16(p[8:]); flags != leafPageFlag && flags != branchPageFlag {
			w.problem("%s: page %d is not a branch or leaf page (flags %#x)", name, b.root, flags)
		}
		if name == bucketMeta {
			_ = w.each(b, name, func(e entry) error {
				if string(e.key) == keySchemaVersion {
					d.Schema, _ = decodeU64(e.value)
				}
				return nil
			})
		}
	}
	d.Pages, d.Problems = w.pages, w.report()
}

// guardFaults runs fn with memory faults turned into panics and recovers
// them: a mapped file cut short under the mapping faults when read.
func guardFaults(fn func()) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("reading it failed: %v", r)
		}
	}()
	fn()
	return nil
}
