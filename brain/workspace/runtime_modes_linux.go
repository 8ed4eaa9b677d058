package workspace

import (
	"errors"
	"io/fs"
	"strconv"

	"golang.org/x/sys/unix"
)

// restoreMode puts back k's mode on the file found at k.Path without
// following a link put there between the check and the change: the path
// is opened once (O_PATH, no link followed), what was opened is checked,
// and that file is changed through its descriptor.
func restoreMode(k KeptMode) (was fs.FileMode, changed bool, err error) {
	fd, err := unix.Open(k.Path, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
			return 0, false, nil
		}
		return 0, false, err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return 0, false, err
	}
	isDir := st.Mode&unix.S_IFMT == unix.S_IFDIR
	// O_NOFOLLOW with O_PATH opens a link itself rather than failing.
	if st.Mode&unix.S_IFMT == unix.S_IFLNK || st.Mode&unix.S_ISVTX != 0 || isDir != k.Dir {
		return 0, false, nil
	}
	was = fs.FileMode(st.Mode & 0o777)
	if was == k.Mode {
		return was, false, nil
	}
	// fchmod refuses an O_PATH descriptor; its /proc name reaches the
	// same file.
	if err := unix.Chmod("/proc/self/fd/"+strconv.Itoa(fd), uint32(k.Mode)); err != nil {
		return was, false, err
	}
	return was, true, nil
}
