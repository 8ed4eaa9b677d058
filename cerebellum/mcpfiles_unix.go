//go:build unix

package cerebellum

import (
	"path/filepath"

	"golang.org/x/sys/unix"
)

// changeable reports whether this account can change what path holds:
// write the file, or replace it in its folder.
func changeable(path string) bool {
	return unix.Access(path, unix.W_OK) == nil || unix.Access(filepath.Dir(path), unix.W_OK) == nil
}
