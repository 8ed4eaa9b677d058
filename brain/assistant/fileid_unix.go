//go:build unix

package assistant

import (
	"io/fs"
	"syscall"
)

// fileIdentity is what tells one file from another over time: its device
// and inode, and when its inode last changed (ctime, in nanoseconds). An
// inode number freed by a deletion is soon given to a new file, and
// making a hard link changes the ctime, so the three together tell a new
// file (or a link made to another) from the one recorded. Zero where the
// system does not say.
type fileIdentity struct {
	dev, ino uint64
	changed  int64
}

func identityOf(fi fs.FileInfo) fileIdentity {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileIdentity{}
	}
	return fileIdentity{dev: uint64(st.Dev), ino: uint64(st.Ino), changed: ctimeOf(st)} //nolint:unconvert // int32 on some systems
}

// linkCount is how many names the file fi describes has (1 where the
// system does not say).
func linkCount(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink) //nolint:unconvert // uint16 on some systems
	}
	return 1
}
