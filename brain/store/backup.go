package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/wrasse-app/wrasse/cerebellum/atomicfile"
)

// BackupKind says how a file came to be in the backups folder.
type BackupKind string

const (
	// BackupDaily is the automatic backup made at most once a day.
	BackupDaily BackupKind = "daily"
	// BackupBeforeUpgrade is made before a migration changes the file.
	BackupBeforeUpgrade BackupKind = "before-upgrade"
	// BackupSetAside is a database that wrasse doctor replaced (a
	// damaged one, or the one a restore or salvage replaced). It is never
	// removed automatically.
	BackupSetAside BackupKind = "set-aside"
)

// BackupsKept is how many automatic backups (daily and before-upgrade)
// are kept; older ones are removed when a new one is made.
const BackupsKept = 7

// BackupInterval is the age of the newest automatic backup at which Open
// makes another.
const BackupInterval = 24 * time.Hour

// stampLayout dates backup file names (UTC, sortable, no colons).
const stampLayout = "20060102T150405.000Z"

// Backup is one file in the backups folder.
type Backup struct {
	Name string
	Path string
	Kind BackupKind
	Time time.Time
	Size int64
}

func backupName(kind BackupKind, t time.Time) string {
	stamp := t.UTC().Format(stampLayout)
	switch kind {
	case BackupBeforeUpgrade:
		return "wrasse-" + stamp + "-before-upgrade.db"
	case BackupSetAside:
		return "set-aside-" + stamp + ".db"
	}
	return "wrasse-" + stamp + ".db"
}

// parseBackupName reads a name backupName made.
func parseBackupName(name string) (BackupKind, time.Time, bool) {
	base, ok := strings.CutSuffix(name, ".db")
	if !ok {
		return "", time.Time{}, false
	}
	kind := BackupDaily
	switch {
	case strings.HasPrefix(base, "set-aside-"):
		kind, base = BackupSetAside, strings.TrimPrefix(base, "set-aside-")
	case strings.HasPrefix(base, "wrasse-"):
		base = strings.TrimPrefix(base, "wrasse-")
		if b, ok := strings.CutSuffix(base, "-before-upgrade"); ok {
			kind, base = BackupBeforeUpgrade, b
		}
	default:
		return "", time.Time{}, false
	}
	t, err := time.Parse(stampLayout, base)
	if err != nil {
		return "", time.Time{}, false
	}
	return kind, t, true
}

// ListBackups lists the backups in dir, newest first; a missing folder
// has none.
func ListBackups(dir string) ([]Backup, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list backups in %s: %w", dir, err)
	}
	var out []Backup
	for _, e := range ents {
		kind, t, ok := parseBackupName(e.Name())
		if !ok || !e.Type().IsRegular() {
			continue
		}
		b := Backup{Name: e.Name(), Path: filepath.Join(dir, e.Name()), Kind: kind, Time: t}
		if fi, err := e.Info(); err == nil {
			b.Size = fi.Size()
		}
		out = append(out, b)
	}
	slices.SortFunc(out, func(a, b Backup) int { return b.Time.Compare(a.Time) })
	return out, nil
}

// Backup writes a consistent copy of the database into dir (one read
// transaction, bbolt's Tx.WriteTo), checks the copy page by page, and
// keeps it under a dated name; then only the newest BackupsKept automatic
// backups stay. Writers go on meanwhile. A copy that is damaged means the
// database is: it is not kept, and the database is marked damaged.
func (d *DB) Backup(dir string, kind BackupKind) (Backup, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Backup{}, fmt.Errorf("back up the database: %w", err)
	}
	now := d.now()
	name := backupName(kind, now)
	f, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return Backup{}, fmt.Errorf("back up the database: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // a no-op once renamed
	err = d.bolt.View(func(tx *bolt.Tx) error {
		_, err := tx.WriteTo(f)
		return err
	})
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		if diskFull(err) {
			err = fmt.Errorf("%w: %w", ErrDiskFull, err)
		}
		return Backup{}, fmt.Errorf("back up the database to %s: %w", dir, err)
	}
	diag, err := Diagnose(tmp)
	switch {
	case err != nil:
		return Backup{}, fmt.Errorf("check the backup: %w", err)
	case diag.Missing:
		return Backup{}, fmt.Errorf("check the backup: %s is gone", tmp)
	}
	if len(diag.Problems) > 0 {
		err := fmt.Errorf("%w: %s (found in the copy made for a backup): %s", ErrCorrupt, d.path, strings.Join(diag.Problems, "; "))
		d.bolt.damaged(err)
		return Backup{}, err
	}
	final := filepath.Join(dir, name)
	if err := os.Rename(tmp, final); err != nil {
		return Backup{}, fmt.Errorf("back up the database: %w", err)
	}
	syncDir(dir)
	d.log.Info("workspace database backed up", "file", final, "kind", kind)
	if err := rotateBackups(dir, BackupsKept); err != nil {
		d.log.Warn("removing old backups", "error", err)
	}
	return Backup{Name: name, Path: final, Kind: kind, Time: now.UTC(), Size: diag.Size}, nil
}

