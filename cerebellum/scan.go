package cerebellum

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// maxListedFiles bounds the file list kept per capability.
const maxListedFiles = 2000

// scanTree reads every capability folder of one source, in sorted order.
// dir is the on-disk root of fsys ("" for embedded trees). A built-in tree
// that carries its parsed form (ParsedFS) is decoded instead, when that
// form is current.
func scanTree(fsys fs.FS, dir string, src Source, cache *manifestCache) ([]*Capability, error) {
	if pf, ok := fsys.(ParsedFS); ok && src == SourceBuiltin && cache == nil {
		if caps, ok := decodeBuiltins(pf); ok {
			return caps, nil
		}
	}
	return readTree(fsys, dir, src, cache)
}

// readTree is scanTree without the built-ins' parsed form.
func readTree(fsys fs.FS, dir string, src Source, cache *manifestCache) ([]*Capability, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("read capability folder %s: %w", displayRoot(dir, src), err)
	}
	// fs.ReadDir sorts by name; keep that order explicit for readers.
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var folders []string
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			continue
		}
		folders = append(folders, name)
	}
	var sd *statDir
	if cache != nil && dir != "" {
		sd = openStatDir(dir)
		defer sd.close()
	}
	// Parse on every core; results keep the sorted folder order.
	caps := make([]*Capability, len(folders))
	workers := min(runtime.GOMAXPROCS(0), len(folders))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(folders) {
					return
				}
				name := folders[i]
				capDir := ""
				if dir != "" {
					capDir = dir + "/" + name
				}
				if sd != nil {
					caps[i] = cache.read(fsys, sd, dir, name, src)
					continue
				}
				sub, err := fs.Sub(fsys, name)
				if err != nil {
					c := &Capability{Name: name, Folder: name, Dir: capDir, Source: src, Kind: KindGuide}
					c.fail(err.Error(), "")
					caps[i] = c
					continue
				}
				caps[i] = readCapability(sub, name, capDir, src)
			}
		}()
	}
	wg.Wait()
	return caps, nil
}

func displayRoot(dir string, src Source) string {
	if dir == "" {
		return string(src)
	}
	return dir
}

// ReadCapability reads and parses one capability folder. It never fails:
// problems become a failed capability with its message.
func ReadCapability(fsys fs.FS, folder, dir string, src Source) *Capability {
	return readCapability(fsys, folder, dir, src)
}

func readCapability(fsys fs.FS, folder, dir string, src Source) *Capability {
	c, _, _ := readFolder(fsys, folder, dir, src, false)
	return c
}

// readCapabilityStats is readCapability that also returns the stat of every
// file and folder it read, taken before reading; ok is false when the
// folder could not be read, which is not worth remembering.
func readCapabilityStats(fsys fs.FS, folder, dir string, src Source) (c *Capability, stats []fileStat, ok bool) {
	return readFolder(fsys, folder, dir, src, true)
}

// unreadKind is the kind of a capability whose SKILL.md is missing or does
// not parse: a plugin if it has files under plugin/ (so a broken plugin is
// not listed as a guide), else a guide.
func unreadKind(files []string) Kind {
	for _, f := range files {
		if strings.HasPrefix(f, "plugin/") {
			return KindPlugin
		}
	}
	return KindGuide
}

