package sdk

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Dir is an open folder inside the granted folders, checked on what was
// opened. Every name given to its methods is a slash-separated path
// beneath it, walked one folder handle at a time without following any
// symbolic link (ErrLink), and checked against the protected paths by real
// path before anything is opened and by identity after. So a link or a
// folder swapped in by another process meanwhile cannot redirect a read
// or a write. Close it when done.
type Dir struct {
	g     *guard
	root  *os.Root
	shown string // for messages: as the tool gave it, or beneath that
	real  string // links resolved, as walked
}

// Path is the folder's path, for messages.
func (d *Dir) Path() string { return d.shown }

// Close releases the folder's handle. Closing twice is harmless.
func (d *Dir) Close() error {
	if d == nil || d.root == nil {
		return nil
	}
	err := d.root.Close()
	d.root = nil
	return err
}

// child is the message path and the real path of name directly in d.
func (d *Dir) child(name string) (shown, real string) {
	return filepath.Join(d.shown, name), filepath.Join(d.real, name)
}

// reopen returns a second handle on d, for callers that close what they get.
func (d *Dir) reopen() (*Dir, error) {
	r, err := d.root.OpenRoot(".")
	if err != nil {
		return nil, pathErr("open", d.shown, err)
	}
	return &Dir{g: d.g, root: r, shown: d.shown, real: d.real}, nil
}

// sub opens the folder name directly in d, which Lstat found to be info:
// what is opened must be that folder (not a link put in its place since)
// and must not be protected.
func (d *Dir) sub(name string, info fs.FileInfo, write bool) (*Dir, error) {
	shown, real := d.child(name)
	if err := d.g.checkPath(real, shown, write); err != nil {
		return nil, err
	}
	r, err := d.root.OpenRoot(name)
	if err != nil {
		return nil, pathErr("open", shown, err)
	}
	st, err := r.Stat(".")
	if err == nil && !os.SameFile(st, info) {
		err = errChanged
	}
	if err == nil {
		err = d.g.checkInfo(st, shown, write)
	}
	if err != nil {
		r.Close()
		return nil, pathErr("open", shown, err)
	}
	return &Dir{g: d.g, root: r, shown: shown, real: real}, nil
}

// step opens the folder name directly in d. A symbolic link there is not
// followed: its target is returned instead. create makes a missing folder.
func (d *Dir) step(name string, write, create bool) (next *Dir, link string, err error) {
	shown, real := d.child(name)
	if err := d.g.checkPath(real, shown, write); err != nil {
		return nil, "", err
	}
	info, err := d.root.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) && create {
		if err = d.root.Mkdir(name, 0o755); err == nil || errors.Is(err, fs.ErrExist) {
			info, err = d.root.Lstat(name)
		}
	}
	if err != nil {
		return nil, "", pathErr("open", shown, err)
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		target, err := d.root.Readlink(name)
		if err != nil {
			return nil, "", pathErr("readlink", shown, err)
		}
		if target == "" {
			return nil, "", pathErr("readlink", shown, fs.ErrNotExist)
		}
		return nil, target, nil
	}
	if !info.IsDir() {
		return nil, "", pathErr("open", shown, errNotDir)
	}
	next, err = d.sub(name, info, write)
	return next, "", err
}

// chain opens the folder comps names beneath d, never through a link.
// The result is a new handle, even for no components.
func (d *Dir) chain(comps []string, write, create bool) (*Dir, error) {
	cur := d
	for _, c := range comps {
		next, link, err := cur.step(c, write, create)
		if err == nil && link != "" {
			shown, _ := cur.child(c)
			err = pathErr("open", shown, ErrLink)
		}
		if cur != d {
			cur.Close()
		}
		if err != nil {
			return nil, err
		}
		cur = next
	}
	if cur == d {
		return d.reopen()
	}
	return cur, nil
}

// leaf walks to the folder that holds name and looks at name itself
// without following it. info is nil when name does not exist; the caller
// closes parent.
func (d *Dir) leaf(name string, write, createParents bool) (parent *Dir, last string, info fs.FileInfo, err error) {
	comps, err := splitName(name)
	if err != nil {
		return nil, "", nil, err
	}
	if len(comps) == 0 {
		return nil, "", nil, pathErr("open", d.shown, errIsDir)
	}
	parent, err = d.chain(comps[:len(comps)-1], write, createParents)
	if err != nil {
		return nil, "", nil, err
	}
	last = comps[len(comps)-1]
	info, err = parent.look(last, write)
	if err != nil {
		parent.Close()
		return nil, "", nil, err
	}
	return parent, last, info, nil
}

// look checks name directly in d and returns what it is without
// following a link (nil when it does not exist).
func (d *Dir) look(name string, write bool) (fs.FileInfo, error) {
	shown, real := d.child(name)
	if err := d.g.checkPath(real, shown, write); err != nil {
		return nil, err
	}
	info, err := d.root.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, pathErr("lstat", shown, err)
	}
	if info.Mode()&fs.ModeSymlink == 0 {
		if err := d.g.checkInfo(info, shown, write); err != nil {
			return nil, err
		}
	}
	return info, nil
}

