package sandbox_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// runIn runs a shell command line confined to p in folder dir, with
// attr as the caller's own process attributes, and returns its combined
// output and whether it exited 0.
func runIn(t *testing.T, p sandbox.Policy, dir, line string, attr *syscall.SysProcAttr) (string, bool) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/sh", "-c", line)
	cmd.Dir = dir
	cmd.SysProcAttr = attr
	if err := sandbox.Command(cmd, []string{exe}, p); err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(os.Environ(), launcherEnv+"=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	return out.String(), err == nil
}

// git runs git outside any sandbox, as the person's own git.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=p", "-c", "user.email=p@x", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return string(out)
}

func requireGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
}

// A repository's .git/config and hooks are code the person's own git runs
// later, unconfined (core.fsmonitor, core.hooksPath, a post-commit hook).
// Landlock grants the whole repository with its folder; the sandbox's
// mount namespace makes them read-only and pins .git, while git itself
// keeps working there. Also for a worktree, whose .git file says where
// the repository is.
func TestMountNamespaceKeepsGitSettingsAndHooks(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := filepath.Join(f.granted, "repo")
	wt := filepath.Join(f.granted, "wt")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "init", "-q")
	if err := os.WriteFile(filepath.Join(repo, "a"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", "a")
	git(t, repo, "commit", "-qm", "first")
	git(t, repo, "worktree", "add", "-q", wt)
	if err := os.RemoveAll(filepath.Join(repo, ".git", "hooks")); err != nil { // a repository without hooks
		t.Fatal(err)
	}
	config := filepath.Join(repo, ".git", "config")
	before, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	dotgitFile, err := os.ReadFile(filepath.Join(wt, ".git"))
	if err != nil {
		t.Fatal(err)
	}
	p := f.commandPolicy()
	gitEnv := "export HOME=" + f.temp + " GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b; "
	for _, tc := range []struct {
		name, dir, line string
		ok              bool
	}{
		{"git add, commit and status work", repo, gitEnv + "echo b > b && git add b && git commit -qm second && git status --short && git log --oneline | wc -l", true},
		{"git works in the worktree", wt, gitEnv + "echo c > c && git add c && git commit -qm third && git status --short", true},
		{"append core.fsmonitor to .git/config", repo, "printf '[core]\\n\\tfsmonitor = sh x\\n' >> .git/config", false},
		{"git config writes .git/config", repo, gitEnv + "git config core.fsmonitor 'sh x'", false},
		{"replace .git/config", repo, "cp .git/config c && echo '[core]' >> c && mv c .git/config", false},
		{"add a hook", repo, "echo 'touch pwned' > .git/hooks/post-commit && chmod +x .git/hooks/post-commit", false},
		{"replace the hooks folder", repo, "rm -rf .git/hooks", false},
		{"move .git away", repo, "mv .git .git-old", false},
		{"git config from the worktree", wt, gitEnv + "git config core.hooksPath /tmp", false},
		{"point the worktree's .git elsewhere", wt, "echo 'gitdir: /tmp/evil' > .git", false},
		{"a hook through the worktree", wt, "echo 'touch pwned' > " + filepath.Join(repo, ".git", "hooks", "post-checkout"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, ok := runIn(t, p, tc.dir, tc.line, nil)
			if ok != tc.ok {
				t.Errorf("`%s` in %s succeeded=%v, want %v: %s", tc.line, tc.dir, ok, tc.ok, out)
			}
			if strings.Contains(out, "no mount namespace") {
				t.Errorf("the sandbox ran without its mount namespace: %s", out)
			}
		})
	}
	after, err := os.ReadFile(config)
	if err != nil || !bytes.Equal(after, before) {
		t.Errorf(".git/config changed:\n%s\nwant\n%s", after, before)
	}
	if entries, err := os.ReadDir(filepath.Join(repo, ".git", "hooks")); err != nil || len(entries) > 0 {
		t.Errorf(".git/hooks: %v, %v; want an empty folder", entries, err)
	}
	if b, err := os.ReadFile(filepath.Join(wt, ".git")); err != nil || !bytes.Equal(b, dotgitFile) {
		t.Errorf("the worktree's .git file is now %q (%v), want %q", b, err, dotgitFile)
	}
	if n := strings.Count(git(t, repo, "log", "--oneline"), "\n"); n != 2 {
		t.Errorf("the repository has %d commits, want 2 (the sandboxed commit kept)", n)
	}
}

// /dev/shm is where the person's programs keep what they decrypted (pass)
// and share memory: the sandbox gets an empty one of its own.
func TestMountNamespaceOwnDevShm(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	name := "wrasse-test-" + filepath.Base(filepath.Dir(f.ws))
	theirs := filepath.Join("/dev/shm", name+"-person")
	if err := os.WriteFile(theirs, []byte("decrypted"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(theirs) })
	mine := filepath.Join("/dev/shm", name+"-sandbox")
	t.Cleanup(func() { os.Remove(mine) })
	p := f.commandPolicy()
	line := "test ! -e " + theirs + " && echo x > " + mine + " && test -s " + mine + " && stat -c %a /dev/shm"
	out, ok := runIn(t, p, f.granted, line, nil)
	if !ok || strings.TrimSpace(out) != "1777" {
		t.Errorf("`%s`: %v: %s; want the person's file out of sight, the sandbox's own written, /dev/shm mode 1777", line, ok, out)
	}
	if _, err := os.Stat(mine); err == nil {
		t.Errorf("%s, written in the sandbox, is in the person's /dev/shm", mine)
	}
}

// credentialHome is a home folder with an SSH private key, of group 1
// (another group than the test's own, which a sandboxed chgrp may name).
func credentialHome(t *testing.T) (home, key string) {
	t.Helper()
	home = t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	key = filepath.Join(home, ".ssh", "id_ed25519")
	if err := os.WriteFile(key, []byte("-----BEGIN OPENSSH PRIVATE KEY-----\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if os.Getuid() == 0 {
		if err := os.Chown(key, -1, 1); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	return home, key
}

// Landlock governs neither chmod nor chgrp: a command that cannot read a
// private key could open it to other local users (chmod 644) or to a
// shared group. In the mount namespace the key is a read-only mount of
// itself.
func TestMountNamespaceKeepsCredentialModes(t *testing.T) {
	requireLandlock(t)
	home, key := credentialHome(t)
	f := newFixture(t)
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{home}, Protected: f.protected(), Home: home, Temp: f.temp})
	before, err := os.Stat(key)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"chmod 644 " + key,
		"chgrp " + strings.TrimSpace(must(exec.Command("id", "-g").Output())) + " " + key,
		"truncate -s 0 " + key,
		"mv " + key + " " + key + ".old",
		"rm -f " + key,
		"chmod 755 " + filepath.Join(f.ws, "wrasse.db"),
	} {
		out, ok := runIn(t, p, home, line, nil)
		if ok {
			t.Errorf("`%s` succeeded: %s", line, out)
		}
	}
	after, err := os.Stat(key)
	if err != nil {
		t.Fatal(err)
	}
	if after.Mode() != before.Mode() || after.Size() != before.Size() ||
		after.Sys().(*syscall.Stat_t).Gid != before.Sys().(*syscall.Stat_t).Gid {
		t.Errorf("the key went from %v gid %d to %v gid %d", before.Mode(), before.Sys().(*syscall.Stat_t).Gid,
			after.Mode(), after.Sys().(*syscall.Stat_t).Gid)
	}
	if fi, err := os.Stat(filepath.Join(f.ws, "wrasse.db")); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("wrasse.db: %v %v, want its mode unchanged (0644)", fi.Mode(), err)
	}
}

