package mcpbundle

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"unicode"

	"github.com/wrasse-app/wrasse/cerebellum/stage"
)

// Bundle is an opened, validated bundle: its manifest and the archive's
// entries, checked but not yet extracted.
type Bundle struct {
	// Path is the .mcpb/.dxt file.
	Path     string
	Manifest *Manifest
	// Name is the capability it installs as (CapabilityName of the
	// manifest's name).
	Name    string
	entries []entry
	limits  stage.Limits
}

// entry is one file of the archive, checked.
type entry struct {
	f    *zip.File
	name string // clean slash path
	exec bool
}

// Open reads path's central directory and manifest.json and validates
// both, writing nothing. lim bounds the archive (zero fields: the
// install defaults, stage.DefaultLimits).
func Open(file string, lim stage.Limits) (*Bundle, error) {
	lim = lim.WithDefaults()
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("open the bundle: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("open the bundle: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %s is not a regular file", ErrNotBundle, filepath.Base(file))
	}
	var sig [4]byte
	if _, err := io.ReadFull(f, sig[:]); err != nil || !bytes.Equal(sig[:], []byte("PK\x03\x04")) {
		return nil, fmt.Errorf("%w: %s is not a zip archive (a .mcpb or .dxt file is one)", ErrNotBundle, filepath.Base(file))
	}
	// The central directory is read into memory by archive/zip: bound the
	// archive first, so millions of tiny entries are refused unread.
	if fi.Size() > lim.MaxTotalBytes*2 {
		return nil, fmt.Errorf("%w: %s is %d bytes, over %d", ErrTooLarge, filepath.Base(file), fi.Size(), lim.MaxTotalBytes*2)
	}
	zr, err := zip.NewReader(f, fi.Size())
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrNotBundle, filepath.Base(file), err)
	}
	entries, err := checkEntries(zr.File, lim)
	if err != nil {
		return nil, err
	}
	files := map[string]bool{}
	var manifest *entry
	for i, e := range entries {
		files[e.name] = true
		if e.name == "manifest.json" {
			manifest = &entries[i]
		}
	}
	if manifest == nil {
		return nil, fmt.Errorf("%w: there is no manifest.json at the top of %s", ErrManifest, filepath.Base(file))
	}
	data, err := readEntry(manifest.f, MaxManifestBytes)
	if err != nil {
		return nil, err
	}
	m, err := ParseManifest(data, files, runtime.GOOS)
	if err != nil {
		return nil, err
	}
	// Keep the bundle's data from f being closed: reopen at Extract.
	return &Bundle{Path: file, Manifest: m, Name: CapabilityName(m.Name), entries: entries, limits: lim}, nil
}

// ratioFloor: an entry is held to MaxRatio once it expands past this, as
// stage does; small, very repetitive files compress far better than 100:1
// and are harmless.
const ratioFloor = 1 << 20

