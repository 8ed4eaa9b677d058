package sdk

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The file API: every read and write of a path a tool was given goes
// through these, never through os.Open and friends on the path. Checking a
// path and opening it later is a race (a background process swaps a
// symbolic link in between); here the check is made on what is opened.
//
// A path is opened from a handle of the granted folder it lies in, one
// folder handle at a time. Symbolic links on the way are followed only
// while their targets stay in the granted folders (each one restarts the
// walk from the granted folder its target lies in), every folder entered
// is compared by identity with the one looked at, and each step is checked
// against the protected paths by real path before it is opened and by
// device and inode after. Writes go to a temporary file in the same open
// folder and are renamed over the name through that handle.
//
// The …Arg functions take a path a model passed: absolute, or relative to
// DefaultFolder. Refusals (protected, outside the roots, no folder granted)
// are ToolErrors written for the model that still match ErrProtected or
// ErrOutsideRoots with errors.Is; other failures are *fs.PathError naming
// the path, so fs.ErrNotExist and fs.ErrPermission can be told apart.

// maxLinks bounds the symbolic links one path may pass through, as the
// kernel does (40 on Linux).
const maxLinks = 40

// DefaultFolder is where relative paths start and where commands run when
// no folder is named: the first root that is not the workspace itself,
// or "" when the person has granted no folder. Built-in capabilities have
// the workspace among their roots, so that absolute paths into it work
// (a skill's folder, for one), but it is never where they start.
func (e *Env) DefaultFolder() string {
	if g := e.granted(); len(g) > 0 {
		return g[0]
	}
	return ""
}

// granted are the roots other than the workspace: the folders the person
// granted, clean.
func (e *Env) granted() []string {
	ws := ""
	if e.Workspace != "" {
		ws = fold(realPrefix(filepath.Clean(e.Workspace)))
	}
	var out []string
	for _, r := range e.Roots {
		if r == "" {
			continue
		}
		c := filepath.Clean(r)
		if ws != "" && fold(realPrefix(c)) == ws {
			continue
		}
		out = append(out, c)
	}
	return out
}

// absArg makes a tool's path argument absolute and clean.
func (e *Env) absArg(arg string) (string, error) {
	if strings.TrimSpace(arg) == "" {
		arg = "."
	}
	if filepath.IsAbs(arg) {
		return filepath.Clean(arg), nil
	}
	base := e.DefaultFolder()
	if base == "" {
		return "", fmt.Errorf("%w: %w (%s)", ErrOutsideRoots, errNoFolder, arg)
	}
	return filepath.Join(base, arg), nil
}

// argError turns a refusal into a ToolError for the model; other errors
// pass unchanged.
func (e *Env) argError(arg string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, ErrProtected) || errors.Is(err, ErrOutsideRoots) {
		return e.toolError(arg, err)
	}
	return err
}

// rootPaths is one granted folder: as configured, and with its links
// resolved.
type rootPaths struct{ path, real string }

// resolver resolves one path beneath the granted folders.
type resolver struct {
	env   *Env
	g     *guard
	roots []rootPaths
	hops  int
}

func (e *Env) newResolver() *resolver {
	r := &resolver{env: e, g: e.newGuard()}
	for _, root := range e.Roots {
		if root == "" || !filepath.IsAbs(root) {
			continue
		}
		c := filepath.Clean(root)
		real, err := filepath.EvalSymlinks(c)
		if err != nil {
			real = c
		}
		r.roots = append(r.roots, rootPaths{path: c, real: real})
	}
	return r
}

// match finds the granted folder abs lies in, by the path as written or
// by the root's real path (the most specific when roots nest), and the
// components of abs beneath it. The root is opened by its real path.
func (r *resolver) match(abs string) (rootPaths, []string, bool) {
	best, bestLen := -1, -1
	var comps []string
	for i, rt := range r.roots {
		for _, base := range []string{rt.path, rt.real} {
			if c, ok := beneath(base, abs); ok && len(base) > bestLen {
				best, bestLen, comps = i, len(base), c
			}
		}
	}
	if best < 0 {
		return rootPaths{}, nil, false
	}
	return r.roots[best], comps, true
}

// openRoot opens a granted folder by its real path and checks it.
// reached is the path beneath it being resolved, which a refusal names
// (the folder itself being protected, so is everything in it).
func (r *resolver) openRoot(rt rootPaths, reached string, write bool) (*Dir, error) {
	h, err := openReal(rt.real)
	if errors.Is(err, errChanged) {
		// A folder on the way was swapped for a link since the roots
		// were resolved: resolve once more.
		if real, rerr := filepath.EvalSymlinks(rt.path); rerr == nil {
			rt.real = real
			h, err = openReal(rt.real)
		}
	}
	if err != nil {
		return nil, pathErr("open", rt.path, err)
	}
	st, err := h.Stat(".")
	if err == nil {
		if err = r.g.checkPath(rt.real, reached, write); err == nil {
			err = r.g.checkInfo(st, rt.path, write)
		}
	}
	if err != nil {
		h.Close()
		return nil, pathErr("open", rt.path, err)
	}
	return &Dir{g: r.g, root: h, shown: rt.path, real: rt.real}, nil
}

