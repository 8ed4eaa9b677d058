//go:build !unix

package assistant

import "io/fs"

// fileIdentity is zero where the system gives no device and inode through
// FileInfo: an attached file then travels in its message only, and is not
// offered to fs_read (nothing could tell it from a file put in its place).
type fileIdentity struct {
	dev, ino uint64
	changed  int64
}

func identityOf(fs.FileInfo) fileIdentity { return fileIdentity{} }

func linkCount(fs.FileInfo) uint64 { return 1 }
