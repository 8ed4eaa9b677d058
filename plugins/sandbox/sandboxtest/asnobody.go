package sandboxtest

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// nobody is the account tests run as in place of root.
const nobody = "65534"

// RunAsNobody runs the test named again, as the account nobody, from a copy
// of the test binary that account can run, in a folder it can write (its
// HOME and TMPDIR), and fails t when that run fails. A skip there is a skip
// here, with its reason, so a test that cannot run as nobody (a tool only
// root can reach) is never counted as passed. Callers return after it:
//
//	if os.Geteuid() == 0 {
//		sandboxtest.RunAsNobody(t, t.Name())
//		return
//	}
func RunAsNobody(t *testing.T, name string) {
	t.Helper()
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("running as root and no setpriv to run as another account (apt install util-linux)")
	}
	dir, err := os.MkdirTemp("", "wrasse-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	// The test binary's own folder is often root's 0700 temp folder.
	if err := os.Chmod(dir, 0o1777); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "as-nobody.test")
	if err := copyExecutable(bin); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(setpriv, "--reuid="+nobody, "--regid="+nobody, "--clear-groups",
		bin, "-test.count=1", "-test.run", "^"+regexp.QuoteMeta(name)+"$", "-test.v")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "TMPDIR="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
	t.Logf("as nobody:\n%s", out)
	if reason, skipped := skipReason(string(out), name); skipped {
		t.Skipf("as nobody: %s", reason)
	}
	if !strings.Contains(string(out), "--- PASS: "+name) {
		t.Fatalf("as nobody: %s did not run\n%s", name, out)
	}
}

// copyExecutable copies the running test binary to path, mode 0755.
func copyExecutable(path string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	src, err := os.Open(self)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// skipReason finds the named test's skip in go test -v output and the
// line that said why (the one after "--- SKIP").
func skipReason(out, name string) (string, bool) {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "--- SKIP: "+name) {
			if i+1 < len(lines) {
				return strings.TrimSpace(lines[i+1]), true
			}
			return "skipped", true
		}
	}
	return "", false
}
