package bench

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// dropCached writes the file's pages to disk and drops them from the page
// cache, so the window's runs read it (the binary, the database) back from
// disk as the first start after a reboot does. How the file entered the cache decides how much of
// it a process maps: the Go linker writes its output through mmap, and on
// Linux 6.18 (ext4) those pages stay cached as large folios that one page
// fault maps whole, so a freshly linked wrasse showed 58–61 MB of its own
// pages resident against 42 MB for the same bytes read back by readahead
// (docs/performance.md, the desktop window). Only clean pages no process
// maps are dropped; the bench's own files are the only ones it touches.
func dropCached(bin string) error {
	f, err := os.Open(bin)
	if err != nil {
		return fmt.Errorf("open %s to drop it from the page cache: %w", bin, err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("write %s to disk: %w", bin, err)
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		return fmt.Errorf("drop %s from the page cache: %w", bin, err)
	}
	return nil
}
