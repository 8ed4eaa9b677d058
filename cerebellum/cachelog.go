package cerebellum

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unsafe"

	"github.com/wrasse-app/wrasse/cerebellum/atomicfile"
)

// cacheLog is a key → value file that is only ever appended to, so saving
// one changed entry writes that entry and not the whole cache. Opening reads
// the file once; a later record of a key replaces an earlier one, and an
// empty record deletes it. When dead records outweigh live ones, in bytes
// or in number, the file is rewritten whole (atomically: a temporary file
// renamed over it), which keeps it within about twice its live size. The
// check is made at every save and at open, so a file left large by a
// process that stopped early is rewritten by the next one that saves. (It
// counts bytes, not only records: a workspace of many small live records,
// such as logged failures, let the large ones pile up three-fold by count.)
// It is a cache: a torn or corrupt tail is ignored (and rewritten on the
// next save), and a file of another version is ignored.
//
// Layout: a header line "wrasse-cache <version>\n", then records of
// crc32(4) keyLen(4) valLen(4) key value, the lengths big-endian, the CRC
// (IEEE) over lengths, key and value.
type cacheLog struct {
	path   string
	header []byte

	mu   sync.Mutex
	vals map[string][]byte
	// pending are the changes since the last save; a nil value deletes.
	pending map[string][]byte
	// records counts the records in the file, live or dead, and
	// fileBytes their bytes (without the header).
	records   int
	fileBytes int64
	// liveBytes is what the records of vals take in the file.
	liveBytes int64
	// rewrite is set when the file must be written whole on the next
	// save (missing, another version, or a damaged tail).
	rewrite bool
}

const cacheRecordHead = 12

// Slack allowed to dead records before the file is rewritten, so a small
// log is not rewritten on every change.
const (
	cacheSlackRecords = 64
	cacheSlackBytes   = 16 << 10
)

func cacheRecordSize(key string, val []byte) int64 {
	return int64(cacheRecordHead + len(key) + len(val))
}

// mostlyDead reports whether a file of records and bytes holding the live
// entries of vals (liveBytes) should be rewritten whole.
func (l *cacheLog) mostlyDead(records int, bytes int64) bool {
	return records > 2*len(l.vals)+cacheSlackRecords || bytes > 2*l.liveBytes+cacheSlackBytes
}

func openCacheLog(path, version string) *cacheLog {
	l := &cacheLog{path: path, header: []byte("wrasse-cache " + version + "\n"), vals: map[string][]byte{}, pending: map[string][]byte{}, rewrite: true}
	if path == "" {
		return l
	}
	data, err := os.ReadFile(path)
	if err != nil || !bytes.HasPrefix(data, l.header) {
		return l
	}
	rest := data[len(l.header):]
	// Sized for the records an average of 2 KB would give: growing the map
	// from empty re-hashed 20,000 keys several times.
	l.vals = make(map[string][]byte, len(rest)/2048)
	for len(rest) >= cacheRecordHead {
		sum := binary.BigEndian.Uint32(rest[0:4])
		kl, vl := int(binary.BigEndian.Uint32(rest[4:8])), int(binary.BigEndian.Uint32(rest[8:12]))
		if kl < 0 || vl < 0 || cacheRecordHead+kl+vl > len(rest) || crc32.ChecksumIEEE(rest[4:cacheRecordHead+kl+vl]) != sum {
			break
		}
		// Keys and values share the file's buffer, which nothing writes to.
		kb := rest[cacheRecordHead : cacheRecordHead+kl]
		key := unsafe.String(unsafe.SliceData(kb), len(kb))
		if old, ok := l.vals[key]; ok {
			l.liveBytes -= cacheRecordSize(key, old)
		}
		if vl == 0 {
			delete(l.vals, key)
		} else {
			v := rest[cacheRecordHead+kl : cacheRecordHead+kl+vl : cacheRecordHead+kl+vl]
			l.vals[key] = v
			l.liveBytes += cacheRecordSize(key, v)
		}
		l.records++
		l.fileBytes += int64(cacheRecordHead + kl + vl)
		rest = rest[cacheRecordHead+kl+vl:]
	}
	// A damaged tail would hide whatever is appended after it; a file
	// mostly dead (left so by a process that ended before it compacted, or
	// by an older policy) is rewritten by the next save.
	l.rewrite = len(rest) != 0 || l.mostlyDead(l.records, l.fileBytes)
	return l
}

