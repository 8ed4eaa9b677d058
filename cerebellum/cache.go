package cerebellum

import (
	"io/fs"
	"reflect"
	"sync"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum/internal/scancache"
)

// manifestCacheVersion changes whenever the parser's output or the record
// layout may change, so an old cache is ignored rather than trusted.
const manifestCacheVersion = "scan-4"

// racyWindow is how recent a file's modification time may be before its
// stat stops vouching for its content: within a timestamp tick of the scan
// (up to 2 s on FAT, 1 s on ext3) a file can change again without its
// modification time changing, so such files are read again, as git treats
// "racily clean" entries.
const racyWindow = 2 * time.Second

// racyChangeWindow is the same for a file's change time, which an edit
// cannot set back (cp -p and rsync -t put the modification time back) but
// which Linux before 6.13 takes from a coarse clock tick (1-10 ms): an
// edit within the tick of a scan keeps it. A change time has no 2 s
// granularity to cover, and tools that date files back (the benchmarks,
// archive extractors) would otherwise be read again for 2 s.
const racyChangeWindow = 100 * time.Millisecond

// manifestCache remembers, per workspace capability folder, what the last
// scan read from it (the capability with its parsed SKILL.md, hashes and
// file list) together with the stat of every file and folder in it. A scan
// trusts an entry whose stats all still match and reads only the folders
// that changed; the entries live in a scancache.File. It also remembers
// which failures were logged (see Registry.logFailuresLocked), so a
// restart does not log them again.
type manifestCache struct {
	file *scancache.File[*scanRecord]

	mu sync.Mutex
	// mem holds the entries handed out in this process, by folder.
	mem map[string]*scanEntry
}

// fileStat is what a file's or folder's stat says of it: enough to tell,
// without reading it, that it has not changed.
type fileStat struct {
	Path  string `json:"p"`
	Dir   bool   `json:"d,omitempty"`
	Size  int64  `json:"s,omitempty"`
	MTime int64  `json:"m"`
	CTime int64  `json:"c,omitempty"`
	Ino   uint64 `json:"i,omitempty"`
}

func statOf(p string, fi fs.FileInfo) fileStat {
	s := fileStat{Path: p, Dir: fi.IsDir(), MTime: fi.ModTime().UnixNano()}
	if !s.Dir {
		s.Size = fi.Size()
	}
	s.Ino, s.CTime = sysStat(fi)
	return s
}

// scanEntry is one folder as last read.
type scanEntry struct {
	// At is when the stats were taken (Unix ns), for the racy check.
	At    int64
	Stats []fileStat
	// cap is the capability as read, never changed once stored (FS unset).
	cap *Capability
	// live is cap with its folder set, handed to every scan that finds the
	// entry fresh (under manifestCache.mu): the same pointer each time, so
	// a Resync can tell in one comparison that nothing changed.
	live *Capability
}

// scanRecord is a scanEntry as the cache file stores it.
type scanRecord struct {
	At    int64
	Stats []fileStat
	Cap   Capability
}

// cacheVersion is the file's version: the types' fingerprint retires
// entries written for other fields.
func cacheVersion() string {
	return manifestCacheVersion + "-" + scancache.Fingerprint(reflect.TypeFor[scanRecord]())
}

func openManifestCache(path string) *manifestCache {
	return &manifestCache{file: scancache.Open[*scanRecord](path, cacheVersion()), mem: map[string]*scanEntry{}}
}

// entry returns what the last scan read from folder.
func (c *manifestCache) entry(folder string) *scanEntry {
	c.mu.Lock()
	e, ok := c.mem[folder]
	c.mu.Unlock()
	if ok {
		return e
	}
	rec, ok := c.file.Get(folder)
	if !ok || rec == nil {
		return nil
	}
	e = &scanEntry{At: rec.At, Stats: rec.Stats, cap: &rec.Cap}
	c.mu.Lock()
	if prev, ok := c.mem[folder]; ok {
		e = prev // another scan worker got here first
	} else {
		c.mem[folder] = e
	}
	c.mu.Unlock()
	return e
}

// fresh reports whether every file and folder of the entry is as it was,
// by stat alone; d is the source's root and folder the capability's.
func (e *scanEntry) fresh(d *statDir, folder string) bool {
	if len(e.Stats) == 0 {
		return false
	}
	racy, racyChange := e.At-int64(racyWindow), e.At-int64(racyChangeWindow)
	for _, s := range e.Stats {
		if s.MTime >= racy || s.CTime >= racyChange {
			return false
		}
		rel := folder
		if s.Path != "." {
			rel = folder + "/" + s.Path
		}
		if now, ok := d.stat(rel, s.Path); !ok || now != s {
			return false
		}
	}
	return true
}

// store remembers what a scan read from folder.
func (c *manifestCache) store(folder string, e *scanEntry) {
	c.mu.Lock()
	c.mem[folder] = e
	c.mu.Unlock()
	c.file.Put(folder, &scanRecord{At: e.At, Stats: e.Stats, Cap: *e.cap})
}

// forget drops the entry of a folder that is gone.
func (c *manifestCache) forget(folder string) {
	c.mu.Lock()
	delete(c.mem, folder)
	c.mu.Unlock()
	c.file.Delete(folder)
}

// prune forgets every folder not in keep (a full scan's folders).
func (c *manifestCache) prune(keep map[string]bool) {
	for _, f := range c.file.Keys() {
		if !keep[f] {
			c.forget(f)
		}
	}
	c.mu.Lock()
	for f := range c.mem {
		if !keep[f] {
			delete(c.mem, f)
		}
	}
	c.mu.Unlock()
}

func (c *manifestCache) save() error { return c.file.Save() }

// read returns the capability in folder (under dir, the source's root on
// disk), from the cache when its stats vouch for it, else read afresh.
func (c *manifestCache) read(fsys fs.FS, sd *statDir, dir, folder string, src Source) *Capability {
	capDir := dir + "/" + folder
	sub, err := fs.Sub(fsys, folder)
	if err != nil {
		cp := &Capability{Name: folder, Folder: folder, Dir: capDir, Source: src, Kind: KindGuide}
		cp.fail(err.Error(), "")
		return cp
	}
	e := c.entry(folder)
	if e != nil && e.fresh(sd, folder) {
		c.mu.Lock()
		defer c.mu.Unlock()
		if e.live == nil || e.live.Dir != capDir {
			cp := *e.cap
			cp.Dir, cp.FS = capDir, sub
			e.live = &cp
		}
		return e.live
	}
	at := time.Now().UnixNano()
	cp, stats, ok := readCapabilityStats(sub, folder, capDir, src)
	if !ok {
		return cp
	}
	if e != nil {
		c.mu.Lock()
		live := e.live
		c.mu.Unlock()
		if live != nil && live.Dir == capDir && live.Hash == cp.Hash && live.CodeHash == cp.CodeHash && live.State == cp.State && live.Error == cp.Error {
			// Read again (touched, or too recent to trust its stat) but the
			// same content: keep handing out the same capability.
			c.store(folder, &scanEntry{At: at, Stats: stats, cap: e.cap, live: live})
			return live
		}
	}
	tmpl := *cp
	tmpl.FS = nil
	c.store(folder, &scanEntry{At: at, Stats: stats, cap: &tmpl, live: cp})
	return cp
}
