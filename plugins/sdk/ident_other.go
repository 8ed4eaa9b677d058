//go:build !unix

package sdk

import "io/fs"

// identity: elsewhere (Windows) a file's index and link count are not in
// what Lstat returns, so callers compare with os.SameFile instead and
// treat every regular file as one that may have other names.
func identity(info fs.FileInfo) (id fileID, links uint64, ok bool) {
	return fileID{}, 0, false
}

// changeStamp: not told here, so nothing is remembered.
func changeStamp(fs.FileInfo) (stamp, bool) { return stamp{}, false }
