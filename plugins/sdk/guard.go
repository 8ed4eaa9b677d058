package sdk

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// guard is an Env's protected paths taken once for one operation: each
// one's real path, which catches what does not exist yet, and what it is
// (device and inode), which catches the same file or folder reached under
// another name (a hard link, a bind mount, a link swapped in meanwhile).
type guard struct {
	noAccess, readOnly []protected
	inner              innerFiles
	maxInner           int // maxInnerFiles; smaller in tests
	maxCreds           int // maxCredentialEntries; smaller in tests
	// credentials are Env.Credentials; creds their files' identities,
	// read the first time a file with other names is met.
	credentials []string
	creds       credFiles
	// memo is the Env's; roots the credential paths' stamp, read once.
	memo      *credentialMemo
	rootsOnce sync.Once
	roots     uint64
	// via is the path the tool gave while a symbolic link on the way has
	// led elsewhere, and target the whole path being resolved (beneath a
	// granted folder, links on the way replaced), for messages: a refusal
	// met on a folder on the way names the file it would have reached.
	// Set only while a path is resolved.
	via, target string
}

type protected struct {
	path string      // as the host set it, for messages
	real string      // links resolved, case folded
	info fs.FileInfo // nil while it does not exist
}

func (e *Env) newGuard() *guard {
	g := &guard{maxInner: maxInnerFiles, maxCreds: maxCredentialEntries, credentials: e.Credentials}
	if len(e.Credentials) > 0 {
		g.memo = e.credentials.get()
	}
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
	shown = g.reached(shown)
	for _, n := range g.noAccess {
		if within(n.real, r) {
			return fmt.Errorf("%w: %s is Wrasse's own data (database, settings, caches or logs), which no tool may read or change", ErrProtected, g.named(shown))
		}
	}
	if write {
		for _, ro := range g.readOnly {
			if within(ro.real, r) {
				return readOnlyErr(g.via, shown, ro.path)
			}
		}
	}
	return nil
}

// reached is the path being resolved when shown is a folder on its way
// (or the path itself), else shown.
func (g *guard) reached(shown string) string {
	if g.target != "" && (g.target == shown || strings.HasPrefix(g.target, shown+string(filepath.Separator))) {
		return g.target
	}
	return shown
}

// named is how a message names shown, the path met: with the path the
// tool gave first when a link led from it to shown.
func (g *guard) named(shown string) string {
	if g.via != "" && g.via != shown {
		return fmt.Sprintf("%s leads to %s (through a link), which", g.via, shown)
	}
	return shown
}

// readOnlyErr refuses to change reached, which is zone (a path tools may
// read but not change) or inside it. asked is the path the tool gave
// when a link led from it to reached ("" or reached otherwise), so that
// the message names both what was asked for and what it reaches.
func readOnlyErr(asked, reached, zone string) error {
	subject := reached
	if asked != "" && asked != reached {
		subject = fmt.Sprintf("%s leads to %s (through a link), which", asked, reached)
	}
	if reached == zone {
		return fmt.Errorf("%w: %s is protected: tools may read but not change it", ErrProtected, subject)
	}
	return fmt.Errorf("%w: %s is inside %s, which tools may read but not change", ErrProtected, subject, zone)
}

// checkInfo applies the rules to what was actually found or opened.
func (g *guard) checkInfo(info fs.FileInfo, shown string, write bool) error {
	for _, n := range g.noAccess {
		if n.info != nil && os.SameFile(n.info, info) {
			return fmt.Errorf("%w: %s is another name of %s, which no tool may read or change", ErrProtected, g.named(shown), n.path)
		}
	}
	if info.Mode().IsRegular() {
		if err := g.checkLinks(info, shown); err != nil {
			return err
		}
	}
	if write {
		for _, ro := range g.readOnly {
			if ro.info != nil && os.SameFile(ro.info, info) {
				return fmt.Errorf("%w: %s is another name of %s, which tools may read but not change", ErrProtected, g.named(shown), ro.path)
			}
		}
	}
	return nil
}

// maxInnerFiles bounds the entries read beneath the protected folders
// (logs, caches and the runtime folder hold a few dozen). A folder holding
// more cannot be checked whole, and a file with other names is then
// refused rather than guessed about.
const maxInnerFiles = 10000

// fileID is a file's identity: its device and inode.
type fileID struct{ dev, ino uint64 }

// innerFiles are the files beneath the NoAccess folders that a file
// elsewhere could be another name of. A hard link in a granted folder (a
// backup made with cp -al or rsync --link-dest) is the log or a cache file
// under a name the path rules never see, and the protected folders
// themselves are not it. They are read once per guard, that is per
// operation (a whole walk reads them at most once), and only when a
// regular file with more than one name is met: a file with one name is
// no other file's name, so the usual file costs nothing.
type innerFiles struct {
	once sync.Once
	// ids maps the identity of each file with other names to its path.
	ids map[fileID]string
	// unknown are the files whose identity the system does not report
	// (Windows), compared one by one with os.SameFile.
	unknown []protected
	// err says why the folders could not be read whole.
	err error
}

