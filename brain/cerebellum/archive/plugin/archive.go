// Package archive is the plugin of the built-in archive capability: list,
// extract and create zip and tar(.gz) archives inside the granted folders.
//
// Extraction is defensive: every entry is checked before anything is
// written (paths escaping the destination, links, devices, counts, sizes,
// compression ratios, and entries that clash with each other: a file and
// a folder of one name, a file with entries inside it), and existing
// files are kept unless overwrite is set. Every file is opened through the SDK's file API, which checks what
// it actually opens: each entry is created beneath the destination's
// folder handle, never through a symbolic link (one in its way refuses the
// archive), as a temporary file renamed into place, so a link planted or
// flipped in the destination cannot redirect a write and nothing existing
// is truncated.
//
// The source is interpreted by yaegi at run time: no goroutines, no
// package-level mutable state, stdlib and the SDK only.
package archive

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// Limits. A caller can't raise them: they guard the user's disk.
const (
	maxEntries   = 10000
	maxTotal     = 2 << 30 // bytes extracted per call
	maxRatio     = 200     // uncompressed / compressed, beyond which data is a bomb
	ratioFloor   = 1 << 20 // ratios only matter past this size
	maxListLines = 1000
	maxCreate    = 50000 // files per created archive
)

// Formats.
const (
	fmtZip   = "zip"
	fmtTar   = "tar"
	fmtTarGz = "tar.gz"
)

type arch struct {
	env *sdk.Env
	// Limits, from the constants; tests lower them.
	maxEntries int
	maxTotal   int64
}

// Init registers archive_list, archive_extract and archive_create.
func Init(env *sdk.Env) (*sdk.Plugin, error) {
	a := &arch{env: env, maxEntries: maxEntries, maxTotal: maxTotal}
	p := sdk.NewPlugin()
	p.Handle("archive_list", a.list)
	p.Handle("archive_extract", a.extract)
	p.Handle("archive_create", a.create)
	return p, nil
}

// entry is one archive member as the checks see it.
type entry struct {
	Name       string // cleaned, slash-separated
	Raw        string // as stored
	Kind       string // file, dir, symlink, hardlink, device, other
	Size       int64
	Compressed int64 // zip only; 0 when unknown
	Mode       fs.FileMode
	Modified   time.Time
	Link       string
}

// detect names the format of the open archive f from magic bytes, then
// the extension of its name p.
func detect(f *os.File, p string) (string, error) {
	head := make([]byte, 512)
	n, _ := f.ReadAt(head, 0)
	head = head[:n]
	switch {
	case bytes.HasPrefix(head, []byte("PK\x03\x04")) || bytes.HasPrefix(head, []byte("PK\x05\x06")):
		return fmtZip, nil
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return fmtTarGz, nil
	case len(head) >= 262 && string(head[257:262]) == "ustar":
		return fmtTar, nil
	}
	lower := strings.ToLower(p)
	switch {
	case strings.HasSuffix(lower, ".zip"):
		return fmtZip, nil
	case strings.HasSuffix(lower, ".tar.gz") || strings.HasSuffix(lower, ".tgz"):
		return fmtTarGz, nil
	case strings.HasSuffix(lower, ".tar"):
		return fmtTar, nil
	}
	return "", fmt.Errorf("not a zip, tar or tar.gz archive")
}

