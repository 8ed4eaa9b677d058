package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// resolver resolves links in absolute paths as filepath.EvalSymlinks
// does, each path once: the plan resolves every target and each folder
// above it, and filepath.EvalSymlinks lstats a path one component more at
// a time, so a folder 1,800 levels deep (one mkdir -p in a grant) made
// every later start resolve billions of components. Here a path costs one
// lstat (and a readlink for a link) once its folder is resolved, and the
// folders above it are resolved once for every path beneath them.
//
// What it resolved is kept for the plan it serves: the plan looks at the
// files once, at its start. A path found missing is looked at again once
// the plan has made something (changed), which may be it.
type resolver struct {
	real   map[string]string
	failed map[string]resolveFailure
	// busy are the links being followed, to find a loop.
	busy map[string]bool
	// gen counts the plan's changes, which make failures stale.
	gen int
	// depth is how many links are being followed, one within another.
	depth int
	// tooDeep are the paths whose links ran past maxLinkDepth, each with
	// the most links that were still left to follow when they did: with
	// as many or fewer left, they fail again without a look. (Such a
	// failure depends on how deep in other links the path was met, so it
	// is not kept with the others; resolving it again each time made a
	// chain of 255 links a command left cost minutes at every start.)
	tooDeep map[string]int
	// metered: what is resolved now is a name settings give (evalMetered,
	// walkMetered), whose lstats count their folders in work, up to
	// maxSettingNameWork for the plan; past it they fail (errOverBudget).
	metered bool
	work    int64
}

// maxSettingNameWork bounds the folders the kernel steps through for the
// lstats that resolve the names settings give (included files, hooks
// folders), for one plan: each lstat costs a step for every folder above
// its name (about 75 ns each). A person's names share their repository's
// folders, resolved once, and cost a few dozen steps; a command's name of
// 2,000 folders, made to exist, costs 2 million.
const maxSettingNameWork = 4 << 20

// errOverBudget: a name settings give that the plan's budget
// (maxSettingNameWork) ran out before resolving.
var errOverBudget = errors.New("over the start's budget for the names git settings give")

type resolveFailure struct {
	err error
	gen int
}

// maxLinkDepth bounds the links followed one within another, as
// filepath.EvalSymlinks does (255); the kernel stops at 40.
const maxLinkDepth = 255

// errTooManyLinks: a path that needs more than maxLinkDepth links.
var errTooManyLinks = errors.New("too many links")

func newResolver() *resolver {
	return &resolver{real: map[string]string{}, failed: map[string]resolveFailure{}, busy: map[string]bool{}, tooDeep: map[string]int{}}
}

// eval is path with its links resolved, as filepath.EvalSymlinks; a
// relative path is left to it.
func (r *resolver) eval(path string) (string, error) {
	if r == nil || !filepath.IsAbs(path) {
		return filepath.EvalSymlinks(path)
	}
	return r.resolve(filepath.Clean(path))
}

// existing is path with its links resolved, when it exists.
func (r *resolver) existing(path string) (string, bool) {
	real, err := r.eval(path)
	return real, err == nil
}

// changed says the plan made a file or folder: paths found missing are
// looked at again.
func (r *resolver) changed() {
	if r != nil {
		r.gen++
	}
}

// evalMetered is eval for a name settings give: on the plan's budget
// for them (maxSettingNameWork).
func (r *resolver) evalMetered(path string) (string, error) {
	if r == nil {
		return filepath.EvalSymlinks(path)
	}
	defer r.meter()()
	return r.eval(path)
}

// walkMetered resolves path, absolute and clean, on the plan's budget for
// the names settings give: the resolution of its longest prefix
// path[:at] that resolves, and the error of the component after it (nil
// when the whole resolves, at == len(path)).
func (r *resolver) walkMetered(path string) (real string, at int, err error) {
	if r == nil {
		r = newResolver()
	}
	defer r.meter()()
	return r.walk(path)
}

// meter turns metering on, and returns what turns it back as it was.
func (r *resolver) meter() func() {
	was := r.metered
	r.metered = true
	return func() { r.metered = was }
}

// resolve resolves path, absolute and clean.
func (r *resolver) resolve(path string) (string, error) {
	if path == "/" {
		return path, nil
	}
	if real, ok := r.lookup(path); ok {
		return real.path, real.err
	}
	real, at, err := r.walk(path)
	if at < len(path) {
		real = ""
	}
	r.keep(path, real, err)
	return real, err
}

