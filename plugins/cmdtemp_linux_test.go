package plugins

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// Each command sandboxFn confines gets a temporary folder of its own
// (TMPDIR, 0700): a second command neither reads the first one's
// temporary files nor lists or writes the shared temporary folder, where
// one command could leave what another (or the person's own program)
// picks up.
func TestCommandsDoNotShareTemporaryFiles(t *testing.T) {
	if sandbox.ABI() == 0 {
		t.Skip("no Landlock on this kernel")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", t.TempDir())
	granted := t.TempDir()
	s := &envSpec{launcher: []string{exe, SandboxCommand}, roots: []string{granted}}
	var first string
	run := func(line string) (string, string, bool) {
		t.Helper()
		cmd := exec.Command("/bin/sh", "-c", line)
		cmd.Env = []string{"PATH=/usr/bin:/bin", "TMPDIR=" + os.TempDir()}
		if err := s.sandboxFn()(cmd, false); err != nil {
			t.Fatal(err)
		}
		var tmp string
		for _, kv := range cmd.Env {
			if v, ok := strings.CutPrefix(kv, "TMPDIR="); ok {
				tmp = v
			}
		}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if first == "" {
			// Kept until the end, to be looked for.
			t.Cleanup(func() { s.temps.release(cmd) })
		} else {
			s.temps.release(cmd)
			if _, err := os.Stat(tmp); err == nil {
				t.Errorf("the temporary folder %s of a command that ended is still there", tmp)
			}
		}
		return tmp, out.String(), err == nil
	}
	first, out, ok := run(`printf secret > "$TMPDIR/a.txt" && mktemp`)
	if first == "" {
		t.Fatal("the command got no TMPDIR")
	}
	if !ok {
		t.Fatalf("a command could not write its own temporary folder: %s", out)
	}
	if filepath.Dir(first) != filepath.Clean(os.TempDir()) || !strings.HasPrefix(filepath.Base(first), sandbox.CommandTempPrefix) {
		t.Fatalf("the command's TMPDIR is %q; want a folder of its own in %s", first, os.TempDir())
	}
	if info, err := os.Stat(first); err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("the command's temporary folder %s: %v %v; want mode 0700", first, info, err)
	}
	for _, tc := range []struct{ name, line string }{
		{"reads the first command's temporary file", "cat " + filepath.Join(first, "a.txt")},
		{"lists the shared temporary folder", "ls " + os.TempDir()},
		{"writes the shared temporary folder", "echo x > " + filepath.Join(os.TempDir(), "wrasse-shared-test")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, out, ok := run(tc.line); ok || strings.Contains(out, "secret") {
				t.Errorf("a second command %s: succeeded (%s); want each command's temporary files its own", tc.name, out)
			}
		})
	}
}