// get returns the value of key, nil if none. The slice must not be changed.
func (l *cacheLog) get(key string) []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.vals[key]
}

// keys returns every live key with the prefix, in no order.
func (l *cacheLog) keys(prefix string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for k := range l.vals {
		if strings.HasPrefix(k, prefix) {
			out = append(out, k)
		}
	}
	return out
}

// put sets key to val (nil or empty deletes it) for the next save.
func (l *cacheLog) put(key string, val []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	old, ok := l.vals[key]
	if len(val) == 0 {
		if !ok {
			return
		}
		delete(l.vals, key)
		l.liveBytes -= cacheRecordSize(key, old)
		l.pending[key] = nil
		return
	}
	if ok && bytes.Equal(old, val) {
		return
	}
	if ok {
		l.liveBytes -= cacheRecordSize(key, old)
	}
	l.vals[key] = val
	l.liveBytes += cacheRecordSize(key, val)
	l.pending[key] = val
}

// save writes the changes since the last save: appended, or the whole file
// when it has to be rewritten or is mostly dead records.
func (l *cacheLog) save() error {
	if l.path == "" {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.pending) == 0 && !l.rewrite {
		return nil
	}
	var pendingBytes int64
	for k, v := range l.pending {
		pendingBytes += cacheRecordSize(k, v)
	}
	if l.rewrite || l.mostlyDead(l.records+len(l.pending), l.fileBytes+pendingBytes) {
		var buf bytes.Buffer
		buf.Write(l.header)
		keys := make([]string, 0, len(l.vals))
		for k := range l.vals {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			appendRecord(&buf, k, l.vals[k])
		}
		if err := os.MkdirAll(filepath.Dir(l.path), 0o700); err != nil {
			return err
		}
		if err := atomicfile.Write(l.path, buf.Bytes(), 0o600); err != nil {
			return err
		}
		l.records, l.fileBytes, l.rewrite = len(keys), int64(buf.Len()-len(l.header)), false
		clear(l.pending)
		return nil
	}
	var buf bytes.Buffer
	keys := make([]string, 0, len(l.pending))
	for k := range l.pending {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		appendRecord(&buf, k, l.pending[k])
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		// Gone since it was read: write it whole next time.
		l.rewrite = true
		return err
	}
	_, werr := f.Write(buf.Bytes())
	// Another process may have appended since this one read the file: its
	// size, not this process's count, is what the next check weighs.
	size := int64(-1)
	if fi, err := f.Stat(); err == nil {
		size = fi.Size() - int64(len(l.header))
	}
	cerr := f.Close()
	if werr != nil || cerr != nil {
		l.rewrite = true
		if werr != nil {
			return werr
		}
		return cerr
	}
	l.records += len(keys)
	l.fileBytes += int64(buf.Len())
	if size > l.fileBytes {
		l.fileBytes = size
	}
	clear(l.pending)
	return nil
}

func appendRecord(buf *bytes.Buffer, key string, val []byte) {
	var head [cacheRecordHead]byte
	binary.BigEndian.PutUint32(head[4:8], uint32(len(key)))
	binary.BigEndian.PutUint32(head[8:12], uint32(len(val)))
	h := crc32.NewIEEE()
	h.Write(head[4:])
	h.Write([]byte(key))
	h.Write(val)
	binary.BigEndian.PutUint32(head[0:4], h.Sum32())
	buf.Write(head[:])
	buf.WriteString(key)
	buf.Write(val)
}