// readEntries lists the members of the open archive f (size bytes)
// without extracting, up to one past limit.
func readEntries(f *os.File, size int64, format string, limit int) ([]entry, error) {
	if format == fmtZip {
		r, err := zip.NewReader(f, size)
		if err != nil {
			return nil, err
		}
		out := make([]entry, 0, len(r.File))
		for _, f := range r.File {
			if len(out) > limit {
				return out, nil
			}
			out = append(out, zipEntry(f))
		}
		return out, nil
	}
	var out []entry
	errStop := errors.New("stop")
	err := walkTar(f, size, format, func(h *tar.Header, r io.Reader) error {
		out = append(out, tarEntry(h))
		if len(out) > limit {
			return errStop
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		return out, err
	}
	return out, nil
}

func zipEntry(f *zip.File) entry {
	e := entry{Raw: f.Name, Name: cleanName(f.Name), Size: int64(f.UncompressedSize64),
		Compressed: int64(f.CompressedSize64), Mode: f.Mode(), Modified: f.Modified}
	m := f.Mode()
	switch {
	case m&fs.ModeSymlink != 0:
		e.Kind = "symlink"
	case m.IsDir() || strings.HasSuffix(f.Name, "/"):
		e.Kind = "dir"
	case m&(fs.ModeDevice|fs.ModeCharDevice|fs.ModeNamedPipe|fs.ModeSocket|fs.ModeIrregular) != 0:
		e.Kind = "device"
	default:
		e.Kind = "file"
	}
	return e
}

func tarEntry(h *tar.Header) entry {
	e := entry{Raw: h.Name, Name: cleanName(h.Name), Size: h.Size, Mode: h.FileInfo().Mode(), Modified: h.ModTime, Link: h.Linkname}
	switch h.Typeflag {
	case tar.TypeReg: // the reader reports the old TypeRegA as TypeReg
		e.Kind = "file"
	case tar.TypeDir:
		e.Kind = "dir"
	case tar.TypeSymlink:
		e.Kind = "symlink"
	case tar.TypeLink:
		e.Kind = "hardlink"
	case tar.TypeChar, tar.TypeBlock, tar.TypeFifo:
		e.Kind = "device"
	case tar.TypeXGlobalHeader, tar.TypeXHeader, tar.TypeGNULongName, tar.TypeGNULongLink:
		e.Kind = "meta"
	default:
		e.Kind = "other"
	}
	return e
}

// walkTar calls fn for each header of the open tar or tar.gz file f.
func walkTar(f *os.File, size int64, format string, fn func(h *tar.Header, r io.Reader) error) error {
	var src io.Reader = io.NewSectionReader(f, 0, size)
	if format == fmtTarGz {
		gz, err := gzip.NewReader(src)
		if err != nil {
			return err
		}
		defer gz.Close()
		src = gz
	}
	tr := tar.NewReader(src)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(h, tr); err != nil {
			return err
		}
	}
}

// cleanName turns a stored name into a slash-separated relative path
// ("." for the archive's own top folder, as in `tar -C dir .`), or "" when
// it is absolute or climbs out (the caller rejects those).
func cleanName(name string) string {
	n := strings.ReplaceAll(name, `\`, "/")
	if n == "" || strings.HasPrefix(n, "/") || (len(n) >= 2 && n[1] == ':') {
		return ""
	}
	n = path.Clean(n)
	if n == ".." || strings.HasPrefix(n, "../") {
		return ""
	}
	return n
}

func humanSize(n int64) string {
	switch {
	case n < 1024:
		return strconv.FormatInt(n, 10) + " B"
	case n < 1<<20:
		return strconv.FormatFloat(float64(n)/1024, 'f', 1, 64) + " KiB"
	case n < 1<<30:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
	}
	return strconv.FormatFloat(float64(n)/(1<<30), 'f', 1, 64) + " GiB"
}

// --- archive_list ---

func (a *arch) list(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	arg := req.String("path", "")
	f, p, info, err := a.openArchive(arg)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	format, err := detect(f, p)
	if err != nil {
		return nil, archiveErr(arg, err)
	}
	entries, err := readEntries(f, info.Size(), format, a.maxEntries)
	if err != nil {
		return nil, sdk.Errorf("%s is not a readable %s archive: %v", arg, format, err)
	}
	var total int64
	files := 0
	var b strings.Builder
	for i, e := range entries {
		if e.Kind == "meta" {
			continue
		}
		if e.Kind == "file" {
			files++
			total += e.Size
		}
		if i >= maxListLines {
			continue
		}
		name := e.Raw
		switch e.Kind {
		case "dir":
			b.WriteString(fmt.Sprintf("%10s  %s  %s\n", "", e.Modified.UTC().Format("2006-01-02 15:04"), strings.TrimSuffix(name, "/")+"/"))
		case "file":
			b.WriteString(fmt.Sprintf("%10s  %s  %s\n", humanSize(e.Size), e.Modified.UTC().Format("2006-01-02 15:04"), name))
		default:
			extra := ""
			if e.Link != "" {
				extra = " -> " + e.Link
			}
			b.WriteString(fmt.Sprintf("%10s  %s  %s%s\n", "["+e.Kind+"]", e.Modified.UTC().Format("2006-01-02 15:04"), name, extra))
		}
	}
	head := fmt.Sprintf("%s: %s archive, %d entries, %d files, %s uncompressed\n", p, format, len(entries), files, humanSize(total))
	if len(entries) > a.maxEntries {
		head = fmt.Sprintf("%s: %s archive with more than %d entries (only the first are shown)\n", p, format, a.maxEntries)
	}
	out := head + b.String()
	if len(entries) > maxListLines {
		out += fmt.Sprintf("[... %d more entries not shown ...]\n", len(entries)-maxListLines)
	}
	return sdk.Text(out), nil
}

// openArchive opens the archive a tool was given.
func (a *arch) openArchive(arg string) (*os.File, string, fs.FileInfo, error) {
	if strings.TrimSpace(arg) == "" {
		return nil, "", nil, sdk.Errorf("a path is empty")
	}
	f, p, err := a.env.OpenArg(arg)
	if err != nil {
		return nil, "", nil, archiveErr(arg, err)
	}
	info, err := f.Stat()
	if err == nil && info.IsDir() {
		err = fmt.Errorf("is a folder, not an archive")
	}
	if err != nil {
		f.Close()
		return nil, "", nil, archiveErr(arg, err)
	}
	return f, p, info, nil
}

// archiveErr describes a failure with the file arg. The SDK's refusals
// (outside the folders, protected) are written for the model already.
func archiveErr(arg string, err error) error {
	var te *sdk.ToolError
	if errors.As(err, &te) {
		return err
	}
	if errors.Is(err, fs.ErrNotExist) {
		return sdk.Errorf("%s does not exist; check the path with fs_find", arg)
	}
	return sdk.Errorf("%s: %v (supported: .zip, .tar, .tar.gz/.tgz)", arg, err)
}

// --- archive_extract ---

// plan checks every entry before anything is written and refuses the
// whole archive on the first problem. dest is the destination when it
// exists already (nil when it will be made): each entry is looked up
// beneath it without following links, as the writes will be.
// inGitFolder reports whether name (slash-separated, inside the
// destination) has a .git component, in any case: a hook or a config an
// archive put there would run as the person on their next commit.
func inGitFolder(name string) bool {
	for _, part := range strings.Split(name, "/") {
		if strings.EqualFold(part, ".git") {
			return true
		}
	}
	return false
}

func (a *arch) plan(entries []entry, dest *sdk.Dir, archiveSize int64, overwrite bool) error {
	if len(entries) > a.maxEntries {
		return fmt.Errorf("it has more than %d entries", a.maxEntries)
	}
	var total, compressed int64
	// Each name the archive makes, its folders on the way included, is a
	// file or a folder, never both, and nothing lies inside a file: a clash
	// between entries would otherwise pass here and fail half-way.
	made := map[string]made{}
	var conflicts []string
	for _, e := range entries {
		switch e.Kind {
		case "meta":
			continue
		case "symlink", "hardlink":
			return fmt.Errorf("entry %q is a %s; links are not extracted because they can point outside the destination", e.Raw, e.Kind)
		case "device", "other":
			return fmt.Errorf("entry %q is a special file (%s); only files and folders are extracted", e.Raw, e.Kind)
		}
		if e.Name == "" {
			return fmt.Errorf("entry %q has an absolute path or climbs out of the destination (..)", e.Raw)
		}
		if e.Name == "." {
			if e.Kind != "dir" {
				return fmt.Errorf("entry %q is a file without a name", e.Raw)
			}
			continue
		}
		if strings.ContainsRune(e.Name, 0) {
			return fmt.Errorf("entry %q has a NUL in its name", e.Raw)
		}
		if inGitFolder(e.Name) {
			return fmt.Errorf("entry %q writes into a git folder: git runs its hooks and follows its config outside any sandbox, so an archive never writes there; remove that entry, or extract it yourself after reading it", e.Raw)
		}
		if e.Size < 0 {
			return fmt.Errorf("entry %q has a negative size", e.Raw)
		}
		if dest != nil {
			info, err := dest.Check(e.Name, true)
			switch {
			case errors.Is(err, sdk.ErrProtected):
				return fmt.Errorf("entry %q would write where no tool may (%v); extract into another folder", e.Raw, err)
			case errors.Is(err, sdk.ErrLink) || (err == nil && info.Mode()&fs.ModeSymlink != 0):
				return fmt.Errorf("entry %q would be written outside the destination, through a symbolic link in it (links are never followed)", e.Raw)
			case err != nil && !errors.Is(err, fs.ErrNotExist):
				return fmt.Errorf("entry %q cannot be written: %v", e.Raw, err)
			case err == nil && e.Kind == "dir" && !info.IsDir():
				return fmt.Errorf("entry %q is a folder, but a file of that name exists", e.Raw)
			case err == nil && e.Kind == "file" && info.IsDir():
				return fmt.Errorf("entry %q would replace the folder %s", e.Raw, e.Name)
			case err == nil && e.Kind == "file" && !overwrite:
				conflicts = append(conflicts, e.Name)
			}
		}
		if err := clash(made, e); err != nil {
			return err
		}
		if e.Kind == "file" {
			total += e.Size
			compressed += e.Compressed
			if e.Compressed > 0 && e.Size > ratioFloor && e.Size/e.Compressed > maxRatio {
				return fmt.Errorf("entry %q expands %d times (a zip bomb?)", e.Raw, e.Size/e.Compressed)
			}
		}
	}
	if total > a.maxTotal {
		return fmt.Errorf("it would write %s; the limit is %s", humanSize(total), humanSize(a.maxTotal))
	}
	if archiveSize > 0 && total > ratioFloor && total/archiveSize > maxRatio {
		return fmt.Errorf("it expands %d times (%s from %s; a decompression bomb?)", total/archiveSize, humanSize(total), humanSize(archiveSize))
	}
	if len(conflicts) > 0 {
		shown := conflicts
		if len(shown) > 5 {
			shown = shown[:5]
		}
		return fmt.Errorf("%d files already exist (%s); pass overwrite: true to replace them or choose another dest", len(conflicts), strings.Join(shown, ", "))
	}
	return nil
}

// made is a name an archive makes: a file, or a folder (named by an entry
// or on the way to one); raw is the entry that made it, for messages.
type made struct {
	dir bool
	raw string
}

// clash records what entry e makes in m and refuses it when an earlier
// entry made one of its names the other kind. Names are compared as the
// file system will: ignoring case on macOS and Windows.
func clash(m map[string]made, e entry) error {
	key := e.Name
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		key = strings.ToLower(key)
	}
	for i := 0; i < len(key); i++ {
		if key[i] != '/' {
			continue
		}
		if prev, ok := m[key[:i]]; ok && !prev.dir {
			return fmt.Errorf("entry %q lies inside %q, which the archive also holds as a file", e.Raw, prev.raw)
		} else if !ok {
			m[key[:i]] = made{dir: true, raw: e.Raw}
		}
	}
	prev, ok := m[key]
	switch {
	case !ok:
		m[key] = made{dir: e.Kind == "dir", raw: e.Raw}
	case e.Kind == "dir" && !prev.dir:
		return fmt.Errorf("entry %q is a folder, but the archive also holds %q, a file of that name", e.Raw, prev.raw)
	case e.Kind == "file" && prev.dir:
		return fmt.Errorf("entry %q is a file, but the archive also holds a folder of that name (%q)", e.Raw, prev.raw)
	case e.Kind == "file":
		return fmt.Errorf("entry %q appears twice", e.Raw)
	}
	return nil
}

func (a *arch) extract(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	arg := req.String("path", "")
	destArg := req.String("dest", "")
	// checkDest looks at the destination: refused, a file, or (nil info)
	// not there yet.
	var destInfo fs.FileInfo
	var dest string
	checkDest := func() error {
		var err error
		destInfo, dest, err = a.env.CheckArg(destArg, true)
		switch {
		case err == nil && !destInfo.IsDir():
			return sdk.Errorf("%s is a file; pass a folder to extract into", destArg)
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return archiveErr(destArg, err)
		}
		return nil
	}
	if destArg != "" {
		if err := checkDest(); err != nil {
			return nil, err
		}
	}
	src, p, info, err := a.openArchive(arg)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	format, err := detect(src, p)
	if err != nil {
		return nil, archiveErr(arg, err)
	}
	if destArg == "" {
		base := filepath.Base(p)
		for _, ext := range []string{".tar.gz", ".tgz", ".zip", ".tar"} {
			if strings.HasSuffix(strings.ToLower(base), ext) {
				base = base[:len(base)-len(ext)]
				break
			}
		}
		destArg = filepath.Join(filepath.Dir(p), base)
		if err := checkDest(); err != nil {
			return nil, err
		}
	}
	entries, err := readEntries(src, info.Size(), format, a.maxEntries)
	if err != nil {
		return nil, sdk.Errorf("%s is not a readable %s archive: %v", arg, format, err)
	}
	var destDir *sdk.Dir
	if destInfo != nil {
		if destDir, err = a.env.OpenDirArg(destArg, true); err != nil {
			return nil, archiveErr(destArg, err)
		}
		defer destDir.Close()
	}
	overwrite := req.Bool("overwrite", false)
	if err := a.plan(entries, destDir, info.Size(), overwrite); err != nil {
		return nil, sdk.Errorf("refused to extract %s: %v. Nothing was written.", arg, err)
	}
	// What this call makes, so that a failure half-way (an entry larger
	// than it declares, corrupt data, a full disk, cancellation) can take
	// it away again: the destination and the folders made on the way to
	// it (deepest first), folders and files made beneath it, and files it
	// replaced (overwrite), which cannot be given back and are named.
	var madeAbove, madeDirs, madeFiles, replaced []string
	if destDir == nil {
		for q := dest; ; q = filepath.Dir(q) {
			if _, _, err := a.env.CheckArg(q, true); !errors.Is(err, fs.ErrNotExist) {
				break
			}
			madeAbove = append(madeAbove, q)
			if filepath.Dir(q) == q {
				break
			}
		}
		if destDir, err = a.env.MkdirAllArg(destArg); err != nil {
			return nil, archiveErr(destArg, err)
		}
		defer destDir.Close()
	}
	failed := func(format string, args ...any) error {
		msg := fmt.Sprintf(format, args...)
		return sdk.Errorf("%s. %s", msg, a.undo(destDir, madeAbove, madeDirs, madeFiles, replaced))
	}
	// mkdirs makes the folder name and those on the way, noting which
	// were not there (each looked at once).
	known := map[string]bool{}
	mkdirs := func(name string) error {
		for i := 1; i <= len(name); i++ {
			if i < len(name) && name[i] != '/' {
				continue
			}
			if pre := name[:i]; !known[pre] {
				known[pre] = true
				if _, err := destDir.Check(pre, true); errors.Is(err, fs.ErrNotExist) {
					madeDirs = append(madeDirs, pre)
				}
			}
		}
		return destDir.MkdirAll(name)
	}
	budget := a.maxTotal
	files, dirs := 0, 0
	var written int64
	// write puts one entry in place beneath the destination's handle:
	// folders made there, files written to a temporary file and renamed
	// over the name, never through a link.
	write := func(i int, r io.Reader) error {
		e := entries[i]
		if e.Kind == "dir" {
			dirs++
			return mkdirs(e.Name)
		}
		if e.Kind != "file" {
			return nil
		}
		if d := path.Dir(e.Name); d != "." {
			if err := mkdirs(d); err != nil {
				return err
			}
		}
		mode := fs.FileMode(0o644)
		if e.Mode&0o111 != 0 {
			mode = 0o755
		}
		_, err := destDir.Check(e.Name, true)
		isNew := errors.Is(err, fs.ErrNotExist)
		w, err := destDir.Create(e.Name, mode)
		if err != nil {
			return err
		}
		// Never trust the declared size: copy at most that much plus one byte.
		n, err := io.Copy(w, io.LimitReader(r, e.Size+1))
		if err == nil && n != e.Size {
			err = fmt.Errorf("entry %q holds %d bytes but declares %d", e.Raw, n, e.Size)
		}
		if err == nil && budget-n < 0 {
			err = fmt.Errorf("the size limit was exceeded")
		}
		if err != nil {
			w.Abort()
			return err
		}
		if err := w.Commit(); err != nil {
			return err
		}
		if isNew {
			madeFiles = append(madeFiles, e.Name)
		} else {
			replaced = append(replaced, e.Name)
		}
		budget -= n
		written += n
		files++
		return nil
	}
	if format == fmtZip {
		r, err := zip.NewReader(src, info.Size())
		if err != nil {
			return nil, failed("cannot open %s: %v", arg, err)
		}
		for i, f := range r.File {
			if err := ctx.Err(); err != nil {
				return nil, failed("extraction of %s was cancelled after %d files", arg, files)
			}
			if entries[i].Kind != "file" {
				if err := write(i, nil); err != nil {
					return nil, failed("extracting %s failed at %q after %d files: %v", arg, f.Name, files, err)
				}
				continue
			}
			rc, err := f.Open()
			if err != nil {
				return nil, failed("extracting %s failed at %q after %d files: %v", arg, f.Name, files, err)
			}
			err = write(i, rc)
			rc.Close()
			if err != nil {
				return nil, failed("extracting %s failed at %q after %d files: %v", arg, f.Name, files, err)
			}
		}
	} else {
		i := 0
		err := walkTar(src, info.Size(), format, func(h *tar.Header, r io.Reader) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			werr := write(i, r)
			i++
			return werr
		})
		if err != nil {
			return nil, failed("extracting %s failed after %d files: %v", arg, files, err)
		}
	}
	return sdk.Textf("extracted %d files and %d folders (%s) from %s into %s", files, dirs, humanSize(written), p, dest), nil
}

// undo removes what a failed extraction made beneath dest (files, then
// folders deepest first, never one that holds something else by now),
// then dest and the folders made on the way to it, and says what became
// of the destination for the model.
func (a *arch) undo(dest *sdk.Dir, above, dirs, files, replaced []string) string {
	var kept []string
	remove := func(d *sdk.Dir, name string) {
		if err := d.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			kept = append(kept, name)
		}
	}
	for _, f := range files {
		remove(dest, f)
	}
	dirs = append([]string(nil), dirs...)
	sort.SliceStable(dirs, func(i, j int) bool { return strings.Count(dirs[i], "/") > strings.Count(dirs[j], "/") })
	for _, d := range dirs {
		remove(dest, d)
	}
	dest.Close()
	for _, q := range above {
		parent, name, err := a.env.ParentArg(q, false)
		if err != nil {
			kept = append(kept, q)
			continue
		}
		remove(parent, name)
		parent.Close()
	}
	if len(kept) == 0 && len(replaced) == 0 {
		return "Nothing was written: what it had extracted was removed again."
	}
	msg := "What it had added was removed again"
	if len(kept) > 0 {
		msg += fmt.Sprintf(", except %d files or folders it could not remove: %s", len(kept), listSome(kept))
	}
	if len(replaced) > 0 {
		msg += fmt.Sprintf("; %d existing files it had already replaced keep the archive's version: %s", len(replaced), listSome(replaced))
	}
	return msg + "."
}

// listSome joins the first five names, saying how many more there are.
func listSome(names []string) string {
	if len(names) <= 5 {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:5], ", "), len(names)-5)
}

// --- archive_create ---

func formatFor(dest, asked string) (string, error) {
	switch strings.ToLower(asked) {
	case "zip":
		return fmtZip, nil
	case "tar.gz", "tgz":
		return fmtTarGz, nil
	case "":
	default:
		return "", fmt.Errorf("format %q is not supported; use zip or tar.gz", asked)
	}
	lower := strings.ToLower(dest)
	switch {
	case strings.HasSuffix(lower, ".zip"):
		return fmtZip, nil
	case strings.HasSuffix(lower, ".tar.gz") || strings.HasSuffix(lower, ".tgz"):
		return fmtTarGz, nil
	}
	return "", fmt.Errorf("cannot tell the format from %q; end dest with .zip or .tar.gz, or pass format", filepath.Base(dest))
}

// packer writes members into a new archive and keeps its counts.
type packer struct {
	zw    *zip.Writer
	gz    *gzip.Writer
	tw    *tar.Writer
	names map[string]string // stored name -> where it came from
	files int
	total int64
}

func newPacker(format string, out io.Writer) *packer {
	pk := &packer{names: map[string]string{}}
	if format == fmtZip {
		pk.zw = zip.NewWriter(out)
	} else {
		pk.gz = gzip.NewWriter(out)
		pk.tw = tar.NewWriter(pk.gz)
	}
	return pk
}

// add stores one folder (file nil) or one open file (closed here) under
// name; from names it in messages.
func (pk *packer) add(name, from string, info fs.FileInfo, file *os.File) error {
	if file != nil {
		defer file.Close()
	}
	if prev, dup := pk.names[name]; dup {
		return fmt.Errorf("%s and %s would both be stored as %s", prev, from, name)
	}
	pk.names[name] = from
	if len(pk.names) > maxCreate {
		return fmt.Errorf("more than %d entries; archive fewer files at once", maxCreate)
	}
	var w io.Writer
	if pk.zw != nil {
		h, err := zip.FileInfoHeader(info)
		if err != nil {
			return err
		}
		h.Name = name
		if info.IsDir() {
			h.Name += "/"
			h.Method = zip.Store
		} else {
			h.Method = zip.Deflate
		}
		if w, err = pk.zw.CreateHeader(h); err != nil {
			return err
		}
	} else {
		h, err := tar.FileInfoHeader(info, "")
		if err != nil {
			return err
		}
		h.Name = name
		if info.IsDir() {
			h.Name += "/"
		}
		// Owner names and ids say nothing useful to the recipient.
		h.Uid, h.Gid, h.Uname, h.Gname = 0, 0, "", ""
		// Whole seconds and no access/change times keep headers small and
		// archives of the same files identical.
		h.ModTime = h.ModTime.Truncate(time.Second)
		h.AccessTime, h.ChangeTime = time.Time{}, time.Time{}
		if err := pk.tw.WriteHeader(h); err != nil {
			return err
		}
		w = pk.tw
	}
	if file == nil {
		return nil
	}
	// At most the size stat'ed: the header has promised that much.
	n, err := io.Copy(w, io.LimitReader(file, info.Size()))
	pk.total += n
	pk.files++
	return err
}

func (pk *packer) close() error {
	if pk.zw != nil {
		return pk.zw.Close()
	}
	if err := pk.tw.Close(); err != nil {
		return err
	}
	return pk.gz.Close()
}

// source is one opened file or folder to archive.
type source struct {
	arg  string
	name string // stored name: its own base name
	info fs.FileInfo
	file *os.File
	dir  *sdk.Dir
}

func (s *source) close() {
	if s.file != nil {
		s.file.Close()
	}
	if s.dir != nil {
		s.dir.Close()
	}
}

func (a *arch) create(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	destArg := req.String("dest", "")
	if strings.TrimSpace(destArg) == "" {
		return nil, sdk.Errorf("a path is empty")
	}
	format, err := formatFor(destArg, req.String("format", ""))
	if err != nil {
		return nil, sdk.Errorf("%v", err)
	}
	existing, dest, err := a.env.CheckArg(destArg, true)
	switch {
	case err == nil && existing.IsDir():
		return nil, sdk.Errorf("%s is a folder; pass the archive file to create", destArg)
	case err == nil && !req.Bool("overwrite", false):
		return nil, sdk.Errorf("%s already exists; pass overwrite: true to replace it or choose another dest", destArg)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, archiveErr(destArg, err)
	}
	var args []string
	if list, ok := req.Args["sources"].([]any); ok {
		for _, s := range list {
			if str, ok := s.(string); ok && strings.TrimSpace(str) != "" {
				args = append(args, str)
			}
		}
	}
	if len(args) == 0 {
		return nil, sdk.Errorf("sources is empty: pass the files or folders to put into the archive")
	}
	// Every source is opened before anything is written, so a bad one
	// fails the call with nothing made.
	var sources []*source
	defer func() {
		for _, s := range sources {
			s.close()
		}
	}()
	for _, arg := range args {
		info, shown, err := a.env.CheckArg(arg, false)
		if err != nil {
			return nil, archiveErr(arg, err)
		}
		src := &source{arg: arg, name: filepath.Base(shown), info: info}
		if info.IsDir() {
			src.dir, err = a.env.OpenDirArg(arg, false)
		} else {
			src.file, _, err = a.env.OpenArg(arg)
		}
		if err != nil {
			return nil, archiveErr(arg, err)
		}
		sources = append(sources, src)
	}
	parent, name, err := a.env.ParentArg(destArg, true)
	if err != nil {
		return nil, archiveErr(destArg, err)
	}
	w, err := parent.Create(name, 0o644)
	parent.Close()
	if err != nil {
		return nil, sdk.Errorf("cannot write %s: %v", destArg, err)
	}
	defer w.Abort()
	tmpInfo, err := w.Stat()
	if err != nil {
		return nil, sdk.Errorf("cannot write %s: %v", destArg, err)
	}
	pk := newPacker(format, w)
	skipped := 0
	for _, src := range sources {
		if src.dir == nil {
			if !src.info.Mode().IsRegular() {
				skipped++
				continue
			}
			f := src.file
			src.file = nil
			if err := pk.add(src.name, src.arg, src.info, f); err != nil {
				return nil, sdk.Errorf("cannot add %s: %v", src.arg, err)
			}
			continue
		}
		if err := pk.add(src.name, src.arg, src.info, nil); err != nil {
			return nil, sdk.Errorf("cannot add %s: %v", src.arg, err)
		}
		// Wrasse's own data never goes into an archive: the walk leaves
		// it out, and opens each file through its folder's handle.
		err := src.dir.Walk(func(e *sdk.Entry) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			info := e.Info()
			// Neither the archive being written nor the one it replaces.
			if os.SameFile(info, tmpInfo) || (existing != nil && os.SameFile(info, existing)) {
				return nil
			}
			if e.Type()&fs.ModeSymlink != 0 || !(e.IsDir() || e.Type().IsRegular()) {
				skipped++
				return nil
			}
			stored := src.name + "/" + e.Path
			from := filepath.Join(src.dir.Path(), filepath.FromSlash(e.Path))
			if e.IsDir() {
				return pk.add(stored, from, info, nil)
			}
			f, err := e.Open()
			if err != nil {
				return err
			}
			return pk.add(stored, from, info, f)
		})
		if err != nil {
			return nil, collectError(src.arg, err)
		}
	}
	err = pk.close()
	if err == nil {
		err = w.Sync()
	}
	var size int64
	if err == nil {
		var info fs.FileInfo
		if info, err = w.Stat(); err == nil {
			size = info.Size()
		}
	}
	if err == nil {
		err = w.Commit()
	}
	if err != nil {
		return nil, sdk.Errorf("creating %s failed: %v", destArg, err)
	}
	out := fmt.Sprintf("created %s (%s, %d files, %s of data, archive %s)", dest, format, pk.files, humanSize(pk.total), humanSize(size))
	if skipped > 0 {
		out += fmt.Sprintf("; skipped %d symlinks or special files", skipped)
	}
	return sdk.Text(out), nil
}

// collectError words what stopped collecting the folder src (as the tool
// was given it) into an archive. A file found to be a link leading out of
// the folder when it was opened (put there while the folder was walked)
// is named, with what to do.
func collectError(src string, err error) error {
	var pe *fs.PathError
	if errors.Is(err, sdk.ErrLink) && errors.As(err, &pe) {
		return sdk.Errorf("cannot archive %s: %s is a symbolic link leading outside the folder being archived, and links are not followed; remove the link, or archive the folder it leads to instead", src, pe.Path)
	}
	return sdk.Errorf("cannot collect %s: %v", src, err)
}
