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

// sessionDirsUsed is false on macOS, which has no XDG session folder; its
// temporary folder is already per user.
func sessionDirsUsed() bool { return runtime.GOOS != "darwin" }

// stateDirUsable is false on macOS, whose temporary folder is already the
// user's own.
func stateDirUsable() bool { return runtime.GOOS != "darwin" }

// loginSessionDir is where systemd-logind keeps the user's session folder.
func loginSessionDir() string {
	if !sessionDirsUsed() {
		return ""
	}
	return fmt.Sprintf("/run/user/%d", os.Getuid())
}

// ownDir reports whether path is a folder (not a link) that this user
// owns: then it is the user's login session folder, whatever its mode.
func ownDir(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.IsDir() {
		return false
	}
	uid, ok := ownerOf(fi)
	return ok && uid == os.Getuid()
}

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
// target: a workspace root that is a link is kept by its target's path,
// see Workspace.KeptModes) and shared folders with the sticky bit (a
// workspace opened at /tmp is not made private for everyone else) are
// left alone. It returns what it changed; the error lists the paths it
// could not change.
func RestoreModes(paths []KeptMode) ([]Restored, error) {
	var out []Restored
	var errs []error
	for _, k := range paths {
		was, changed, err := restoreMode(k)
		if err != nil {
			errs = append(errs, fmt.Errorf("restore the mode of %s to %04o: %w", k.Path, k.Mode, err))
			continue
		}
		if changed {
			out = append(out, Restored{Path: k.Path, Was: was, Mode: k.Mode})
		}
	}
	return out, errors.Join(errs...)
}
