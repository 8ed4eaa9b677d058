//go:build unix

package sdk

import (
	"io/fs"
	"syscall"
)

// identity is what info is (device and inode) and how many names it has
// (hard links); ok is false when the system does not say.
func identity(info fs.FileInfo) (id fileID, links uint64, ok bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, 0, false
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, uint64(st.Nlink), true
}

// changeStamp is what changes whenever a file gains or loses a name or is
// renamed: its identity, its number of names and its change time.
func changeStamp(info fs.FileInfo) (stamp, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return stamp{}, false
	}
	return stamp{id: fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, links: uint64(st.Nlink),
		ctime: ctimeOf(st), mtime: mtimeOf(st)}, true
}
