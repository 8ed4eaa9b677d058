//go:build unix

package assistant

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"github.com/wrasse-app/wrasse/brain/workspace"
)

// checkSocket reports why path is not a socket of this user alone.
func checkSocket(path string) error {
	if err := workspace.CheckPrivate(path, false, 0o600); err != nil {
		return err
	}
	if fi, err := os.Lstat(path); err != nil {
		return err
	} else if fi.Mode().Type() != fs.ModeSocket {
		return fmt.Errorf("%w: %s is not a socket", workspace.ErrNotPrivate, path)
	}
	return nil
}

// openNoFollow opens path for reading, refusing a symbolic link put there
// after it was checked.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
}
