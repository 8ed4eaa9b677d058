package bench

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// coldCopy copies the executable bin into dir and drops the copy from the
// page cache, so a process started from it reads its pages back from disk,
// as after a reboot or an install. A freshly linked binary (go run, go
// build) sits in the page cache as large folios and every page fault maps
// a big chunk of it; a measuring child started from it read 53 MB idle
// against 29 MB from a copy. Dropping bin itself would not do: this
// process has it mapped, and mapped pages stay cached.
func coldCopy(bin, dir string) (string, error) {
	src, err := os.Open(bin)
	if err != nil {
		return "", fmt.Errorf("copy %s to start children from: %w", bin, err)
	}
	defer src.Close()
	dst := filepath.Join(dir, filepath.Base(bin))
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		return "", fmt.Errorf("copy %s to start children from: %w", bin, err)
	}
	if _, err := io.Copy(out, src); err != nil {
		out.Close()
		return "", fmt.Errorf("copy %s to %s: %w", bin, dst, err)
	}
	if err := out.Close(); err != nil {
		return "", fmt.Errorf("copy %s to %s: %w", bin, dst, err)
	}
	if err := dropCached(dst); err != nil {
		return "", err
	}
	return dst, nil
}
