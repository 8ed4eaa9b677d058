//go:build unix

package store

import (
	"os"
	"syscall"
)

// mapFile maps the first n bytes of f read-only, so a check reads the
// pages where they are instead of copying them; unmap releases them. A
// page that vanishes under the mapping (the file cut meanwhile) is a
// fault: read it with faults turned into panics.
func mapFile(f *os.File, n int64) (data []byte, unmap func(), err error) {
	data, err = syscall.Mmap(int(f.Fd()), 0, int(n), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() { _ = syscall.Munmap(data) }, nil
}
