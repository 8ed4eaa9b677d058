package sdk

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// guard is an Env's protected paths taken once for one operation: each
// one's real path, which catches what does not exist yet, and what it is
// (device and inode), which catches the same file or folder reached under
// another name (a hard link, a bind mount, a link swapped in meanwhile).
type guard struct {
	noAccess, readOnly []protected
}

type protected struct {
	path string      // as the host set it, for messages
	real string      // links resolved, case folded
	info fs.FileInfo // nil while it does not exist
}

func (e *Env) newGuard() *guard {
	g := &guard{}
	for _, p := range e.NoAccess {
		if p != "" {
			g.noAccess = append(g.noAccess, newProtected(p))
		}
	}
	for _, p := range e.ReadOnly {
		if p != "" {
			g.readOnly = append(g.readOnly, newProtected(p))
		}
	}
	return g
}

func newProtected(p string) protected {
	c := filepath.Clean(p)
	pr := protected{path: c, real: fold(realPrefix(c))}
	if info, err := os.Stat(c); err == nil {
		pr.info = info
	}
	return pr
}

// checkPath applies the rules to real, the real path of something about to
// be opened or created; shown names it in the message.
func (g *guard) checkPath(real, shown string, write bool) error {
	r := fold(real)
	for _, n := range g.noAccess {
		if within(n.real, r) {
			return fmt.Errorf("%w: %s is Wrasse's own data (database, settings, caches or logs), which no tool may read or change", ErrProtected, shown)
		}
	}
	if write {
		for _, ro := range g.readOnly {
			if within(ro.real, r) {
				return fmt.Errorf("%w: %s is inside %s, which tools may read but not change", ErrProtected, shown, ro.path)
			}
		}
	}
	return nil
}

// checkInfo applies the rules to what was actually found or opened.
func (g *guard) checkInfo(info fs.FileInfo, shown string, write bool) error {
	for _, n := range g.noAccess {
		if n.info != nil && os.SameFile(n.info, info) {
			return fmt.Errorf("%w: %s is another name of %s, which no tool may read or change", ErrProtected, shown, n.path)
		}
	}
	if write {
		for _, ro := range g.readOnly {
			if ro.info != nil && os.SameFile(ro.info, info) {
				return fmt.Errorf("%w: %s is another name of %s, which tools may read but not change", ErrProtected, shown, ro.path)
			}
		}
	}
	return nil
}
