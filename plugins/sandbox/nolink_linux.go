package sandbox

import (
	"errors"
	"fmt"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// errLinkOnPath means a name the launcher meant to mount or make is a
// link now, or has one on its way: a process writing in a grant swapped
// it since the plan was made. Nothing is done there.
var errLinkOnPath = errors.New("a link stands on the path now (changed since the launcher looked); left as it is")

// openNoLinks opens path as a handle (O_PATH) without following any link
// on the way or at its end: the handle is the very file the name led to,
// whatever happens to the names afterwards.
func openNoLinks(path string) (int, error) {
	fd, err := openEntry(path)
	if err != nil {
		return -1, err
	}
	// With O_PATH|O_NOFOLLOW a link at the end is opened itself.
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, err
	}
	if st.Mode&unix.S_IFMT == unix.S_IFLNK {
		unix.Close(fd)
		return -1, errLinkOnPath
	}
	return fd, nil
}

// openEntry opens path as a handle (O_PATH) without following a link on
// the way: a link at its end is opened itself.
func openEntry(path string) (int, error) {
	fd, err := unix.Openat2(unix.AT_FDCWD, path, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_CLOEXEC | unix.O_NOFOLLOW,
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
	if errors.Is(err, unix.ELOOP) {
		return -1, errLinkOnPath
	}
	return fd, err
}

// mkdirNoLinks makes the folder path in the folder its parent names, that
// parent reached without following a link: a .git/hooks made for a
// repository lands in that repository, never where a swapped link points.
func mkdirNoLinks(path string, mode uint32) error {
	dir, err := openNoLinks(filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("make %s: %w", path, err)
	}
	defer unix.Close(dir)
	if err := unix.Mkdirat(dir, filepath.Base(path), mode); err != nil {
		return fmt.Errorf("make %s: %w", path, err)
	}
	return nil
}

// createNoLinks makes the empty file path, as mkdirNoLinks makes a folder;
// an existing file or link there is left alone (O_EXCL).
func createNoLinks(path string, mode uint32) error {
	dir, err := openNoLinks(filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("make %s: %w", path, err)
	}
	defer unix.Close(dir)
	fd, err := unix.Openat(dir, filepath.Base(path), unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, mode)
	if err != nil {
		return fmt.Errorf("make %s: %w", path, err)
	}
	return unix.Close(fd)
}