// walk resolves path, absolute and clean, from its folder (when that is
// kept) or else from the top down, one component at a time: what it
// resolves is kept under each prefix, and the walk stops at the first
// that fails. A name of thousands of folders that fails near its top
// (missing) costs as many steps as lie above that, not one scan of the
// whole name for each of its folders, as resolving each parent first
// did. It returns the resolution of path's longest prefix path[:at] that
// resolves (at == len(path) when all does), and the error of the
// component after it.
func (r *resolver) walk(path string) (string, int, error) {
	if path == "/" {
		return "/", len(path), nil
	}
	if real, ok := r.lookup(path); ok && real.err == nil {
		return real.path, len(path), nil
	}
	start := 1
	cur := "/"
	if i := strings.LastIndexByte(path, '/'); i > 0 {
		if dir, ok := r.lookup(path[:i]); ok && dir.err == nil {
			start, cur = i+1, dir.path
		}
	}
	prev := start - 1
	if prev == 0 {
		prev = 1 // "/" is the prefix before the first component
	}
	for i := start; i <= len(path); i++ {
		if i < len(path) && path[i] != '/' {
			continue
		}
		key, name := path[:i], path[start:i]
		start = i + 1
		if real, ok := r.lookup(key); ok {
			if real.err != nil {
				return cur, prev, real.err
			}
			cur, prev = real.path, i
			continue
		}
		real, err := r.step(cur, name)
		r.keep(key, real, err)
		if err != nil {
			return cur, prev, err
		}
		cur, prev = real, i
	}
	return cur, len(path), nil
}

type resolved struct {
	path string
	err  error
}

// lookup is what is kept for path, if anything still holds.
func (r *resolver) lookup(path string) (resolved, bool) {
	if real, ok := r.real[path]; ok {
		return resolved{path: real}, true
	}
	if f, ok := r.failed[path]; ok && f.gen == r.gen {
		return resolved{err: f.err}, true
	}
	return resolved{}, false
}

// keep remembers path's resolution. A failure met while following links
// past maxLinkDepth says nothing of the path alone (met with fewer links
// being followed, it may resolve), so it is kept apart, in tooDeep (see
// step).
func (r *resolver) keep(path, real string, err error) {
	switch {
	case err == nil:
		r.real[path] = real
	case errors.Is(err, errTooManyLinks), errors.Is(err, errOverBudget):
	default:
		r.failed[path] = resolveFailure{err: err, gen: r.gen}
	}
}

// step resolves name in folder dir, which has no links.
func (r *resolver) step(dir, name string) (string, error) {
	switch name {
	case "", ".":
		return dir, nil
	case "..":
		return filepath.Dir(dir), nil
	}
	p := filepath.Join(dir, name)
	if real, ok := r.lookup(p); ok {
		return real.path, real.err
	}
	if r.busy[p] {
		return "", &os.PathError{Op: "lstat", Path: p, Err: syscall.ELOOP}
	}
	left := maxLinkDepth - r.depth
	if n, ok := r.tooDeep[p]; ok && left <= n {
		return "", &os.PathError{Op: "lstat", Path: p, Err: errTooManyLinks}
	}
	if r.metered {
		if r.work += int64(strings.Count(p, "/")); r.work > maxSettingNameWork {
			return "", &os.PathError{Op: "lstat", Path: p, Err: errOverBudget}
		}
	}
	fi, err := os.Lstat(p)
	real := p
	switch {
	case err != nil:
		real = ""
	case fi.Mode()&os.ModeSymlink != 0:
		real, err = r.follow(dir, p)
	}
	if errors.Is(err, errTooManyLinks) {
		r.tooDeep[p] = max(r.tooDeep[p], left)
	}
	r.keep(p, real, err)
	return real, err
}

// follow resolves link p in folder dir (which has no links), component by
// component from where its target starts, as the kernel does ("x/.." in a
// target is x's folder's parent, wherever x leads).
func (r *resolver) follow(dir, p string) (string, error) {
	if r.depth >= maxLinkDepth {
		return "", &os.PathError{Op: "lstat", Path: p, Err: errTooManyLinks}
	}
	target, err := os.Readlink(p)
	if err != nil {
		return "", err
	}
	r.busy[p] = true
	r.depth++
	defer func() {
		delete(r.busy, p)
		r.depth--
	}()
	cur := dir
	if filepath.IsAbs(target) {
		cur = "/"
	}
	for name := range strings.SplitSeq(target, "/") {
		if cur, err = r.step(cur, name); err != nil {
			return "", err
		}
	}
	return cur, nil
}

// clean is Clean(p), its links resolved by r: the longest existing
// prefix's, the rest as it is.
func (r *resolver) clean(p string) string {
	if r == nil || !filepath.IsAbs(p) {
		return Clean(p)
	}
	p = filepath.Clean(p)
	real, at, _ := r.walk(p)
	if at >= len(p) {
		return real
	}
	return filepath.Join(real, p[at:])
}