// checkEntries refuses an archive that is unsafe anywhere, before
// anything is written, and returns its files (folders dropped, junk
// skipped).
func checkEntries(files []*zip.File, lim stage.Limits) ([]entry, error) {
	if len(files) > lim.MaxFiles*4+64 {
		return nil, fmt.Errorf("%w: %d entries, over %d files", ErrTooLarge, len(files), lim.MaxFiles)
	}
	var out []entry
	seen := map[string]string{}
	dirs := map[string]bool{}
	var total uint64
	for _, f := range files {
		raw := f.Name
		unsafe := func(why string) error {
			return fmt.Errorf("%w: %q %s", ErrUnsafeEntry, raw, why)
		}
		name := strings.ReplaceAll(raw, `\`, "/")
		isDir := strings.HasSuffix(name, "/")
		if name == "" || strings.HasPrefix(name, "/") || len(name) > 1 && name[1] == ':' {
			return nil, unsafe("is an absolute path")
		}
		for _, r := range name {
			if r == 0 || unicode.IsControl(r) || r == unicode.ReplacementChar {
				return nil, unsafe("holds a control character or is not UTF-8")
			}
		}
		clean := path.Clean(name)
		if clean == ".." || strings.HasPrefix(clean, "../") {
			return nil, unsafe("points outside the bundle")
		}
		if clean == "." {
			continue
		}
		if junk(clean) {
			continue
		}
		if strings.Count(clean, "/")+1 > lim.MaxDepth {
			return nil, unsafe(fmt.Sprintf("is nested deeper than %d folders", lim.MaxDepth))
		}
		mode := f.Mode()
		switch {
		case mode&fs.ModeSymlink != 0:
			return nil, unsafe("is a symbolic link")
		case mode.IsDir() || isDir:
			dirs[clean] = true
			continue
		case !mode.IsRegular():
			return nil, unsafe("is not a regular file")
		}
		if f.Flags&0x1 != 0 {
			return nil, unsafe("is encrypted")
		}
		if f.Method != zip.Store && f.Method != zip.Deflate {
			return nil, unsafe(fmt.Sprintf("uses compression method %d (only store and deflate)", f.Method))
		}
		low := strings.ToLower(clean)
		if prev, ok := seen[low]; ok {
			return nil, unsafe(fmt.Sprintf("collides with %q", prev))
		}
		seen[low] = raw
		if f.UncompressedSize64 > uint64(lim.MaxFileBytes) {
			return nil, fmt.Errorf("%w: %q is %d bytes, over %d", ErrTooLarge, raw, f.UncompressedSize64, lim.MaxFileBytes)
		}
		total += f.UncompressedSize64
		if total > uint64(lim.MaxTotalBytes) {
			return nil, fmt.Errorf("%w: over %d bytes unpacked", ErrTooLarge, lim.MaxTotalBytes)
		}
		out = append(out, entry{f: f, name: clean, exec: mode.Perm()&0o100 != 0})
		if len(out) > lim.MaxFiles {
			return nil, fmt.Errorf("%w: over %d files", ErrTooLarge, lim.MaxFiles)
		}
	}
	// A file and a folder of one path would merge.
	for _, e := range out {
		if dirs[e.name] {
			return nil, fmt.Errorf("%w: %q is both a file and a folder", ErrUnsafeEntry, e.name)
		}
		for d := path.Dir(e.name); d != "."; d = path.Dir(d) {
			if _, ok := seen[strings.ToLower(d)]; ok {
				return nil, fmt.Errorf("%w: %q is both a file and a folder", ErrUnsafeEntry, d)
			}
		}
	}
	return out, nil
}

// junk is what archivers add and nothing runs: skipped.
func junk(clean string) bool {
	for _, c := range strings.Split(clean, "/") {
		if c == "__MACOSX" || c == ".DS_Store" || strings.HasPrefix(c, "._") || c == "Thumbs.db" {
			return true
		}
	}
	return false
}

// readEntry reads a whole entry, refusing one over max (metered, not
// trusting the declared size).
func readEntry(f *zip.File, max int64) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: %q: %w", ErrNotBundle, f.Name, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, max+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %q: %w", ErrNotBundle, f.Name, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%w: %q is over %d bytes", ErrTooLarge, f.Name, max)
	}
	return data, nil
}

// HasFile reports whether the bundle holds a file at the slash path p.
func (b *Bundle) HasFile(p string) bool {
	for _, e := range b.entries {
		if e.name == path.Clean(p) {
			return true
		}
	}
	return false
}

// Extract unpacks the bundle into dir, which must not exist yet (its
// parent must). Bytes are metered while inflating; on any error dir is
// removed.
func (b *Bundle) Extract(dir string) (err error) {
	f, err := os.Open(b.Path)
	if err != nil {
		return fmt.Errorf("extract the bundle: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("extract the bundle: %w", err)
	}
	zr, err := zip.NewReader(f, fi.Size())
	if err != nil {
		return fmt.Errorf("%w: %w", ErrNotBundle, err)
	}
	// The file may have changed since Open: check it again.
	entries, err := checkEntries(zr.File, b.limits)
	if err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return fmt.Errorf("extract the bundle: %w", err)
	}
	defer func() {
		if err != nil {
			_ = os.RemoveAll(dir)
		}
	}()
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("extract the bundle: %w", err)
	}
	defer root.Close()
	var total int64
	for _, e := range entries {
		n, err := b.write(root, e, b.limits.MaxTotalBytes-total)
		if err != nil {
			return err
		}
		total += n
	}
	return nil
}

// write inflates one entry into root, at most budget bytes in all.
func (b *Bundle) write(root *os.Root, e entry, budget int64) (int64, error) {
	if d := path.Dir(e.name); d != "." {
		if err := root.MkdirAll(d, 0o755); err != nil {
			return 0, fmt.Errorf("extract %q: %w", e.name, err)
		}
	}
	mode := os.FileMode(0o644)
	if e.exec {
		mode = 0o755
	}
	out, err := root.OpenFile(e.name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return 0, fmt.Errorf("extract %q: %w", e.name, err)
	}
	defer out.Close()
	rc, err := e.f.Open()
	if err != nil {
		return 0, fmt.Errorf("%w: %q: %w", ErrNotBundle, e.name, err)
	}
	defer rc.Close()
	max := min(b.limits.MaxFileBytes, budget)
	n, err := io.Copy(out, io.LimitReader(rc, max+1))
	if err != nil {
		return n, fmt.Errorf("extract %q: %w", e.name, err)
	}
	if n > max {
		return n, fmt.Errorf("%w: %q expands past its limit (%d bytes)", ErrTooLarge, e.name, max)
	}
	if n > ratioFloor && e.f.CompressedSize64 > 0 && float64(n)/float64(e.f.CompressedSize64) > b.limits.MaxRatio {
		return n, fmt.Errorf("%w: %q expands %.0f times (a zip bomb?)", ErrTooLarge, e.name, float64(n)/float64(e.f.CompressedSize64))
	}
	if err := out.Close(); err != nil {
		return n, fmt.Errorf("extract %q: %w", e.name, err)
	}
	return n, nil
}
