//go:build unix

package assistant

import (
	"io/fs"
	"syscall"
)

// fileID is the device and inode of the file fi describes.
func fileID(fi fs.FileInfo) (dev, ino uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), uint64(st.Ino) //nolint:unconvert // int32 on some systems
	}
	return 0, 0
}