// openReal opens the folder at real, a path without links, so that the
// handle is bound to that path: it walks down from the top of the file
// system one folder handle at a time and refuses a link anywhere on the
// way (errChanged). Where a folder on the way cannot be opened (a folder
// that may be searched but not read, or a sandbox that grants only the
// roots themselves) it opens real directly and checks that it is the
// folder a fresh look finds there.
func openReal(real string) (*os.Root, error) {
	top := filepath.VolumeName(real) + string(filepath.Separator)
	comps, ok := beneath(top, real)
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: real, Err: errNotDir}
	}
	h, err := os.OpenRoot(top)
	for i := 0; err == nil && i < len(comps); i++ {
		var info, st fs.FileInfo
		var sub *os.Root
		if info, err = h.Lstat(comps[i]); err == nil && !info.IsDir() {
			err = errChanged // a link or a file where a folder was
		}
		if err == nil {
			sub, err = h.OpenRoot(comps[i])
		}
		if err == nil {
			if st, err = sub.Stat("."); err == nil && !os.SameFile(st, info) {
				err = errChanged
			}
			if err != nil {
				sub.Close()
				sub = nil
			}
		}
		h.Close()
		h = sub
	}
	if err == nil {
		return h, nil
	}
	if errors.Is(err, errChanged) || errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	h, err = os.OpenRoot(real)
	if err != nil {
		return nil, err
	}
	st, err := h.Stat(".")
	if err == nil {
		var want fs.FileInfo
		if want, err = os.Lstat(real); err == nil && !os.SameFile(st, want) {
			err = errChanged
		}
	}
	if err != nil {
		h.Close()
		return nil, err
	}
	return h, nil
}

// walk resolves abs to the open folder holding it and its last name (""
// when abs is a granted folder itself, and then info describes that
// folder). info is nil when the last name does not exist. Links in the
// folders on the way are followed while they stay in the granted folders,
// and so is a link at the end when follow is set. create makes missing
// folders on the way; write applies the rules for writing. The caller
// closes the folder.
func (r *resolver) walk(abs string, follow, write, create bool) (*Dir, string, fs.FileInfo, error) {
	shown := abs
	fellBack, linked := false, false
	// A refusal met past a link names the path given as well as where it
	// led; the Dir returned names what it holds by its own path.
	defer func() { r.g.via, r.g.target = "", "" }()
	for {
		rt, comps, ok := r.match(abs)
		if !ok && !fellBack {
			// A path as given through a link outside every root (an
			// alias of a granted folder) is taken by where it leads: the
			// walk below then checks every step from the root as usual.
			// A link met on the way gets no such second chance.
			fellBack = true
			if real := realPrefix(abs); real != abs {
				abs = real
				r.g.via = shown
				continue
			}
		}
		if !ok {
			return nil, "", nil, r.outside(shown)
		}
		r.g.target = filepath.Join(append([]string{rt.path}, comps...)...)
		dir, err := r.openRoot(rt, r.g.target, write)
		if err != nil {
			return nil, "", nil, err
		}
		if len(comps) == 0 {
			st, err := dir.root.Stat(".")
			if err != nil {
				dir.Close()
				return nil, "", nil, pathErr("stat", shown, err)
			}
			dir.shown = shown
			return dir, "", st, nil
		}
		next := ""
		for i, c := range comps[:len(comps)-1] {
			sub, link, err := dir.step(c, write, create)
			if err != nil {
				dir.Close()
				return nil, "", nil, err
			}
			if link != "" {
				next = linkTarget(dir.real, link, comps[i+1:])
				break
			}
			dir.Close()
			dir = sub
		}
		if next == "" {
			last := comps[len(comps)-1]
			info, err := dir.look(last, write)
			if err != nil {
				dir.Close()
				return nil, "", nil, err
			}
			if info == nil || !follow || info.Mode()&fs.ModeSymlink == 0 {
				if linked && credentialName(last) && !credentialName(filepath.Base(shown)) {
					dir.Close()
					return nil, "", nil, pathErr("open", shown, errCredentialLink)
				}
				return dir, last, info, nil
			}
			link, err := dir.root.Readlink(last)
			if err != nil {
				dir.Close()
				return nil, "", nil, pathErr("readlink", shown, err)
			}
			next = linkTarget(dir.real, link, nil)
		}
		dir.Close()
		if r.hops++; r.hops > maxLinks {
			return nil, "", nil, pathErr("open", shown, errLoop)
		}
		abs, fellBack, linked = next, true, true
		r.g.via = shown
	}
}

// linkTarget is where a link found in the folder real leads, followed by
// the components still to walk.
func linkTarget(real, link string, rest []string) string {
	if !filepath.IsAbs(link) {
		link = filepath.Join(real, link)
	}
	return filepath.Join(append([]string{link}, rest...)...)
}

func (r *resolver) outside(shown string) error {
	if len(r.env.Roots) == 0 {
		return fmt.Errorf("%w: no folders are allowed (%s)", ErrOutsideRoots, shown)
	}
	return fmt.Errorf("%w: %s (allowed: %s)", ErrOutsideRoots, shown, strings.Join(r.env.Roots, ", "))
}

