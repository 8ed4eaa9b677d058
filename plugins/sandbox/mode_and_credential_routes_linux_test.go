package sandbox_test

import (
	"archive/tar"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// Ways around the mode rules at creation and the credential list, found
// by attacking them: each test fails when the way it names gets through,
// or when an ordinary tool stops working in the command sandbox.

const probePython = "/usr/bin/python3"

// probeInt80 makes one i386 system call (int 0x80) from a 64-bit process:
// argv: path, call number, mode (octal). The arguments are the path (ebx)
// and the mode (ecx): creat(2) is 8, chmod(2) 15, mkdir(2) 39.
const probeInt80 = `import ctypes, sys
libc = ctypes.CDLL(None)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
addr = libc.mmap(None, 4096, 7, 0x22 | 0x40, -1, 0)
path = sys.argv[1].encode() + b"\0"
nr, mode = int(sys.argv[2]), int(sys.argv[3], 8)
data = addr + 256
ctypes.memmove(data, path, len(path))
code = (b"\x53" + b"\xb8" + nr.to_bytes(4, "little") + b"\xbb" + data.to_bytes(4, "little") +
        b"\xb9" + mode.to_bytes(4, "little") + b"\xcd\x80" + b"\x5b\xc3")
ctypes.memmove(addr, code, len(code))
print("ret", ctypes.CFUNCTYPE(ctypes.c_int)(addr)())
`

// probeSyscall makes raw 64-bit system calls with 64-bit arguments, one
// after the other in the same process: argv: calls separated by ",",
// each a number then its arguments (an int, or a path as s:PATH).
const probeSyscall = `import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
for call in " ".join(sys.argv[1:]).split(","):
    words = call.split()
    args = [ctypes.c_long(int(words[0], 0))]
    for a in words[1:]:
        args.append(ctypes.c_char_p(a[2:].encode()) if a.startswith("s:") else ctypes.c_long(int(a, 0)))
    r = libc.syscall(*args)
    print("ret", r, "errno", ctypes.get_errno())
`

// probeTmpfileLink makes an O_TMPFILE file in argv[1], tries to open its
// mode through /proc/self/fd, then links it at argv[2].
const probeTmpfileLink = `import os, sys
fd = os.open(sys.argv[1], os.O_TMPFILE | os.O_WRONLY, 0o666)
try:
    os.chmod("/proc/self/fd/%d" % fd, 0o4777)
except OSError as e:
    print("chmod", e)
os.link("/proc/self/fd/%d" % fd, sys.argv[2], follow_symlinks=True)
`

// probeOpenat2 calls openat2(2) with O_CREAT and a set-user-ID mode in its
// struct open_how, which seccomp cannot read.
const probeOpenat2 = `import ctypes, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
how = ctypes.create_string_buffer(struct.pack("<QQQ", 0o101, 0o4755, 0))
print("ret", libc.syscall(ctypes.c_long(437), ctypes.c_long(-100), ctypes.c_char_p(sys.argv[1].encode()), how, ctypes.c_long(24)), "errno", ctypes.get_errno())
`

// probeACL sets an access ACL giving the group and others read and write.
const probeACL = `import os, struct, sys
acl = struct.pack("<I", 2) + b"".join(struct.pack("<HHI", tag, 6, 0xffffffff) for tag in (0x01, 0x04, 0x10, 0x20))
os.setxattr(sys.argv[1], "system.posix_acl_access", acl)
`

// probePipUmask is pip's current_umask() and the chmod it makes of every
// console script and every executable file a wheel or sdist unpacks
// (pip/_internal/utils/misc.py, utils/unpacking.py).
const probePipUmask = `import os, sys
mask = os.umask(0)
os.umask(mask)
open(sys.argv[1], "w").close()
os.chmod(sys.argv[1], (0o777 & ~mask | 0o111))
print("umask", oct(mask))
`

func probeWrite(t *testing.T, path, data string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// probeBadMode says what is wrong with path's mode: write for the group or
// others, or a set-ID bit ("" when none, or when path does not exist).
func probeBadMode(path string) string {
	fi, err := os.Lstat(path)
	if err != nil {
		return ""
	}
	var bad []string
	if fi.Mode().Perm()&0o022 != 0 {
		bad = append(bad, "write for the group or others")
	}
	if fi.Mode()&(os.ModeSetuid|os.ModeSetgid) != 0 {
		bad = append(bad, "a set-ID bit")
	}
	if len(bad) == 0 {
		return ""
	}
	return fi.Mode().String() + ": " + strings.Join(bad, " and ")
}

// TestOtherRoutesToOpenOrSetIDModes: other ways to make a file whose mode holds write
// for the group or others or a set-ID bit: a foreign system call ABI
// (i386's int 0x80, x32), the mode in the high word of the register,
// mkfifo, install -m, cp and tar preserving modes, O_TMPFILE then linkat
// (and chmod through /proc/self/fd), an ACL, a Unix socket bound under
// umask 0.
//
// Reproduction (each row): shell_exec: python3 int80.py f 8 4755
func TestOtherRoutesToOpenOrSetIDModes(t *testing.T) {
	requireLandlock(t)
	if !fileExists(probePython) {
		t.Fatalf("%s is needed to make raw system calls", probePython)
	}
	f := newFixture(t)
	in := func(name string) string { return filepath.Join(f.granted, name) }
	for name, src := range map[string]string{"int80.py": probeInt80, "syscall.py": probeSyscall, "tmpfile.py": probeTmpfileLink,
		"acl.py": probeACL, "openat2.py": probeOpenat2} {
		probeWrite(t, in("tools/"+name), src, 0o644)
	}
	// Sources whose modes a copy or an archive would carry.
	probeWrite(t, in("src/open"), "x\n", 0o666)
	probeWrite(t, in("src/suid"), "x\n", 0o4755)
	probeWrite(t, in("target"), "x\n", 0o644)
	var archive bytes.Buffer
	tw := tar.NewWriter(&archive)
	for name, mode := range map[string]int64{"t-open": 0o666, "t-suid": 0o4755, "t-dir-open/": 0o777} {
		hdr := &tar.Header{Name: name, Mode: mode, Typeflag: tar.TypeReg, Size: 2}
		if strings.HasSuffix(name, "/") {
			hdr.Typeflag, hdr.Size = tar.TypeDir, 0
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if hdr.Size > 0 {
			tw.Write([]byte("x\n"))
		}
	}
	tw.Close()
	probeWrite(t, in("a.tar"), archive.String(), 0o644)

	py := probePython + " " + in("tools") + "/"
	tests := []struct {
		name, line string
		paths      []string
	}{
		{"i386 creat 04755 through int 0x80", py + "int80.py " + in("i386-suid") + " 8 4755", []string{in("i386-suid")}},
		{"i386 creat 0666 through int 0x80", py + "int80.py " + in("i386-open") + " 8 666", []string{in("i386-open")}},
		{"i386 chmod 0666 through int 0x80", py + "int80.py " + in("target") + " 15 666", []string{in("target")}},
		{"x32 creat 04755", py + "syscall.py 0x40000055 s:" + in("x32-suid") + " 0o4755", []string{in("x32-suid")}},
		{"open with the set-ID mode beside a high bit", py + "syscall.py 2 s:" + in("hi-suid") + " 0o101 0x1000009ed", []string{in("hi-suid")}},
		{"mknod with the set-user-ID mode beside a high bit", py + "syscall.py 133 s:" + in("hi-mknod") + " 0x1000089ed 0", []string{in("hi-mknod")}},
		{"openat2 with O_CREAT and 04755", py + "openat2.py " + in("openat2-suid"), []string{in("openat2-suid")}},
		{"mkfifo -m 666", "mkfifo -m 666 " + in("fifo2"), []string{in("fifo2")}},
		{"install -m 4755 and -m 666", "install -m 4755 " + in("src/open") + " " + in("inst-suid") + "; install -m 666 " + in("src/open") + " " + in("inst-open"),
			[]string{in("inst-suid"), in("inst-open")}},
		{"cp --preserve=mode", "cp --preserve=mode " + in("src/open") + " " + in("cp-open") + "; cp -p " + in("src/suid") + " " + in("cp-suid"),
			[]string{in("cp-open"), in("cp-suid")}},
		{"cp -a of a folder", "cp -a " + in("src") + " " + in("cpa"), []string{in("cpa/open"), in("cpa/suid")}},
		{"tar xp of 0666, 04755 and 0777 entries", "mkdir " + in("x") + " && tar xpf " + in("a.tar") + " -C " + in("x"),
			[]string{in("x/t-open"), in("x/t-suid"), in("x/t-dir-open")}},
		{"O_TMPFILE then linkat, chmod through /proc/self/fd", py + "tmpfile.py " + f.granted + " " + in("tmpfile"), []string{in("tmpfile")}},
		{"chmod 666 through /proc/self/fd", "exec 3<" + in("target") + "; chmod 666 /proc/self/fd/3", []string{in("target")}},
		{"an ACL with group and other write", py + "acl.py " + in("target"), []string{in("target")}},
	}
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Temp: f.temp, Network: true, UnixSockets: true})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, _ := run(t, p, tc.line)
			for _, path := range tc.paths {
				if bad := probeBadMode(path); bad != "" {
					t.Errorf("%q made %s with %s (%s); want no group or other write and no set-ID bit", tc.line, path, bad, strings.TrimSpace(out))
				}
			}
		})
	}
}