// backupIfDue starts the daily backup in the background when the newest
// automatic backup is older than BackupInterval (Close waits for it).
// First it removes the temporary files of backups a kill cut short: this
// process holds the database, so no backup of another is under way.
func (d *DB) backupIfDue() {
	if removed, err := atomicfile.Sweep(d.backups); err != nil {
		d.log.Warn("removing temporary files of interrupted backups", "error", err)
	} else if len(removed) > 0 {
		d.log.Info("removed temporary files of interrupted backups", "files", removed)
	}
	list, err := ListBackups(d.backups)
	if err != nil {
		d.log.Warn("daily backup", "error", err)
		return
	}
	for _, b := range list {
		if b.Kind != BackupSetAside {
			if d.now().Sub(b.Time) < BackupInterval {
				return
			}
			break
		}
	}
	d.backupWG.Add(1)
	go func() {
		defer d.backupWG.Done()
		if _, err := d.Backup(d.backups, BackupDaily); err != nil {
			d.log.Warn("daily backup failed", "error", err)
		}
	}()
}

// rotateBackups removes all but the newest keep automatic backups in dir.
func rotateBackups(dir string, keep int) error {
	list, err := ListBackups(dir)
	if err != nil {
		return err
	}
	var errs []error
	n := 0
	for _, b := range list {
		if b.Kind == BackupSetAside {
			continue
		}
		if n++; n > keep {
			if err := os.Remove(b.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// SetAside moves the database at path into dir as a set-aside file, so
// the next open starts a new, empty one. It takes the file's lock first
// (ErrLocked when a running Wrasse holds it). A missing file is nothing
// to set aside ("" is returned).
func SetAside(path, dir string, now time.Time) (string, error) {
	unlock, err := Lock(path, DefaultTimeout)
	if err != nil {
		return "", err
	}
	defer unlock()
	return setAside(path, dir, now, false)
}

// setAside moves (or, with keep, hard-links or copies) the file at path
// into dir under a set-aside name.
func setAside(path, dir string, now time.Time, keep bool) (string, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("set %s aside: %w", path, err)
	}
	dst := filepath.Join(dir, backupName(BackupSetAside, now))
	var err error
	if keep {
		if err = os.Link(path, dst); err != nil {
			err = copyFile(path, dst)
		}
	} else {
		err = os.Rename(path, dst)
	}
	if err != nil {
		return "", fmt.Errorf("set %s aside: %w", path, err)
	}
	syncDir(dir)
	syncDir(filepath.Dir(path))
	return dst, nil
}

// Restore replaces the database at path with the backup at from, after
// checking the backup is sound; the database it replaces (damaged or not)
// is kept in dir as a set-aside file, whose path is returned ("" when
// there was none). It takes the file's lock first.
func Restore(path, from, dir string, now time.Time) (string, error) {
	unlock, err := Lock(path, DefaultTimeout)
	if err != nil {
		return "", err
	}
	defer unlock()
	diag, err := Diagnose(from)
	if err != nil {
		return "", err
	}
	switch {
	case diag.Missing:
		return "", fmt.Errorf("restore %s: %w: there is no such backup", from, ErrNotFound)
	case !diag.Healthy():
		return "", fmt.Errorf("restore %s: %w", from, diag.Err())
	}
	tmp, err := copyTemp(from, dir)
	if err != nil {
		return "", fmt.Errorf("restore %s: %w", from, err)
	}
	defer os.Remove(tmp)
	return replace(path, tmp, dir, now)
}

// replace puts the file tmp (in dir) in place of path, keeping the file
// it replaces as a set-aside file. At every moment path is either the old
// file or the new one.
func replace(path, tmp, dir string, now time.Time) (string, error) {
	aside, err := setAside(path, dir, now, true)
	if err != nil {
		return "", err
	}
	if err := os.Rename(tmp, path); err != nil {
		return aside, fmt.Errorf("put %s in place: %w", path, err)
	}
	syncDir(filepath.Dir(path))
	return aside, nil
}

// copyTemp copies src to a new temporary file in dir, synced, mode 0600.
func copyTemp(src, dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(src)+".tmp-*")
	if err != nil {
		return "", err
	}
	in, err := os.Open(src)
	if err == nil {
		_, err = io.Copy(f, in)
		in.Close()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		if diskFull(err) {
			err = fmt.Errorf("%w: %w", ErrDiskFull, err)
		}
		return "", err
	}
	return f.Name(), nil
}

// copyFile copies src to a new file dst (mode 0600), synced.
func copyFile(src, dst string) error {
	tmp, err := copyTemp(src, filepath.Dir(dst))
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, dst); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// syncDir makes renames in dir durable where the system can.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// Check diagnoses the open database without stopping its writers: on a
// consistent copy in dir (as Backup makes one), removed afterwards.
// Reading the file itself while it is written could find pages a commit
// is rewriting.
func (d *DB) Check(dir string) (Diagnosis, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Diagnosis{}, fmt.Errorf("check the database: %w", err)
	}
	f, err := os.CreateTemp(dir, ".check.db.tmp-*")
	if err != nil {
		return Diagnosis{}, fmt.Errorf("check the database: %w", err)
	}
	defer os.Remove(f.Name())
	err = d.bolt.View(func(tx *bolt.Tx) error {
		_, err := tx.WriteTo(f)
		return err
	})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return Diagnosis{}, fmt.Errorf("check the database: %w", err)
	}
	diag, err := Diagnose(f.Name())
	diag.Path = d.path
	if err == nil && len(diag.Problems) > 0 {
		d.bolt.damaged(fmt.Errorf("%w: %s", ErrCorrupt, strings.Join(diag.Problems, "; ")))
	}
	return diag, err
}