// checkLinks refuses a regular file that is another name of a file
// inside a NoAccess folder.
func (g *guard) checkLinks(info fs.FileInfo, shown string) error {
	id, links, known := identity(info)
	if known && links <= 1 {
		return nil
	}
	cred, err := g.credential(info)
	if err != nil {
		return fmt.Errorf("%w: %s has other names (hard links), and whether one is a file holding keys or passwords cannot be told (%v); use a copy of it, which has one name", ErrProtected, shown, err)
	}
	if cred != "" {
		return fmt.Errorf("%w: %s is another name (a hard link) of %s, which holds keys or passwords; no tool may read or change it", ErrProtected, shown, cred)
	}
	g.inner.once.Do(g.readInner)
	in := &g.inner
	if in.err != nil {
		return fmt.Errorf("%w: %s has other names (hard links), and whether one is Wrasse's own data cannot be told (%v)", ErrProtected, shown, in.err)
	}
	if known {
		if p, hit := in.ids[id]; hit {
			return fmt.Errorf("%w: %s is another name of %s, which no tool may read or change", ErrProtected, shown, p)
		}
		return nil
	}
	for _, f := range in.unknown {
		if os.SameFile(f.info, info) {
			return fmt.Errorf("%w: %s is another name of %s, which no tool may read or change", ErrProtected, shown, f.path)
		}
	}
	return nil
}

// readInner reads what the NoAccess folders hold, without following links.
// Entries that vanish meanwhile (a log rotated) are left out; a folder
// that cannot be read, or holds too much, fails the whole set.
func (g *guard) readInner() {
	in := &g.inner
	in.ids = map[fileID]string{}
	n := 0
	for _, p := range g.noAccess {
		if p.info == nil || !p.info.IsDir() {
			continue
		}
		err := filepath.WalkDir(p.real, func(path string, d fs.DirEntry, err error) error {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			if err != nil {
				return err
			}
			if n++; n > g.maxInner {
				return fmt.Errorf("%s holds more than %d entries", p.path, g.maxInner)
			}
			if d.IsDir() || !d.Type().IsRegular() {
				return nil
			}
			info, err := d.Info()
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			if err != nil {
				return err
			}
			shown := filepath.Join(p.path, path[len(p.real):])
			id, links, known := identity(info)
			switch {
			case !known:
				in.unknown = append(in.unknown, protected{path: shown, info: info})
			case links > 1:
				in.ids[id] = shown
			}
			return nil
		})
		if err != nil {
			in.err = err
			return
		}
	}
}

// maxCredentialEntries bounds the entries read beneath the credential
// folders when a file with other names is met. A browser profile or a
// Flatpak app folder holds thousands; past this many, whether a file with
// other names is one of them cannot be told, and it is refused.
const maxCredentialEntries = 200000

// credFiles are the identities of the credential files (Env.Credentials:
// each file, and each file at any depth beneath each folder, since the
// sandbox reads nothing beneath one: a pass entry in a sub-folder, a
// browser profile's saved passwords), with the path each is known by.
type credFiles struct {
	once    sync.Once
	ids     map[fileID]string
	unknown []protected
	// err says why the folders could not be read whole.
	err error
}

// read indexes the files of paths, walking each folder without following
// the links inside it (a link there is no other name of a file: a hard
// link to one is a link to its target, which is indexed where it lies if
// that is a credential folder too). Only a file with other names can be
// another file's, so files with one name are left out.
func (c *credFiles) read(paths []string, max int) {
	c.ids = map[fileID]string{}
	add := func(path string, fi fs.FileInfo) {
		if !fi.Mode().IsRegular() {
			return
		}
		switch fid, links, ok := identity(fi); {
		case !ok:
			c.unknown = append(c.unknown, protected{path: path, info: fi})
		case links > 1:
			c.ids[fid] = path
		}
	}
	n := 0
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		if !fi.IsDir() {
			add(p, fi)
			continue
		}
		root, err := filepath.EvalSymlinks(p)
		if err != nil {
			continue
		}
		err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				// A folder that vanished or cannot be listed holds
				// nothing this account can link to by its path.
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if n++; n > max {
				return fmt.Errorf("%s and the other credential folders hold more than %d entries", p, max)
			}
			if !d.Type().IsRegular() {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return nil
			}
			add(filepath.Join(p, path[len(root):]), info)
			return nil
		})
		if err != nil {
			c.err = err
			return
		}
	}
}

// of is the credential file info is another name of, "" when it is none.
func (c *credFiles) of(info fs.FileInfo) (string, error) {
	if c.err != nil {
		return "", c.err
	}
	if id, _, known := identity(info); known {
		return c.ids[id], nil
	}
	for _, f := range c.unknown {
		if os.SameFile(f.info, info) {
			return f.path, nil
		}
	}
	return "", nil
}

// credential is the credential file info is another name of, "" when it
// is none. Only a file with other names gets here, so the usual file
// costs nothing; the folders are read once per guard.
func (g *guard) credential(info fs.FileInfo) (string, error) {
	if g.memo != nil {
		g.rootsOnce.Do(func() { g.roots = g.memo.rootsStamp(g.credentials) })
		if g.memo.cleared(info, g.roots) {
			return "", nil
		}
	}
	g.creds.once.Do(func() { g.creds.read(g.credentials, g.maxCreds) })
	cred, err := g.creds.of(info)
	if err == nil && cred == "" && g.memo != nil {
		g.memo.remember(info, g.roots)
	}
	return cred, err
}

// CredentialOf is the file among paths (credential files and folders, as
// Env.Credentials), or at any depth beneath one of the folders, that info
// is another name (a hard link) of; "" when it is none. It reads the
// folders whole, so call it only for a regular file with other names. The
// error says the folders hold too much to be read whole (and whether info
// is one of their files cannot be told).
func CredentialOf(paths []string, info fs.FileInfo) (string, error) {
	var c credFiles
	c.read(paths, maxCredentialEntries)
	return c.of(info)
}
