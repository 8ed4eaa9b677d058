package atomicfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Write writes data to path atomically with permissions perm, creating the
// parent folder (0700) if needed. The temporary file is unique, so two
// writers of one path never write into each other's file; the last rename
// wins.
func Write(path string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+tempInfix+"*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	// After a successful rename tmp no longer exists and this is a no-op.
	defer os.Remove(tmp)
	if err := writeAndSync(f, data, perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	// The rename is durable only once the folder's entry is; not every
	// system can sync a folder, and the file itself is already safe.
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

func writeAndSync(f *os.File, data []byte, perm fs.FileMode) error {
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// WriteJSON writes v as compact JSON to path atomically.
func WriteJSON(path string, v any, perm fs.FileMode) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return Write(path, data, perm)
}

// tempInfix marks Write's temporary files: "." + base + tempInfix + digits.
const tempInfix = ".tmp-"

// IsTemp reports whether name (a file name, not a path) is a temporary
// file Write makes: a dot, the target's name, ".tmp-" and the digits
// os.CreateTemp puts in place of its "*".
func IsTemp(name string) bool {
	i := strings.LastIndex(name, tempInfix)
	if len(name) < 2 || name[0] != '.' || i < 2 {
		return false
	}
	digits := name[i+len(tempInfix):]
	if digits == "" {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Sweep removes the temporary files that writes interrupted by a crash or
// a kill left in each of dirs (not in their subfolders), and returns the
// paths it removed. Call it only while no write into those folders can be
// under way, as at start-up with the workspace's lock held. A missing
// folder has nothing to sweep.
func Sweep(dirs ...string) ([]string, error) {
	var removed []string
	var errs []error
	for _, dir := range dirs {
		ents, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("sweep %s: %w", dir, err))
			continue
		}
		for _, e := range ents {
			if !e.Type().IsRegular() || !IsTemp(e.Name()) {
				continue
			}
			p := filepath.Join(dir, e.Name())
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, fmt.Errorf("sweep %s: %w", dir, err))
				continue
			}
			removed = append(removed, p)
		}
	}
	return removed, errors.Join(errs...)
}
