package sandbox

import (
	"errors"
	"fmt"
	"strconv"

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
	rules, opened, err := landlockRules(Rules(p))
	defer closeAll(opened)
	if err != nil {
		return st, fmt.Errorf("%w: %v", ErrRestrict, err)
	}
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

// landlockRules turns rules into Landlock's. Each path is opened here,
// without following a symbolic link anywhere on it (Rules' paths have
// their links resolved already), and the rule names what was opened
// (/proc/self/fd/N, which go-landlock opens again as that very file).
// Opened by name, a folder or entry a racing process exchanged for a link
// between Rules' listing and the open would put the rule on the link's
// target: the whole home folder, read and write. Such a path, or one whose
// kind changed, gets no rule: the sandbox then grants less, never more.
// opened are the descriptors to close once the rules are applied.
func landlockRules(rs []Rule) (out []landlock.Rule, opened []int, err error) {
	out = make([]landlock.Rule, 0, len(rs))
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
		fd, err := openForRule(r)
		if errors.Is(err, unix.EMFILE) || errors.Is(err, unix.ENFILE) {
			// Leaving the rule out would quietly take away a granted
			// folder: say why instead.
			return out, opened, fmt.Errorf("too many files open to hold the sandbox's %d rules (raise the open-file limit, ulimit -n): %w", len(rs), err)
		}
		if err != nil {
			continue
		}
		opened = append(opened, fd)
		out = append(out, landlock.PathAccess(landlock.AccessFSSet(acc), "/proc/self/fd/"+strconv.Itoa(fd)))
	}
	return out, opened, nil
}

// openForRule opens r.Path as a handle (O_PATH) refusing symbolic links on
// the whole path, and checks it is still the kind of file Rules saw. An
// error means no rule: the path is missing, a link now stands on it, or
// its kind changed.
func openForRule(r Rule) (int, error) {
	fd, err := unix.Openat2(unix.AT_FDCWD, r.Path, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_CLOEXEC | unix.O_NOFOLLOW,
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
	if err != nil {
		return -1, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, err
	}
	if (st.Mode&unix.S_IFMT == unix.S_IFDIR) != r.Dir {
		unix.Close(fd)
		return -1, errKindChanged
	}
	return fd, nil
}

func closeAll(fds []int) {
	for _, fd := range fds {
		unix.Close(fd)
	}
}