func readFolder(fsys fs.FS, folder, dir string, src Source, withStats bool) (*Capability, []fileStat, bool) {
	c := &Capability{Name: folder, Folder: folder, Dir: dir, Source: src, FS: fsys, State: StateOK, Kind: KindGuide}
	if src == SourceBuiltin {
		c.Badge = BadgeOfficial
	} else {
		c.Badge = BadgeUnknown
	}
	files, hash, code, data, stats, err := folderFiles(fsys, withStats)
	c.Files, c.Hash, c.CodeHash = files, hash, code
	if err != nil {
		c.fail(fmt.Sprintf("cannot read the folder: %v", err), "")
		return c, nil, false
	}
	if data == nil {
		c.Kind = unreadKind(files)
		c.fail("no SKILL.md in this folder: add one (frontmatter with name and description) or remove the folder", "")
		return c, stats, true
	}
	m, err := skillmd.Parse(data, skillmd.Options{File: folder + "/SKILL.md", Folder: folder})
	if err != nil {
		c.Kind = unreadKind(files)
		var pe *skillmd.Error
		if errors.As(err, &pe) {
			c.fail(pe.Error(), pe.Detail())
		} else {
			c.fail(err.Error(), "")
		}
		return c, stats, true
	}
	c.Manifest = m
	c.Name = m.Name
	switch {
	case m.MCP != nil:
		c.Kind = KindMCP
	case len(m.Tools) > 0:
		c.Kind = KindPlugin
	}
	if m.Core {
		if src == SourceBuiltin {
			c.Core = true
		} else {
			m.Warnings = append(m.Warnings, skillmd.Problem{File: folder + "/SKILL.md", Field: "core", Warning: true,
				Message: "core is honoured only for capabilities that ship with Wrasse; pin it in config.json (pinnedCapabilities) instead"})
		}
	}
	hasPlugin := false
	for _, f := range files {
		if strings.HasPrefix(f, "plugin/") && strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") {
			hasPlugin = true
			break
		}
	}
	if hasPlugin && len(m.Tools) == 0 && m.MCP == nil {
		m.Warnings = append(m.Warnings, skillmd.Problem{File: folder + "/SKILL.md", Field: "tools", Warning: true,
			Message: "plugin/ holds Go source but SKILL.md declares no tools, so the plugin is never loaded"})
	}
	return c, stats, true
}

// HasPluginSource reports whether the capability folder holds plugin Go files.
func (c *Capability) HasPluginSource() bool {
	for _, f := range c.Files {
		if strings.HasPrefix(f, "plugin/") && strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") {
			return true
		}
	}
	return false
}

func (c *Capability) fail(msg, detail string) {
	c.State = StateFailed
	c.Error = msg
	if detail != "" && detail != msg {
		c.Detail = detail
	}
}

// folderFiles lists the files of a capability folder and hashes it. SKILL.md
// and plugin sources are hashed by content (they decide what loads); other
// files by size and modification time, so big assets do not slow a scan.
// With withStats it also returns the stat of every file and folder, each
// taken before the file is read.
func folderFiles(fsys fs.FS, withStats bool) (files []string, hash, codeHash string, skill []byte, stats []fileStat, err error) {
	h := sha256.New()
	// code covers what runs and what it declares: SKILL.md and plugin sources.
	code := sha256.New()
	var buf [8]byte
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && skipDir(d.Name()) {
				return fs.SkipDir
			}
			if withStats {
				info, err := d.Info()
				if err != nil {
					return err
				}
				stats = append(stats, statOf(p, info))
			}
			return nil
		}
		var info fs.FileInfo
		if withStats {
			if info, err = d.Info(); err != nil {
				return err
			}
			stats = append(stats, statOf(p, info))
		}
		if len(files) < maxListedFiles {
			files = append(files, p)
		}
		h.Write([]byte(p))
		h.Write([]byte{0})
		if isCodeFile(p) {
			data, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			h.Write(data)
			code.Write([]byte(p))
			code.Write([]byte{0})
			code.Write(data)
			if p == "SKILL.md" {
				skill = data
			}
		} else {
			if info == nil {
				info, err = d.Info()
			}
			if err == nil {
				binary.BigEndian.PutUint64(buf[:], uint64(info.Size()))
				h.Write(buf[:])
				binary.BigEndian.PutUint64(buf[:], uint64(info.ModTime().UnixNano()))
				h.Write(buf[:])
			}
		}
		h.Write([]byte{0})
		return nil
	})
	sort.Strings(files)
	return files, hex.EncodeToString(h.Sum(nil))[:16], hex.EncodeToString(code.Sum(nil))[:16], skill, stats, err
}
