package sandbox_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// mountAPI tries the new mount API on a read-only mount, by system call
// number (the same on amd64 and arm64): mount_setattr clearing
// read-only, open_tree cloning it and mount_setattr on the clone, fsopen
// of a tmpfs. Each prints its errno; "ok" when one succeeded.
const mountAPI = `
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD = -100
class Attr(ctypes.Structure):
    _fields_ = [("set", ctypes.c_uint64), ("clr", ctypes.c_uint64), ("prop", ctypes.c_uint64), ("userns", ctypes.c_uint64)]
a = Attr(0, 1, 0, 0)  # clear MOUNT_ATTR_RDONLY
path = sys.argv[1].encode()
res = []
r = libc.syscall(442, AT_FDCWD, path, 0, ctypes.byref(a), ctypes.sizeof(a)); res.append(("mount_setattr", r, ctypes.get_errno()))
fd = libc.syscall(428, AT_FDCWD, path, 1 | 0x80000); res.append(("open_tree", fd, ctypes.get_errno()))
if fd >= 0:
    r = libc.syscall(442, fd, b"", 0x1000, ctypes.byref(a), ctypes.sizeof(a)); res.append(("mount_setattr clone", r, ctypes.get_errno()))
    r = libc.syscall(429, fd, b"", AT_FDCWD, path, 4); res.append(("move_mount", r, ctypes.get_errno()))
r = libc.syscall(430, b"tmpfs", 0); res.append(("fsopen", r, ctypes.get_errno()))
for n, r, e in res:
    print(n, r, os.strerror(e) if r < 0 else "ok")
`

// The program holds no capability and Landlock refuses changes of the
// mount topology; the new mount API (mount_setattr, open_tree,
// move_mount, fsopen) must not give a read-only mount back its writes,
// neither in the sandbox's user namespace nor in one the program makes
// (where it holds every capability, over a namespace that owns no mount).
func TestMountNamespaceNewMountAPI(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	py, err := exec.LookPath("/usr/bin/python3")
	if err != nil {
		t.Skip("no /usr/bin/python3")
	}
	f := newFixture(t)
	repo := newRepo(t, filepath.Join(f.granted, "repo"))
	config := filepath.Join(repo, ".git", "config")
	before, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(f.granted, "mountapi.py")
	if err := os.WriteFile(script, []byte(mountAPI), 0o644); err != nil {
		t.Fatal(err)
	}
	p := f.commandPolicy()
	prefixes := []string{""}
	if _, err := exec.LookPath("unshare"); err == nil {
		prefixes = append(prefixes, "unshare -U ")
	}
	for _, pre := range prefixes {
		line := pre + py + " " + script + " .git/config; echo '[core]' >> .git/config && echo wrote"
		out, _ := runIn(t, p, repo, line, nil)
		if strings.Contains(out, " ok") || strings.Contains(out, "wrote") || !strings.Contains(out, "fsopen") {
			t.Errorf("`%s`:\n%s\nwant every call refused and .git/config unwritten", line, out)
		}
	}
	if after, err := os.ReadFile(config); err != nil || !bytes.Equal(after, before) {
		t.Errorf(".git/config changed:\n%s", after)
	}
}
