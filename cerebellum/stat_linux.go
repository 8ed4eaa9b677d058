package cerebellum

import (
	"io/fs"
	"syscall"
)

// sysStat returns the inode and change time of fi, which catch edits that
// keep the size and set the modification time back.
func sysStat(fi fs.FileInfo) (ino uint64, ctime int64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ino, st.Ctim.Nano()
	}
	return 0, 0
}
