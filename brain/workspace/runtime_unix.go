//go:build unix

package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
)

// usableSessionDir reports whether dir (XDG_RUNTIME_DIR) is what the XDG
// specification promises: an absolute folder of this user, mode 0700.
// macOS has no such folder; its temporary folder is already per user.
func usableSessionDir(dir string) bool {
	if dir == "" || !filepath.IsAbs(dir) || runtime.GOOS == "darwin" {
		return false
	}
	return CheckPrivate(dir, true, 0o700) == nil
}

// stateDirUsable is false on macOS, whose temporary folder is already the
// user's own.
func stateDirUsable() bool { return runtime.GOOS != "darwin" }

// loginSessionDir is where systemd-logind keeps the user's session folder.
func loginSessionDir() string { return fmt.Sprintf("/run/user/%d", os.Getuid()) }

// fallbackRuntimeDir is wrasse-UID in the temporary folder.
func fallbackRuntimeDir(temp string) string {
	return filepath.Join(temp, fmt.Sprintf("wrasse-%d", os.Getuid()))
}

// CheckPrivate reports, with ErrNotPrivate, why path is not this user's
// alone: a symbolic link, not of the kind wanted (a folder when dir, else
// a file or socket), owned by another user, or with a mode other than
// perm (so open to others, or to the user in a way Wrasse did not set).
func CheckPrivate(path string, dir bool, perm fs.FileMode) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%w: %s is a symbolic link", ErrNotPrivate, path)
	case dir && !fi.IsDir():
		return fmt.Errorf("%w: %s is not a folder", ErrNotPrivate, path)
	case !dir && fi.IsDir():
		return fmt.Errorf("%w: %s is a folder", ErrNotPrivate, path)
	}
	if uid, ok := ownerOf(fi); ok && uid != os.Getuid() {
		return fmt.Errorf("%w: %s belongs to user %d, not to you (user %d)", ErrNotPrivate, path, uid, os.Getuid())
	}
	if got := fi.Mode().Perm(); got != perm {
		return fmt.Errorf("%w: %s has mode %04o, not %04o", ErrNotPrivate, path, got, perm)
	}
	return nil
}

// ownerOf is the user that owns the file.
func ownerOf(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// RestoreModes puts back the mode of each path that differs from the one
// wanted. Missing paths, symbolic links (never followed to change their
// target) and shared folders with the sticky bit (a workspace opened at
// /tmp is not made private for everyone else) are left alone. It returns
// what it changed; the error lists the paths it could not change.
func RestoreModes(paths []KeptMode) ([]Restored, error) {
	var out []Restored
	var errs []error
	for _, k := range paths {
		fi, err := os.Lstat(k.Path)
		if err != nil || fi.Mode()&(fs.ModeSymlink|fs.ModeSticky) != 0 || fi.IsDir() != k.Dir {
			continue
		}
		if was := fi.Mode().Perm(); was != k.Mode {
			if err := os.Chmod(k.Path, k.Mode); err != nil {
				errs = append(errs, fmt.Errorf("restore the mode of %s to %04o: %w", k.Path, k.Mode, err))
				continue
			}
			out = append(out, Restored{Path: k.Path, Was: was, Mode: k.Mode})
		}
	}
	return out, errors.Join(errs...)
}