func must(b []byte, err error) string {
	if err != nil {
		panic(err)
	}
	return string(b)
}

// The program runs with no capability, in the namespace either: it can
// neither undo the mounts nor make new ones, not even from a user
// namespace of its own (Landlock refuses every change of the mount
// topology).
func TestMountNamespaceCannotBeUndone(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	if err := os.Mkdir(filepath.Join(f.granted, "m"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := f.commandPolicy()
	out, ok := runIn(t, p, f.granted, "exec grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb)' /proc/self/status", nil)
	if !ok {
		t.Fatalf("read the capabilities: %s", out)
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasSuffix(l, "0000000000000000") {
			t.Errorf("the sandboxed program holds capabilities: %s", l)
		}
	}
	lines := []string{"umount /dev/shm", "umount -l /dev/shm", "mount -t tmpfs none m", "mount --bind m m"}
	if _, err := exec.LookPath("unshare"); err == nil {
		// A user namespace of its own gives the program every capability
		// there (exec: /proc/self is the launcher's process alone); Landlock
		// still refuses the mounts.
		lines = append(lines, "exec unshare -Um umount -l /dev/shm", "exec unshare -Um --propagation unchanged umount -l /dev/shm",
			"exec unshare -Um --propagation unchanged mount -t tmpfs none m")
	}
	for _, line := range lines {
		if out, ok := runIn(t, p, f.granted, line, nil); ok {
			t.Errorf("`%s` succeeded in the sandbox: %s", line, out)
		}
	}
}

// The callers' own process attributes (a session, a process group, the
// death signal) are kept, and the command runs with them in its
// namespaces.
func TestCommandKeepsCallersProcessAttributes(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	p := f.commandPolicy()
	attr := &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	// The program is the launcher's process: /proc/self is its own.
	out, ok := runIn(t, p, f.granted, "exec cat /proc/self/stat /proc/self/uid_map", attr)
	if !ok {
		t.Fatalf("the command failed: %s", out)
	}
	if !attr.Setsid || attr.Pdeathsig != syscall.SIGKILL || attr.Cloneflags&syscall.CLONE_NEWNS == 0 {
		t.Errorf("attributes after Command: %+v; want Setsid and Pdeathsig kept, CLONE_NEWNS added", attr)
	}
	// stat: pid (comm) state ppid pgrp session …; then uid_map's three.
	fields := strings.Fields(out)
	if len(fields) < 6 || fields[0] != fields[5] {
		t.Errorf("/proc/self/stat %q; want a session of its own", out)
	}
	uid := strings.TrimSpace(must(exec.Command("id", "-u").Output()))
	if m := fields[len(fields)-3:]; m[0] != uid || m[1] != uid || m[2] != "1" {
		t.Errorf("uid_map %q; want the caller's uid %s mapped to itself alone", m, uid)
	}
}

// Where the system refuses a user namespace (forced here by the policy:
// the tests do not change the machine's settings), the command runs as
// before, and says what is not protected.
func TestMountNamespaceFallback(t *testing.T) {
	requireLandlock(t)
	_, key := credentialHome(t)
	f := newFixture(t)
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Home: filepath.Dir(filepath.Dir(key)), Temp: f.temp})
	p.NoMountNS = true
	name := filepath.Join("/dev/shm", "wrasse-test-fallback-"+filepath.Base(filepath.Dir(f.ws)))
	t.Cleanup(func() { os.Remove(name) })
	out, ok := runIn(t, p, f.granted, "echo ran && echo x > "+name+" && chmod 640 "+key, nil)
	if !ok || !strings.Contains(out, "ran") {
		t.Fatalf("the command did not run without the namespace: %s", out)
	}
	if !strings.Contains(out, "no mount namespace (switched off for this sandbox)") || !strings.Contains(out, ".git/config") {
		t.Errorf("output %q; want the gap named", out)
	}
	if _, err := os.Stat(name); err != nil {
		t.Errorf("without the namespace /dev/shm is the person's: %v", err)
	}
	if fi, err := os.Stat(key); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("key mode %v (%v): without the namespace chmod reaches the file, as the gap says", fi.Mode(), err)
	}
	st := sandbox.Status{ABI: 6, Files: true, Scoped: true, MountNSAsked: true, MountNSWhy: "the system refused a user namespace: operation not permitted"}
	if g := st.Gaps(); len(g) != 1 || !strings.HasPrefix(g[0], "no mount namespace (the system refused") {
		t.Errorf("Gaps() = %q", g)
	}
}