// openLeaf opens name directly in d for reading, which look found to be
// info (not a link): a folder or a regular file, and the very one looked at.
func (d *Dir) openLeaf(name string, info fs.FileInfo) (*os.File, error) {
	shown, _ := d.child(name)
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		return nil, pathErr("open", shown, ErrLink)
	case info.IsDir():
		sub, err := d.sub(name, info, false)
		if err != nil {
			return nil, err
		}
		defer sub.Close()
		f, err := sub.root.Open(".")
		if err != nil {
			return nil, pathErr("open", shown, err)
		}
		return f, nil
	case !info.Mode().IsRegular():
		return nil, pathErr("open", shown, errSpecial)
	}
	// Non-blocking, so that a pipe swapped in for the file cannot hang
	// the call in open; the identity check below then refuses it.
	f, err := d.root.OpenFile(name, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, pathErr("open", shown, err)
	}
	st, err := f.Stat()
	if err == nil && !os.SameFile(st, info) {
		err = errChanged
	}
	if err != nil {
		f.Close()
		return nil, pathErr("open", shown, err)
	}
	return f, nil
}

// Open opens the file or folder name beneath d for reading.
func (d *Dir) Open(name string) (*os.File, error) {
	parent, last, info, err := d.leaf(name, false, false)
	if err != nil {
		return nil, err
	}
	defer parent.Close()
	if info == nil {
		shown, _ := parent.child(last)
		return nil, pathErr("open", shown, fs.ErrNotExist)
	}
	return parent.openLeaf(last, info)
}

// OpenDir opens the folder name beneath d.
func (d *Dir) OpenDir(name string) (*Dir, error) {
	comps, err := splitName(name)
	if err != nil {
		return nil, err
	}
	return d.chain(comps, false, false)
}

// Check tells what name beneath d is, under the rules for reading or, with
// write, for writing: an error wrapping ErrProtected or ErrLink (a link on
// the way; one at the end is described, not followed), or fs.ErrNotExist.
func (d *Dir) Check(name string, write bool) (fs.FileInfo, error) {
	parent, last, info, err := d.leaf(name, write, false)
	if err != nil {
		return nil, err
	}
	defer parent.Close()
	if info == nil {
		shown, _ := parent.child(last)
		return nil, pathErr("lstat", shown, fs.ErrNotExist)
	}
	return info, nil
}

// MkdirAll makes the folder name beneath d with any missing folders on
// the way (mode 0755 before the umask).
func (d *Dir) MkdirAll(name string) error {
	comps, err := splitName(name)
	if err != nil {
		return err
	}
	sub, err := d.chain(comps, true, true)
	if err != nil {
		return err
	}
	return sub.Close()
}

// Remove removes the file or empty folder name beneath d under the rules
// for writing, through the handle of the folder that holds it: a link at
// name is removed itself, one on the way refuses (ErrLink). For undoing
// what a tool made a moment before (an extraction that failed half-way).
func (d *Dir) Remove(name string) error {
	parent, last, info, err := d.leaf(name, true, false)
	if err != nil {
		return err
	}
	defer parent.Close()
	shown, _ := parent.child(last)
	if info == nil {
		return pathErr("remove", shown, fs.ErrNotExist)
	}
	if err := parent.root.Remove(last); err != nil {
		return pathErr("remove", shown, err)
	}
	return nil
}

// Create starts a new version of the file name beneath d (its folder must
// exist): the data goes to a temporary file in the same folder, and
// Commit renames it over name through that folder's handle, so nothing is
// truncated, a crash leaves the old file whole, and a link at name is
// replaced, never written through. perm is the new file's mode.
func (d *Dir) Create(name string, perm fs.FileMode) (*FileWriter, error) {
	return d.create(name, perm, false)
}

// WriteFile replaces name beneath d with data as Create and Commit do,
// synced to disk first. A file that exists keeps its permissions; a new
// one gets perm.
func (d *Dir) WriteFile(name string, data []byte, perm fs.FileMode) error {
	w, err := d.create(name, perm, true)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		w.Abort()
		return err
	}
	if err := w.Sync(); err != nil {
		w.Abort()
		return err
	}
	return w.Commit()
}

func (d *Dir) create(name string, perm fs.FileMode, keepPerm bool) (*FileWriter, error) {
	parent, last, info, err := d.leaf(name, true, false)
	if err != nil {
		return nil, err
	}
	shown, _ := parent.child(last)
	if info != nil {
		switch {
		case info.IsDir():
			parent.Close()
			return nil, pathErr("create", shown, errIsDir)
		case info.Mode().IsRegular() && keepPerm:
			perm = info.Mode().Perm()
		}
	}
	base := last
	if len(base) > 64 {
		base = strings.ToValidUTF8(base[:64], "")
	}
	for range 100 {
		tmp := "." + base + ".wrasse-" + strconv.FormatUint(rand.Uint64(), 36)
		f, err := parent.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			parent.Close()
			return nil, pathErr("create", shown, err)
		}
		return &FileWriter{dir: parent, f: f, tmp: tmp, name: last, shown: shown, perm: perm.Perm()}, nil
	}
	parent.Close()
	return nil, pathErr("create", shown, fs.ErrExist)
}