// OpenArg opens the file or folder a tool was given for reading. It
// returns the open file and the path for messages (absolute, clean, as
// given). A folder comes back open too, to Stat; read what it holds with
// OpenDirArg and Dir.Walk.
func (e *Env) OpenArg(arg string) (*os.File, string, error) {
	abs, err := e.absArg(arg)
	if err != nil {
		return nil, "", e.toolError(arg, err)
	}
	dir, name, info, err := e.newResolver().walk(abs, true, false, false)
	if err != nil {
		return nil, abs, e.argError(arg, err)
	}
	defer dir.Close()
	if name == "" {
		f, err := dir.root.Open(".")
		if err != nil {
			return nil, abs, pathErr("open", abs, err)
		}
		return f, abs, nil
	}
	if info == nil {
		return nil, abs, pathErr("open", abs, fs.ErrNotExist)
	}
	f, err := dir.openLeaf(name, info)
	return f, abs, e.argError(arg, err)
}

// CheckArg tells what the path a tool was given is (following links that
// stay in the granted folders), under the rules for reading or, with
// write, for writing, without opening it: for messages and decisions made
// before the real open or write, which checks again.
func (e *Env) CheckArg(arg string, write bool) (fs.FileInfo, string, error) {
	abs, err := e.absArg(arg)
	if err != nil {
		return nil, "", e.toolError(arg, err)
	}
	dir, _, info, err := e.newResolver().walk(abs, true, write, false)
	if err != nil {
		return nil, abs, e.argError(arg, err)
	}
	dir.Close()
	if info == nil {
		return nil, abs, pathErr("stat", abs, fs.ErrNotExist)
	}
	return info, abs, nil
}

// RealPathArg returns the real path (no symbolic links) of the existing
// file or folder a tool was given, checked for reading, and what it is:
// for handing to another program, which cannot take a handle. Prefer the
// handles wherever Wrasse itself reads or writes.
func (e *Env) RealPathArg(arg string) (string, fs.FileInfo, error) {
	abs, err := e.absArg(arg)
	if err != nil {
		return "", nil, e.toolError(arg, err)
	}
	dir, name, info, err := e.newResolver().walk(abs, true, false, false)
	if err != nil {
		return "", nil, e.argError(arg, err)
	}
	defer dir.Close()
	if info == nil {
		return "", nil, pathErr("stat", abs, fs.ErrNotExist)
	}
	if name == "" {
		return dir.real, info, nil
	}
	_, real := dir.child(name)
	return real, info, nil
}

// OpenDirArg opens the existing folder a tool was given. With write, the
// folder must be one tools may change (not inside Env.ReadOnly); each
// write through it is checked again.
func (e *Env) OpenDirArg(arg string, write bool) (*Dir, error) {
	return e.openDirArg(arg, write, false)
}

// MkdirAllArg opens the folder a tool was given for writing, making it and
// any missing folders on the way first.
func (e *Env) MkdirAllArg(arg string) (*Dir, error) {
	return e.openDirArg(arg, true, true)
}

func (e *Env) openDirArg(arg string, write, create bool) (*Dir, error) {
	abs, err := e.absArg(arg)
	if err != nil {
		return nil, e.toolError(arg, err)
	}
	dir, name, info, err := e.newResolver().walk(abs, true, write, create)
	if err != nil {
		return nil, e.argError(arg, err)
	}
	if name == "" {
		return dir, nil
	}
	defer dir.Close()
	if info == nil && create {
		if err := dir.root.Mkdir(name, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, pathErr("mkdir", abs, err)
		}
		if info, err = dir.look(name, write); err != nil {
			return nil, e.argError(arg, err)
		}
	}
	switch {
	case info == nil:
		return nil, pathErr("open", abs, fs.ErrNotExist)
	case info.Mode()&fs.ModeSymlink != 0:
		return nil, pathErr("open", abs, errChanged)
	case !info.IsDir():
		return nil, pathErr("open", abs, errNotDir)
	}
	sub, err := dir.sub(name, info, write)
	if err != nil {
		return nil, e.argError(arg, err)
	}
	sub.shown = abs
	return sub, nil
}

// ParentArg opens, for writing, the folder that holds the path a tool was
// given, and returns it with the name to write in it (Dir.WriteFile,
// Dir.Create). A link at the end is followed while it stays in the
// granted folders, so the file it points to is the one replaced. With
// create, missing folders on the way are made. A path that names a
// granted folder itself is refused.
func (e *Env) ParentArg(arg string, create bool) (*Dir, string, error) {
	abs, err := e.absArg(arg)
	if err != nil {
		return nil, "", e.toolError(arg, err)
	}
	dir, name, _, err := e.newResolver().walk(abs, true, true, create)
	if err != nil {
		return nil, "", e.argError(arg, err)
	}
	if name == "" {
		dir.Close()
		return nil, "", pathErr("write", abs, errIsDir)
	}
	return dir, name, nil
}
