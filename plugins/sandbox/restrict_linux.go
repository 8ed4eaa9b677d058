package sandbox

import (
	"fmt"

	"github.com/landlock-lsm/go-landlock/landlock"
	"golang.org/x/sys/unix"
)

// Rights per Access, as Landlock spells them. Rules on a file get only the
// rights that apply to files.
const (
	fileRights = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE |
		unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	listRights = unix.LANDLOCK_ACCESS_FS_READ_DIR
	readRights = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
	execRights = readRights | unix.LANDLOCK_ACCESS_FS_EXECUTE
	rwRights   = execRights | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE |
		unix.LANDLOCK_ACCESS_FS_REMOVE_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_FILE |
		unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_DIR | unix.LANDLOCK_ACCESS_FS_MAKE_REG |
		unix.LANDLOCK_ACCESS_FS_MAKE_SOCK | unix.LANDLOCK_ACCESS_FS_MAKE_FIFO | unix.LANDLOCK_ACCESS_FS_MAKE_SYM |
		unix.LANDLOCK_ACCESS_FS_REFER | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
)

// ABI is the kernel's Landlock ABI version; 0 when Landlock is missing or
// switched off.
func ABI() int {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0
	}
	return int(v)
}

// Restrict confines the calling process (every thread) and whatever it
// starts to p, as far as the kernel can; the Status says how far. Without
// Landlock it returns a Status with Files false and no error: the caller
// decides whether to go on and says so. An error means Landlock is there
// and the rules could not be applied; the process is then unchanged.
func Restrict(p Policy) (Status, error) {
	st := Status{ABI: ABI(), NetworkAsked: !p.Network}
	if st.ABI == 0 {
		return st, nil
	}
	rules := landlockRules(Rules(p))
	cfg := landlock.V5.BestEffort()
	var err error
	if p.Network {
		err = cfg.RestrictPaths(rules...)
	} else {
		err = cfg.Restrict(rules...)
	}
	if err != nil {
		return st, fmt.Errorf("%w: %v", ErrRestrict, err)
	}
	st.Files = true
	st.Network = !p.Network && st.ABI >= 4
	return st, nil
}

func landlockRules(rs []Rule) []landlock.Rule {
	out := make([]landlock.Rule, 0, len(rs))
	for _, r := range rs {
		var acc uint64
		switch r.Access {
		case List:
			acc = listRights
		case Read:
			acc = readRights
		case ReadExec:
			acc = execRights
		case ReadWrite:
			acc = rwRights
		}
		if !r.Dir {
			acc &= fileRights
		}
		if acc == 0 {
			continue
		}
		out = append(out, landlock.PathAccess(landlock.AccessFSSet(acc), r.Path).IgnoreIfMissing())
	}
	return out
}