// refusedEnv runs TestMountNamespaceRefusedBySystemInside, in a user
// namespace whose max_user_namespaces is 0.
const refusedEnv = "WRASSE_SANDBOX_TEST_USERNS_REFUSED"

// A system that refuses user namespaces, played for real without changing
// the machine's settings: the test binary runs again in a user namespace
// of its own (unshare -Ur) where it sets max_user_namespaces to 0, which
// counts in that namespace only. Every clone of Command's is then refused
// (ENOSPC), as on a system with the sysctl at 0.
func TestMountNamespaceRefusedBySystem(t *testing.T) {
	requireLandlock(t)
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("no unshare")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("unshare", "-Ur", "sh", "-c", `echo 0 > /proc/sys/user/max_user_namespaces && exec "$0" -test.run '^TestMountNamespaceRefusedBySystemInside$' -test.count=1 -test.v`, exe)
	cmd.Env = append(os.Environ(), refusedEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestMountNamespaceRefusedBySystemInside") {
		t.Fatalf("the test in a namespace without user namespaces: %v\n%s", err, out)
	}
}

func TestMountNamespaceRefusedBySystemInside(t *testing.T) {
	if os.Getenv(refusedEnv) != "1" {
		t.Skip("run by TestMountNamespaceRefusedBySystem")
	}
	f := newFixture(t)
	p := f.commandPolicy()
	out, ok := runIn(t, p, f.granted, "echo ran > out && cat out", &syscall.SysProcAttr{Setsid: true})
	if !ok || !strings.Contains(out, "ran") {
		t.Fatalf("the command did not run where user namespaces are refused: %s", out)
	}
	if !strings.Contains(out, "no mount namespace (the system refused a user namespace") {
		t.Errorf("output %q; want the gap and why", out)
	}
	if st := sandbox.ExpectCommand(true); st.MountNS || !strings.Contains(strings.Join(st.Gaps(), ";"), "no mount namespace (the system refused") {
		t.Errorf("ExpectCommand = %+v, gaps %q; want the refusal", st, st.Gaps())
	}
}