// TestCredentialsUnderOtherNames: a credential the list names, reached
// under another name: a link made in the sandbox, /proc/self/root,
// /proc/self/cwd, a hard link made in the sandbox (stopped); the same
// stores where the person's tools keep them under names the list lacks:
// $XDG_CONFIG_HOME set elsewhere (gh, glab, rclone, pip… read it), the
// Vercel CLI's ~/.now and ~/.local/share/now (it uses them when they
// exist), Helm's registry logins.
//
// Reproduction: XDG_CONFIG_HOME=~/cfg; grant ~; in shell_exec: cat ~/cfg/gh/hosts.yml
func TestCredentialsUnderOtherNames(t *testing.T) {
	requireLandlock(t)
	const secret = "MOVEDSECRETc4d2"
	creds := []string{".npmrc", ".docker/key.pem", "cfg/gh/hosts.yml", "cfg/rclone/rclone.conf", ".now/auth.json", ".local/share/now/auth.json",
		".config/helm/registry/config.json"}
	files := map[string]string{}
	for _, c := range creds {
		files[c] = "token: " + secret + "\n"
	}
	files["Documents/notes.md"] = "mine\n"
	home := homeWith(t, files)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "cfg"))
	in := func(rel string) string { return filepath.Join(home, rel) }
	tests := []struct{ name, line string }{
		{"a link made to ~/.npmrc", "ln -s " + in(".npmrc") + " " + in("Documents/l1") + "; cat " + in("Documents/l1")},
		{"a hard link made to ~/.npmrc", "ln " + in(".npmrc") + " " + in("Documents/h1") + "; cat " + in("Documents/h1")},
		{"~/.npmrc through /proc/self/root", "cat /proc/self/root" + in(".npmrc")},
		{"~/.npmrc through /proc/self/cwd", "cd " + home + " && cat /proc/self/cwd/.npmrc"},
		{"gh's hosts.yml in $XDG_CONFIG_HOME", "cat " + in("cfg/gh/hosts.yml")},
		{"rclone.conf in $XDG_CONFIG_HOME", "cat " + in("cfg/rclone/rclone.conf")},
		{"the Vercel CLI's legacy ~/.now", "cat " + in(".now/auth.json")},
		{"the Vercel CLI's legacy XDG folder", "cat " + in(".local/share/now/auth.json")},
		{"Helm's registry logins", "cat " + in(".config/helm/registry/config.json")},
		{"Docker's TLS client key for a remote daemon (DOCKER_CERT_PATH's default)", "cat " + in(".docker/key.pem")},
	}
	for who, p := range homeGrantedPolicies(t, home) {
		for _, tc := range tests {
			t.Run(who+" "+tc.name, func(t *testing.T) {
				if out, _ := run(t, p, tc.line); strings.Contains(out, secret) {
					t.Errorf("a sandboxed %s with the home folder granted read a credential: %q printed it", who, tc.line)
				}
			})
		}
	}
}

