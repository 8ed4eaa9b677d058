//go:build !unix

package store

import "os"

// mapFile reads the first n bytes of f (no mapping on this system).
func mapFile(f *os.File, n int64) (data []byte, unmap func(), err error) {
	data = make([]byte, n)
	if _, err := f.ReadAt(data, 0); err != nil {
		return nil, nil, err
	}
	return data, func() {}, nil
}