// What the mount namespace costs a command: the probe, the clone and the
// launcher's mounts (a granted home with an SSH key, a repository), with
// and without it.
func BenchmarkCommandMountNamespace(b *testing.B) {
	home := b.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("k"), 0o600); err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, "proj", ".git", "hooks"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "proj", ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	for _, off := range []bool{false, true} {
		b.Run(map[bool]string{false: "namespace", true: "none"}[off], func(b *testing.B) {
			for b.Loop() {
				p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{filepath.Join(home, "proj")}, Home: home, Temp: b.TempDir()})
				p.NoMountNS = off
				cmd := exec.Command("/bin/true")
				if err := sandbox.Command(cmd, []string{exe}, p); err != nil {
					b.Fatal(err)
				}
				cmd.Env = append(os.Environ(), launcherEnv+"=1")
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v: %s", err, out)
				}
			}
		})
	}
}

// newRepo makes the folder dir, with its parents, and a repository in it.
func newRepo(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "init", "-q")
	return dir
}

// launch is `echo started` begun through the sandbox p in dir, for tests
// that bound how long the launcher takes before the program runs.
type launch struct {
	cmd   *exec.Cmd
	mu    sync.Mutex
	out   bytes.Buffer
	done  chan error
	start time.Time
	took  time.Duration
}

func startLaunch(t *testing.T, p sandbox.Policy, dir string) *launch {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	l := &launch{cmd: exec.Command("/bin/sh", "-c", "echo started"), done: make(chan error, 1)}
	l.cmd.Dir = dir
	if err := sandbox.Command(l.cmd, []string{exe}, p); err != nil {
		t.Fatal(err)
	}
	l.cmd.Env = append(os.Environ(), launcherEnv+"=1")
	l.cmd.Stdout, l.cmd.Stderr = l, l
	l.start = time.Now()
	if err := l.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { l.done <- l.cmd.Wait() }()
	return l
}

// Write takes the launch's output; it may be read while the launch runs.
func (l *launch) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.out.Write(b)
}

// output is what the launch wrote so far.
func (l *launch) output() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.out.String()
}

// wait is the launch's end within limit: its error, and false when it
// had not ended by then.
func (l *launch) wait(limit time.Duration) (error, bool) {
	select {
	case err := <-l.done:
		l.took = time.Since(l.start)
		return err, true
	case <-time.After(limit):
		return nil, false
	}
}

// startsWithin fails t unless the launch runs its command within limit;
// planning says what would keep its launcher planning longer.
func (l *launch) startsWithin(t *testing.T, limit time.Duration, planning string) {
	t.Helper()
	err, ended := l.wait(limit)
	if !ended {
		t.Errorf("the next command's launcher is still planning after %v: %s (output so far: %q)", limit, planning, l.output())
		l.kill()
		return
	}
	if !strings.Contains(l.output(), "started") {
		t.Errorf("the command did not run (%v): %.300s", err, l.output())
	}
	t.Logf("the command ran after %v", l.took)
}

// kill ends the launch and waits for it.
func (l *launch) kill() {
	_ = l.cmd.Process.Kill()
	<-l.done
}
