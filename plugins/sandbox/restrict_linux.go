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
//
// It asks for Landlock ABI 8, downgraded to what the kernel offers: files
// (ABI 1-5), TCP unless p.Network (ABI 4), and the IPC scopes of ABI 6,
// whatever p says: a confined process can neither signal nor reach over
// an abstract Unix socket any process outside its sandbox (Wrasse itself,
// the user's other programs). ABI 9 and 10 add restrictions on pathname
// Unix sockets and UDP that the policies do not grant rules for yet, so
// asking for them would cut commands off the desktop bus, the X server and
// name resolution; they are left to a policy that names those sockets.
func Restrict(p Policy) (Status, error) {
	st := Status{ABI: ABI(), NetworkAsked: !p.Network}
	if st.ABI == 0 {
		return st, nil
	}
	rules := landlockRules(Rules(p))
	cfg := landlock.V8
	if p.Network {
		// Files and scopes; TCP stays open.
		cfg = landlock.Config{HandledAccessFS: cfg.HandledAccessFS, Scoped: cfg.Scoped}
	}
	if err := cfg.BestEffort().Restrict(rules...); err != nil {
		return st, fmt.Errorf("%w: %v", ErrRestrict, err)
	}
	st.Files = true
	st.Network = !p.Network && st.ABI >= 4
	st.Scoped = st.ABI >= scopedABI
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
