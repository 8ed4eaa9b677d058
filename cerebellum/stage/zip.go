package stage

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"sort"
	"strings"
)

func stageZip(input, base string, fileSize int64, parent string, lim Limits, sel selection) (*Staged, error) {
	f, err := os.Open(input)
	if err != nil {
		return nil, fmt.Errorf("stage: %w", err)
	}
	defer f.Close()
	p, err := planZip(f, base, fileSize, lim, sel)
	if err != nil {
		return nil, err
	}
	root, skill, err := p.pick()
	if err != nil {
		return nil, err
	}
	st := &Staged{Kind: KindZip, Root: root, Ignored: p.Ignored()}
	s := &stager{kind: KindZip, input: base, lim: lim, archiveSize: fileSize}
	return withStaging(parent, st, s, func(s *stager) error {
		return p.write(s, root, skill, func(e entry, rel string) error { return writeZipEntry(s, e, rel) })
	})
}

// planZip reads and checks a zip's central directory without reading any
// entry's data.
func planZip(f *os.File, base string, fileSize int64, lim Limits, sel selection) (*planner, error) {
	p := newPlanner(KindZip, base, lim, sel)
	if sel.collection() {
		// The archive/zip budgets below scale with the files allowed.
		lim.MaxFiles *= collectionScale
	}
	if fileSize == 0 {
		return nil, p.failInput(ErrEmpty, "the file is 0 bytes; download or re-create it")
	}
	head, _, err := readUpTo(io.NewSectionReader(f, 0, fileSize), sniffLen)
	if err != nil {
		return nil, fmt.Errorf("stage: %w", err)
	}
	if archiveFormat(head) != "zip" {
		d := describeFormat(head)
		if d == "" {
			d = fmt.Sprintf("it starts with bytes % x, not a zip signature", head[:min(len(head), 4)])
		}
		return nil, p.failInput(ErrNotZip, "%s; re-pack the capability folder as a .zip", d)
	}

	// archive/zip loads the whole central directory before we see an entry:
	// cap the bytes it may read to bound memory.
	budget := &budgetReaderAt{r: f, left: dirBytesEOCDSearch + int64(lim.maxEntries())*dirBytesPerEntry, on: true}
	zr, err := zip.NewReader(budget, fileSize)
	budget.on = false
	switch {
	case errors.Is(err, errBudget):
		return nil, p.failInput(ErrTooManyFiles, "its central directory is larger than %s, far more entries than %d files allow", size(budget.limit()), lim.MaxFiles)
	case err != nil && !errors.Is(err, zip.ErrInsecurePath): // names are checked below, one by one
		return nil, p.failInput(ErrCorrupt, "%s; download or re-create the archive", zipErrText(err))
	case len(zr.File) > lim.maxEntries():
		return nil, p.failInput(ErrTooManyFiles, "it has %d entries; at most %d files (and their folders) are allowed", len(zr.File), lim.MaxFiles)
	}

	for _, zf := range zr.File {
		if err := p.keep(zf.Name, planZipEntry(p, zf)); err != nil {
			return nil, err
		}
	}
	if err := checkOverlap(p); err != nil {
		return nil, err
	}
	return p, nil
}

func writeZipEntry(s *stager, e entry, rel string) error {
	rc, err := e.zf.Open()
	if err != nil {
		if errors.Is(err, zip.ErrAlgorithm) {
			return s.fail(e.raw, newProblem(ErrUnsupportedEntry, "compression method %d is not supported; re-create the archive with deflate", e.zf.Method))
		}
		return s.readErr(e.raw, err)
	}
	defer rc.Close()
	return s.write(e.raw, rel, rc, int64(min(e.zf.CompressedSize64, math.MaxInt64)), e.exec)
}