// TestToolsKeepWorkingUnderTheModeRules: ordinary work in the command sandbox.
// Programs read the umask with umask(0) then umask(old) and chmod by what
// they read (npm installing a package's bin, pip its console scripts):
// a filter that faked umask's answer broke them, so the umask is only set
// at the start.
func TestToolsKeepWorkingUnderTheModeRules(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	in := func(name string) string { return filepath.Join(f.granted, name) }
	probeWrite(t, in("tools/pip_umask.py"), probePipUmask, 0o644)
	probeWrite(t, in("pkg/package.json"), `{"name":"p","version":"1.0.0","bin":{"pp":"bin/pp.js"}}`, 0o644)
	probeWrite(t, in("pkg/bin/pp.js"), "#!/usr/bin/env node\nconsole.log('pp ran')\n", 0o644)
	probeWrite(t, in("app/package.json"), `{"name":"app","version":"1.0.0"}`, 0o644)
	probeWrite(t, in("umask077.sh"), "umask 077\ntouch "+in("private")+"\nstat -c %a "+in("private")+"\n", 0o755)
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Temp: f.temp, Network: true})
	npmEnv := "HOME=" + f.granted + " npm_config_cache=" + in("npm-cache") + " npm_config_update_notifier=false "
	tests := []struct {
		name, line, want string
		need             string // a program the row needs
	}{
		{"git init and commit", "export HOME=" + f.granted + "; cd " + f.granted + " && git init -q repo && cd repo && echo x > f && git add f && " +
			"git -c user.name=a -c user.email=a@b commit -qm m && git log --oneline | wc -l", "1", "/usr/bin/git"},
		{"tar c then x", "cd " + f.granted + " && mkdir -p t/s && echo x > t/s/a && chmod 755 t/s/a && tar cf t.tar -C t s && mkdir t2 && tar xf t.tar -C t2 && stat -c %a t2/s/a", "755", "/usr/bin/tar"},
		{"cp -a", "cd " + f.granted + " && mkdir -p c/d && echo x > c/d/e && cp -a c c2 && cat c2/d/e", "x", ""},
		{"a umask 077 script", "sh " + in("umask077.sh"), "600", ""},
		{"the shell's umask", "umask", "0022", ""},
		{"python venv without pip", "cd " + f.granted + " && " + probePython + " -m venv --without-pip venv && venv/bin/python -c 'print(42)'", "42", probePython},
		{"pip's chmod of an executable it unpacks", probePython + " " + in("tools/pip_umask.py") + " " + in("script") + " && stat -c %a " + in("script"), "755", probePython},
		{"npm install of a package with a bin", "cd " + in("app") + " && " + npmEnv + "npm install --offline --no-audit --no-fund ../pkg >/dev/null 2>&1; ./node_modules/.bin/pp", "pp ran", "/usr/bin/npm"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.need != "" && !fileExists(tc.need) {
				t.Skipf("%s is not installed", tc.need)
			}
			out, _ := run(t, p, tc.line)
			if !strings.Contains(out, tc.want) {
				t.Errorf("%q in the command sandbox: %s; want %q", tc.line, strings.TrimSpace(out), tc.want)
			}
		})
	}
}
