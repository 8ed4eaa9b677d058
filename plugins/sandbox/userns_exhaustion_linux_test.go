package sandbox_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// exhaustedEnv runs TestMountNamespaceNotSwitchedOffByCommandInside, in
// a user namespace whose max_user_namespaces is small.
const exhaustedEnv = "WRASSE_SANDBOX_TEST_USERNS_EXHAUSTED"

// A sandboxed command may make user namespaces of its own (it gets no
// capability from them, Landlock still holds). Kept alive by processes it
// leaves behind (setsid escapes the process group killed at its end), they
// count against the person's limit of user namespaces: when it is reached
// the next command's clone is refused, and the next command would run
// without its mount namespace, .git/config and hooks writable, with only a
// line in its output (read by the model that asked for it) to say so. A
// refusal because the limit is used up is no system that refuses the
// namespace: the next command must not run without it. Played for real in
// a user namespace of the test's own whose limit is 3, the machine's
// settings untouched.
func TestMountNamespaceNotSwitchedOffByCommand(t *testing.T) {
	requireLandlock(t)
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("no unshare")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("unshare", "-Ur", "sh", "-c", `echo 3 > /proc/sys/user/max_user_namespaces && exec "$0" -test.run '^TestMountNamespaceNotSwitchedOffByCommandInside$' -test.count=1 -test.v`, exe)
	cmd.Env = append(os.Environ(), exhaustedEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestMountNamespaceNotSwitchedOffByCommandInside") {
		t.Fatalf("the test in a namespace with a limit of 3 user namespaces: %v\n%s", err, out)
	}
}

func TestMountNamespaceNotSwitchedOffByCommandInside(t *testing.T) {
	if os.Getenv(exhaustedEnv) != "1" {
		t.Skip("run by TestMountNamespaceNotSwitchedOffByCommand")
	}
	requireGit(t)
	f := newFixture(t)
	repo := newRepo(t, filepath.Join(f.granted, "repo"))
	pids := filepath.Join(f.granted, "pids")
	t.Cleanup(func() {
		b, _ := os.ReadFile(pids)
		for _, s := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(s); err == nil {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	p := f.commandPolicy()
	attr := func() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
	hold := "for i in 1 2 3 4; do setsid unshare -U sleep 60 </dev/null >/dev/null 2>&1 & echo $! >> " + pids + "; done; sleep 1; echo held"
	if out, ok := runIn(t, p, repo, hold, attr()); !ok || !strings.Contains(out, "held") {
		t.Fatalf("`%s`: %v: %s", hold, ok, out)
	}
	// Wrasse's own probe (the capability page's) sees the limit used up
	// once the kernel has freed the namespaces of the command that ended.
	for i := 0; i < 100 && sandbox.ExpectCommand(true).MountNS; i++ {
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	line := "printf '[core]\\n\\tfsmonitor = sh x\\n' >> .git/config && echo wrote"
	cmd := exec.Command("/bin/sh", "-c", line)
	cmd.Dir = repo
	cmd.SysProcAttr = attr()
	if err := sandbox.Command(cmd, []string{exe}, p); err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(os.Environ(), launcherEnv+"=1")
	out, err := cmd.CombinedOutput()
	if b, _ := os.ReadFile(filepath.Join(repo, ".git", "config")); strings.Contains(string(b), "fsmonitor") {
		t.Errorf("after a command used up the user namespaces, the next one (%v) ran without its mount namespace and wrote .git/config: %s", err, out)
	}
	if err == nil || !strings.Contains(err.Error(), "max_user_namespaces") {
		t.Errorf("the command's error %v; want one naming the used-up limit", err)
	}
}