// planZipEntry checks one central directory record without reading its data.
func planZipEntry(p *planner, zf *zip.File) error {
	clean, dir, skip, err := p.classify(zf.Name, true, zf.Mode().IsDir())
	if err != nil || skip {
		return err
	}
	if pr := zipEntryType(zf); pr != nil {
		return p.fail(zf.Name, pr)
	}
	if dir {
		return p.add(entry{raw: zf.Name, clean: clean, dir: true})
	}
	switch {
	case zf.Flags&0x1 != 0:
		return p.fail(zf.Name, newProblem(ErrUnsupportedEntry, "it is encrypted; password-protected archives are not supported"))
	case zf.Method != zip.Store && zf.Method != zip.Deflate:
		return p.fail(zf.Name, newProblem(ErrUnsupportedEntry, "compression method %d is not supported; re-create the archive with deflate", zf.Method))
	}
	// Declared sizes give an early answer; they are enforced again while inflating.
	unc, comp := zf.UncompressedSize64, zf.CompressedSize64
	if unc > ratioFloor && float64(unc) > p.lim.MaxRatio*float64(max(comp, 1)) {
		return p.fail(zf.Name, newProblem(ErrZipBomb, "it declares %s from %s compressed, more than %g times", size(int64(min(unc, math.MaxInt64))), size(int64(min(comp, math.MaxInt64))), p.lim.MaxRatio))
	}
	return p.add(entry{raw: zf.Name, clean: clean, size: int64(min(unc, math.MaxInt64)), zf: zf, exec: ownerExec(zf.Mode())})
}

// zipEntryType rejects links and special files by their mode bits.
func zipEntryType(zf *zip.File) *problem {
	m := zf.Mode()
	switch {
	case m&fs.ModeSymlink != 0:
		return newProblem(ErrLink, "it is a symbolic link; archive the file it points to instead")
	case m&(fs.ModeDevice|fs.ModeCharDevice|fs.ModeNamedPipe|fs.ModeSocket|fs.ModeIrregular) != 0:
		return newProblem(ErrSpecialFile, "it is a %s; only files and folders can be installed", typeName(m))
	}
	// archive/zip reads Unix type bits it does not know as a regular file.
	const creatorUnix, creatorMacOSX = 3, 19
	if c := zf.CreatorVersion >> 8; c == creatorUnix || c == creatorMacOSX {
		const sIFMT, sIFREG, sIFDIR = 0o170000, 0o100000, 0o040000
		if t := (zf.ExternalAttrs >> 16) & sIFMT; t != 0 && t != sIFREG && t != sIFDIR {
			return newProblem(ErrSpecialFile, "it has Unix file type %#o; only files and folders can be installed", t)
		}
	}
	return nil
}

func typeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	}
	return "special file"
}

// checkOverlap rejects entries whose compressed data overlap: the trick of
// non-recursive zip bombs, where many entries reuse one highly compressed
// kernel so no single entry looks large.
func checkOverlap(p *planner) error {
	type span struct {
		off, end int64
		e        entry
	}
	var spans []span
	for _, e := range p.entries {
		if e.dir || e.zf.CompressedSize64 == 0 {
			continue
		}
		off, err := e.zf.DataOffset()
		if err != nil {
			return p.fail(e.raw, newProblem(ErrCorrupt, "its local header cannot be read (%s); download or re-create the archive", zipErrText(err)))
		}
		spans = append(spans, span{off, off + int64(min(e.zf.CompressedSize64, math.MaxInt64/2)), e})
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].off < spans[j].off })
	for i := 1; i < len(spans); i++ {
		if spans[i].off < spans[i-1].end {
			return p.fail(spans[i].e.raw, newProblem(ErrZipBomb, "its compressed data overlaps that of %s, so a small archive could expand without limit", quote(spans[i-1].e.raw)))
		}
	}
	return nil
}

var errBudget = errors.New("zip central directory over budget")

// budgetReaderAt fails once more than its budget has been read while on.
type budgetReaderAt struct {
	r    io.ReaderAt
	left int64
	used int64
	on   bool
}

func (b *budgetReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if b.on {
		if int64(len(p)) > b.left {
			return 0, errBudget
		}
		b.left -= int64(len(p))
		b.used += int64(len(p))
	}
	return b.r.ReadAt(p, off)
}

func (b *budgetReaderAt) limit() int64 { return b.left + b.used }

// zipErrText is an archive/zip error without its package prefix.
func zipErrText(err error) string { return strings.TrimPrefix(err.Error(), "zip: ") }
