package workspace

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// sessionDirsUsed is false: Windows has no XDG runtime folder.
func sessionDirsUsed() bool { return false }

// ownDir is false: Windows has no login session folder.
func ownDir(string) bool { return false }

// stateDirUsable is false: the per-user temporary folder serves.
func stateDirUsable() bool { return false }

// loginSessionDir is "": Windows has no such folder.
func loginSessionDir() string { return "" }

// fallbackRuntimeDir is wrasse in the temporary folder, which Windows
// keeps per user (%LOCALAPPDATA%\Temp, readable by its owner only).
func fallbackRuntimeDir(temp string) string { return filepath.Join(temp, "wrasse") }

// CheckPrivate checks the kind of path and that it is no link. Windows
// keeps owners and access in ACLs, which this build does not read: the
// per-user temporary folder is what keeps others out.
func CheckPrivate(path string, dir bool, _ fs.FileMode) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%w: %s is a symbolic link", ErrNotPrivate, path)
	case dir != fi.IsDir():
		return fmt.Errorf("%w: %s is not a %s", ErrNotPrivate, path, map[bool]string{true: "folder", false: "file"}[dir])
	}
	return nil
}

// RestoreModes changes nothing on Windows: file modes there are not what
// keeps other users out.
func RestoreModes([]KeptMode) ([]Restored, error) { return nil, nil }
