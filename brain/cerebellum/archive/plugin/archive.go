// Package archive is the plugin of the built-in archive capability: list,
// extract and create zip and tar(.gz) archives inside the granted folders.
//
// Extraction is defensive: every entry is checked before anything is
// written (paths escaping the destination, links, devices, counts, sizes
// and compression ratios), existing files are kept unless overwrite is
// set, and each target path is resolved through env.Resolve so a symlink
// inside the destination cannot redirect writes elsewhere.
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

func (a *arch) resolve(arg string) (string, error) {
	if strings.TrimSpace(arg) == "" {
		return "", sdk.Errorf("a path is empty")
	}
	return a.env.ResolveArg(arg)
}

// resolveWrite is resolve for a destination: it also refuses the paths
// tools may read but not change (the capability folder).
func (a *arch) resolveWrite(arg string) (string, error) {
	if strings.TrimSpace(arg) == "" {
		return "", sdk.Errorf("a path is empty")
	}
	return a.env.ResolveArgWrite(arg)
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

// detect names the format from magic bytes, then the extension.
func detect(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
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

// readEntries lists the members of an archive without extracting, up to
// one past limit.
func readEntries(p, format string, limit int) ([]entry, error) {
	if format == fmtZip {
		r, err := zip.OpenReader(p)
		if err != nil {
			return nil, err
		}
		defer r.Close()
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
	err := walkTar(p, format, func(h *tar.Header, r io.Reader) error {
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
	case tar.TypeReg, tar.TypeRegA:
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

// walkTar calls fn for each header of a tar or tar.gz file.
func walkTar(p, format string, fn func(h *tar.Header, r io.Reader) error) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	var src io.Reader = f
	if format == fmtTarGz {
		gz, err := gzip.NewReader(f)
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
	p, err := a.resolve(arg)
	if err != nil {
		return nil, err
	}
	format, err := detect(p)
	if err != nil {
		return nil, archiveErr(arg, err)
	}
	entries, err := readEntries(p, format, a.maxEntries)
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

func archiveErr(arg string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return sdk.Errorf("%s does not exist; check the path with fs_find", arg)
	}
	return sdk.Errorf("%s: %v (supported: .zip, .tar, .tar.gz/.tgz)", arg, err)
}

// --- archive_extract ---

// plan checks every entry before anything is written and returns the
// targets in order. It refuses the whole archive on the first problem.
func (a *arch) plan(entries []entry, dest string, archiveSize int64, overwrite bool) ([]string, error) {
	if len(entries) > a.maxEntries {
		return nil, fmt.Errorf("it has more than %d entries", a.maxEntries)
	}
	var total, compressed int64
	targets := make([]string, len(entries))
	seen := map[string]bool{}
	var conflicts []string
	for i, e := range entries {
		switch e.Kind {
		case "meta":
			continue
		case "symlink", "hardlink":
			return nil, fmt.Errorf("entry %q is a %s; links are not extracted because they can point outside the destination", e.Raw, e.Kind)
		case "device", "other":
			return nil, fmt.Errorf("entry %q is a special file (%s); only files and folders are extracted", e.Raw, e.Kind)
		}
		if e.Name == "" {
			return nil, fmt.Errorf("entry %q has an absolute path or climbs out of the destination (..)", e.Raw)
		}
		if e.Name == "." {
			if e.Kind != "dir" {
				return nil, fmt.Errorf("entry %q is a file without a name", e.Raw)
			}
			targets[i] = dest
			continue
		}
		if strings.ContainsRune(e.Name, 0) {
			return nil, fmt.Errorf("entry %q has a NUL in its name", e.Raw)
		}
		if e.Size < 0 {
			return nil, fmt.Errorf("entry %q has a negative size", e.Raw)
		}
		target := filepath.Join(dest, filepath.FromSlash(e.Name))
		// Resolve follows symlinks already on disk, so an existing link in
		// dest cannot carry a write outside the granted folders.
		resolved, err := a.env.ResolveWrite("", target)
		if errors.Is(err, sdk.ErrProtected) {
			return nil, fmt.Errorf("entry %q would write where no tool may (%v); extract into another folder", e.Raw, err)
		}
		if err != nil || !(resolved == dest || strings.HasPrefix(resolved, dest+string(filepath.Separator))) {
			return nil, fmt.Errorf("entry %q would be written outside the destination", e.Raw)
		}
		targets[i] = resolved
		if e.Kind == "file" {
			if seen[resolved] {
				return nil, fmt.Errorf("entry %q appears twice", e.Raw)
			}
			seen[resolved] = true
			total += e.Size
			compressed += e.Compressed
			if e.Compressed > 0 && e.Size > ratioFloor && e.Size/e.Compressed > maxRatio {
				return nil, fmt.Errorf("entry %q expands %d times (a zip bomb?)", e.Raw, e.Size/e.Compressed)
			}
			if info, err := os.Lstat(resolved); err == nil {
				if info.IsDir() {
					return nil, fmt.Errorf("entry %q would replace the folder %s", e.Raw, resolved)
				}
				if !overwrite {
					conflicts = append(conflicts, e.Name)
				}
			}
		}
	}
	if total > a.maxTotal {
		return nil, fmt.Errorf("it would write %s; the limit is %s", humanSize(total), humanSize(a.maxTotal))
	}
	if archiveSize > 0 && total > ratioFloor && total/archiveSize > maxRatio {
		return nil, fmt.Errorf("it expands %d times (%s from %s; a decompression bomb?)", total/archiveSize, humanSize(total), humanSize(archiveSize))
	}
	if len(conflicts) > 0 {
		shown := conflicts
		if len(shown) > 5 {
			shown = shown[:5]
		}
		return nil, fmt.Errorf("%d files already exist (%s); pass overwrite: true to replace them or choose another dest", len(conflicts), strings.Join(shown, ", "))
	}
	return targets, nil
}

func (a *arch) extract(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	arg := req.String("path", "")
	p, err := a.resolve(arg)
	if err != nil {
		return nil, err
	}
	destArg := req.String("dest", "")
	if destArg == "" {
		base := filepath.Base(p)
		for _, ext := range []string{".tar.gz", ".tgz", ".zip", ".tar"} {
			if strings.HasSuffix(strings.ToLower(base), ext) {
				base = base[:len(base)-len(ext)]
				break
			}
		}
		destArg = filepath.Join(filepath.Dir(p), base)
	}
	dest, err := a.resolveWrite(destArg)
	if err != nil {
		return nil, err
	}
	info, err := os.Stat(p)
	if err != nil {
		return nil, archiveErr(arg, err)
	}
	format, err := detect(p)
	if err != nil {
		return nil, archiveErr(arg, err)
	}
	entries, err := readEntries(p, format, a.maxEntries)
	if err != nil {
		return nil, sdk.Errorf("%s is not a readable %s archive: %v", arg, format, err)
	}
	overwrite := req.Bool("overwrite", false)
	targets, err := a.plan(entries, dest, info.Size(), overwrite)
	if err != nil {
		return nil, sdk.Errorf("refused to extract %s: %v. Nothing was written.", arg, err)
	}
	if err := os.MkdirAll(dest, 0o755); err != nil {
		return nil, sdk.Errorf("cannot create %s: %v", destArg, err)
	}
	budget := a.maxTotal
	files, dirs := 0, 0
	var written int64
	write := func(i int, r io.Reader) error {
		e := entries[i]
		target := targets[i]
		if e.Kind == "dir" {
			dirs++
			return os.MkdirAll(target, 0o755)
		}
		if e.Kind != "file" {
			return nil
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		mode := fs.FileMode(0o644)
		if e.Mode&0o111 != 0 {
			mode = 0o755
		}
		f, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
		if err != nil {
			return err
		}
		// Never trust the declared size: copy at most that much plus one byte.
		n, err := io.Copy(f, io.LimitReader(r, e.Size+1))
		cerr := f.Close()
		if err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		if n != e.Size {
			return fmt.Errorf("entry %q holds %d bytes but declares %d", e.Raw, n, e.Size)
		}
		budget -= n
		written += n
		if budget < 0 {
			return fmt.Errorf("the size limit was exceeded")
		}
		files++
		return nil
	}
	if format == fmtZip {
		r, err := zip.OpenReader(p)
		if err != nil {
			return nil, sdk.Errorf("cannot open %s: %v", arg, err)
		}
		defer r.Close()
		for i, f := range r.File {
			if err := ctx.Err(); err != nil {
				return nil, sdk.Errorf("extraction of %s was cancelled after %d files", arg, files)
			}
			if entries[i].Kind != "file" {
				if err := write(i, nil); err != nil {
					return nil, sdk.Errorf("extracting %s failed at %q after %d files: %v", arg, f.Name, files, err)
				}
				continue
			}
			rc, err := f.Open()
			if err != nil {
				return nil, sdk.Errorf("extracting %s failed at %q after %d files: %v", arg, f.Name, files, err)
			}
			err = write(i, rc)
			rc.Close()
			if err != nil {
				return nil, sdk.Errorf("extracting %s failed at %q after %d files: %v", arg, f.Name, files, err)
			}
		}
	} else {
		i := 0
		err := walkTar(p, format, func(h *tar.Header, r io.Reader) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			werr := write(i, r)
			i++
			return werr
		})
		if err != nil {
			return nil, sdk.Errorf("extracting %s failed after %d files: %v", arg, files, err)
		}
	}
	return sdk.Textf("extracted %d files and %d folders (%s) from %s into %s", files, dirs, humanSize(written), p, dest), nil
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

// member is one file or folder to put into a new archive.
type member struct {
	path string
	name string
	info fs.FileInfo
}

func (a *arch) create(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	destArg := req.String("dest", "")
	dest, err := a.resolveWrite(destArg)
	if err != nil {
		return nil, err
	}
	format, err := formatFor(dest, req.String("format", ""))
	if err != nil {
		return nil, sdk.Errorf("%v", err)
	}
	if _, err := os.Stat(dest); err == nil && !req.Bool("overwrite", false) {
		return nil, sdk.Errorf("%s already exists; pass overwrite: true to replace it or choose another dest", destArg)
	}
	var sources []string
	if list, ok := req.Args["sources"].([]any); ok {
		for _, s := range list {
			if str, ok := s.(string); ok && strings.TrimSpace(str) != "" {
				sources = append(sources, str)
			}
		}
	}
	if len(sources) == 0 {
		return nil, sdk.Errorf("sources is empty: pass the files or folders to put into the archive")
	}
	var members []member
	skipped := 0
	names := map[string]string{}
	for _, s := range sources {
		src, err := a.resolve(s)
		if err != nil {
			return nil, err
		}
		if _, err := os.Lstat(src); err != nil {
			return nil, archiveErr(s, err)
		}
		parent := filepath.Dir(src)
		err = filepath.WalkDir(src, func(p string, d fs.DirEntry, werr error) error {
			if werr != nil {
				return werr
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			if p == dest {
				return nil
			}
			// Wrasse's own data never goes into an archive.
			if _, err := a.env.Permit(p, false); err != nil {
				skipped++
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Type()&fs.ModeSymlink != 0 || !(d.IsDir() || d.Type().IsRegular()) {
				skipped++
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(parent, p)
			if err != nil {
				return err
			}
			name := filepath.ToSlash(rel)
			if prev, dup := names[name]; dup {
				return fmt.Errorf("%s and %s would both be stored as %s", prev, p, name)
			}
			names[name] = p
			if len(members) >= maxCreate {
				return fmt.Errorf("more than %d entries; archive fewer files at once", maxCreate)
			}
			members = append(members, member{path: p, name: name, info: info})
			return nil
		})
		if err != nil {
			return nil, sdk.Errorf("cannot collect %s: %v", s, err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return nil, sdk.Errorf("cannot create the folder of %s: %v", destArg, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".wrasse-*")
	if err != nil {
		return nil, sdk.Errorf("cannot write %s: %v", destArg, err)
	}
	tmpName := tmp.Name()
	var total int64
	if format == fmtZip {
		total, err = writeZip(ctx, tmp, members)
	} else {
		total, err = writeTarGz(ctx, tmp, members)
	}
	cerr := tmp.Close()
	if err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmpName, dest)
	}
	if err != nil {
		os.Remove(tmpName)
		return nil, sdk.Errorf("creating %s failed: %v", destArg, err)
	}
	size := int64(0)
	if info, err := os.Stat(dest); err == nil {
		size = info.Size()
	}
	files := 0
	for _, m := range members {
		if !m.info.IsDir() {
			files++
		}
	}
	out := fmt.Sprintf("created %s (%s, %d files, %s of data, archive %s)", dest, format, files, humanSize(total), humanSize(size))
	if skipped > 0 {
		out += fmt.Sprintf("; skipped %d symlinks or special files", skipped)
	}
	return sdk.Text(out), nil
}

func copyFile(w io.Writer, p string) (int64, error) {
	f, err := os.Open(p)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return io.Copy(w, f)
}

func writeZip(ctx context.Context, out io.Writer, members []member) (int64, error) {
	zw := zip.NewWriter(out)
	var total int64
	for _, m := range members {
		if err := ctx.Err(); err != nil {
			return total, err
		}
		h, err := zip.FileInfoHeader(m.info)
		if err != nil {
			return total, err
		}
		h.Name = m.name
		if m.info.IsDir() {
			h.Name += "/"
			h.Method = zip.Store
		} else {
			h.Method = zip.Deflate
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			return total, err
		}
		if !m.info.IsDir() {
			n, err := copyFile(w, m.path)
			total += n
			if err != nil {
				return total, err
			}
		}
	}
	return total, zw.Close()
}

func writeTarGz(ctx context.Context, out io.Writer, members []member) (int64, error) {
	gz := gzip.NewWriter(out)
	tw := tar.NewWriter(gz)
	var total int64
	for _, m := range members {
		if err := ctx.Err(); err != nil {
			return total, err
		}
		h, err := tar.FileInfoHeader(m.info, "")
		if err != nil {
			return total, err
		}
		h.Name = m.name
		if m.info.IsDir() {
			h.Name += "/"
		}
		// Owner names and ids say nothing useful to the recipient.
		h.Uid, h.Gid, h.Uname, h.Gname = 0, 0, "", ""
		// Whole seconds and no access/change times keep headers small and
		// archives of the same files identical.
		h.ModTime = h.ModTime.Truncate(time.Second)
		h.AccessTime, h.ChangeTime = time.Time{}, time.Time{}
		if err := tw.WriteHeader(h); err != nil {
			return total, err
		}
		if !m.info.IsDir() {
			n, err := copyFile(tw, m.path)
			total += n
			if err != nil {
				return total, err
			}
		}
	}
	if err := tw.Close(); err != nil {
		return total, err
	}
	return total, gz.Close()
}
