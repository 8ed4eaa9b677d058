//go:build unix && !linux

package workspace

import (
	"errors"
	"io/fs"
	"os"
)

// restoreMode puts back k's mode on the file at k.Path, unless it is a
// link (checked just before: these systems have no O_PATH to change the
// very file checked).
func restoreMode(k KeptMode) (was fs.FileMode, changed bool, err error) {
	fi, err := os.Lstat(k.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	if leaveAlone(fi, k) {
		return 0, false, nil
	}
	was = fi.Mode().Perm()
	if was == k.Mode {
		return was, false, nil
	}
	if err := os.Chmod(k.Path, k.Mode); err != nil {
		return was, false, err
	}
	return was, true, nil
}

// leaveAlone reports whether RestoreModes must not touch a path of this
// kind: a link, a sticky shared folder, or not the kind kept.
func leaveAlone(fi fs.FileInfo, k KeptMode) bool {
	return fi.Mode()&(fs.ModeSymlink|fs.ModeSticky) != 0 || fi.IsDir() != k.Dir
}
