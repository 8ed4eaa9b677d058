//go:build !unix

package stage

import "io/fs"

// linkCount reports 1: Lstat does not expose the link count here.
func linkCount(fs.FileInfo) uint64 { return 1 }
