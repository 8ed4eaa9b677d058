//go:build unix

package sandbox

import (
	"os"
	"syscall"
)

// fileKey is what fi is (device and inode); false where the system does
// not say.
func fileKey(fi os.FileInfo) ([2]uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return [2]uint64{}, false
	}
	return [2]uint64{uint64(st.Dev), uint64(st.Ino)}, true
}