// FileWriter is a file being written by Dir.Create: nothing is visible
// under its name until Commit. Abort (or a failed Commit) removes it.
// Deferring Abort after a successful Commit is harmless.
type FileWriter struct {
	dir   *Dir
	f     *os.File
	tmp   string
	name  string
	shown string
	perm  fs.FileMode
	done  bool
}

func (w *FileWriter) Write(p []byte) (int, error) { return w.f.Write(p) }

// Sync flushes what was written to disk.
func (w *FileWriter) Sync() error { return w.f.Sync() }

// Stat describes the temporary file (to leave it out of a walk that
// writes into the folder it walks).
func (w *FileWriter) Stat() (fs.FileInfo, error) { return w.f.Stat() }

// Commit puts the file in place under its name.
func (w *FileWriter) Commit() error {
	if w.done {
		return pathErr("commit", w.shown, fs.ErrClosed)
	}
	w.done = true
	defer w.dir.Close()
	err := w.f.Chmod(w.perm)
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = w.dir.root.Rename(w.tmp, w.name)
	}
	if err != nil {
		w.dir.root.Remove(w.tmp)
		return pathErr("write", w.shown, err)
	}
	return nil
}

// Abort drops the file.
func (w *FileWriter) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	w.f.Close()
	err := w.dir.root.Remove(w.tmp)
	w.dir.Close()
	return err
}

// Entry is one file, folder or link met by Dir.Walk. Its methods work
// only during the call that received it.
type Entry struct {
	// Path is the entry's slash-separated path beneath the walked folder.
	Path string
	// Name is its last element.
	Name string
	dir  *Dir
	info fs.FileInfo
}

// IsDir reports a folder (never a link to one).
func (e *Entry) IsDir() bool { return e.info.IsDir() }

// Type is the entry's type bits (fs.ModeSymlink for a link).
func (e *Entry) Type() fs.FileMode { return e.info.Mode().Type() }

// Info describes the entry itself, as Lstat does.
func (e *Entry) Info() fs.FileInfo { return e.info }

// Open opens a regular file (or a folder) for reading through the handle
// of the folder that holds it: the very entry walked, never a link.
func (e *Entry) Open() (*os.File, error) { return e.dir.openLeaf(e.Name, e.info) }

// Readlink returns a link's target.
func (e *Entry) Readlink() (string, error) {
	t, err := e.dir.root.Readlink(e.Name)
	if err != nil {
		shown, _ := e.dir.child(e.Name)
		return "", pathErr("readlink", shown, err)
	}
	return t, nil
}

// Walk calls fn for everything beneath d, depth first and in name order,
// as filepath.WalkDir does (fn returns fs.SkipDir to skip a folder, or the
// rest of a folder when given a file, and fs.SkipAll to stop). d itself is
// not passed. Protected entries (Env.NoAccess) are left out, links are
// passed but never followed, and each folder is entered through the handle
// of the one holding it, so the walk never leaves d. Entries that vanish
// or cannot be read while walking are left out.
func (d *Dir) Walk(fn func(e *Entry) error) error {
	err := d.walk("", fn)
	if errors.Is(err, fs.SkipDir) || errors.Is(err, fs.SkipAll) {
		return nil
	}
	return err
}

func (d *Dir) walk(prefix string, fn func(e *Entry) error) error {
	f, err := d.root.Open(".")
	if err != nil {
		return pathErr("open", d.shown, err)
	}
	// Names only: fs.DirEntry.Info and Type look entries up again by path.
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return pathErr("readdir", d.shown, err)
	}
	slices.Sort(names)
	for _, name := range names {
		info, err := d.look(name, false)
		if err != nil || info == nil {
			continue
		}
		rel := name
		if prefix != "" {
			rel = prefix + "/" + name
		}
		err = fn(&Entry{Path: rel, Name: name, dir: d, info: info})
		if !info.IsDir() {
			if errors.Is(err, fs.SkipDir) {
				return nil
			}
			if err != nil {
				return err
			}
			continue
		}
		if errors.Is(err, fs.SkipDir) {
			continue
		}
		if err != nil {
			return err
		}
		sub, err := d.sub(name, info, false)
		if err != nil {
			continue
		}
		err = sub.walk(rel, fn)
		sub.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// pathErr reports err about shown, the path as the tool knows it, rather
// than the name relative to a handle that os.Root errors carry.
func pathErr(op, shown string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	if errorsIsAny(err, ErrProtected, ErrOutsideRoots) {
		return err
	}
	if err != nil && err.Error() == rootEscapes {
		err = errLinkOutside
	}
	return &fs.PathError{Op: op, Path: shown, Err: err}
}

// rootEscapes is the text of os.Root's refusal of a name that leads
// out of the folder it was opened on (a link put in place of a file
// meanwhile); os does not export the error itself.
const rootEscapes = "path escapes from parent"

func errorsIsAny(err error, targets ...error) bool {
	for _, t := range targets {
		if errors.Is(err, t) {
			return true
		}
	}
	return false
}
