//go:build unix

package cerebellum

import (
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// changeable reports whether this account can change what path holds:
// write the file, or replace it in its folder, now or after a chmod of its
// own: a file or folder the account owns is changeable whatever its mode
// (a script made read-only, 0444 in a 0555 folder, is one chmod u+w away
// from a rewrite).
func changeable(path string) bool {
	return unix.Access(path, unix.W_OK) == nil || unix.Access(filepath.Dir(path), unix.W_OK) == nil ||
		ownedByMe(path) || ownedByMe(filepath.Dir(path))
}

// ownedByMe reports whether path (followed) belongs to this account.
func ownedByMe(path string) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}
