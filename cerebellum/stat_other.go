//go:build !linux

package cerebellum

import (
	"io/fs"
	"os"
)

// sysStat: elsewhere size and modification time alone vouch for a file.
func sysStat(fs.FileInfo) (ino uint64, ctime int64) { return 0, 0 }

// statDir stats paths below a folder.
type statDir struct{ path string }

func openStatDir(path string) *statDir { return &statDir{path: path} }

func (d *statDir) close() {}

// stat returns what statOf would say of rel, a path below the folder.
func (d *statDir) stat(rel, name string) (fileStat, bool) {
	fi, err := os.Lstat(d.path + "/" + rel)
	if err != nil {
		return fileStat{}, false
	}
	return statOf(name, fi), true
}
