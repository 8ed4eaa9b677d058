//go:build !linux

package cerebellum

import "io/fs"

// sysStat: elsewhere size and modification time alone vouch for a file.
func sysStat(fs.FileInfo) (ino uint64, ctime int64) { return 0, 0 }
