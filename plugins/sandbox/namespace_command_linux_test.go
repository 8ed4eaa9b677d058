package sandbox_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// runNamespaced runs a shell command line through NamespaceCommand with
// policy p, in folder dir, and returns its output.
func runNamespaced(t *testing.T, p sandbox.Policy, dir, line string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/sh", "-c", line)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LANG=C.UTF-8")
	if err := sandbox.NamespaceCommand(cmd, []string{exe}, p); err != nil {
		t.Fatal(err)
	}
	if cmd.Err != nil {
		t.Fatal(cmd.Err)
	}
	cmd.Env = append(cmd.Env, launcherEnv+"=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	return out.String()
}

// namespaceProbe writes the repository's settings and a file outside
// every grant, and prints its capabilities, the launcher's report and its
// locale.
const namespaceProbe = `echo x >> repo/.git/config && echo CONFIG-WRITTEN
echo x > "$OUTSIDE/f" && echo OUTSIDE-WRITTEN
grep CapEff /proc/self/status
printf 'report=%s\n' "$WRASSE_SANDBOX_MOUNTS"
printf 'lang=%s\n' "$LANG"`

// NamespaceCommand starts its program in the mount namespace Command
// gives a command, with the same git mounts for the policy's writable
// grants, without confining it (the program, a plugin process, confines
// itself) and without capabilities; it hands the program what it mounted
// and leaves the launcher's environment for the program to put back.
func TestNamespaceCommandMountsWithoutConfining(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	git(t, f.granted, "init", "-q", "repo")
	t.Setenv("OUTSIDE", f.outside)
	out := runNamespaced(t, sandbox.Policy{ReadWrite: []string{f.granted}}, f.granted, namespaceProbe)
	for _, want := range []string{"Read-only file system", "OUTSIDE-WRITTEN", "CapEff:\t0000000000000000", `"ok":true`, "lang=en_US.UTF-8"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "CONFIG-WRITTEN") {
		t.Errorf("the program wrote the repository's settings:\n%s", out)
	}
}

// Where the namespace is refused (forced here), the program starts the
// same way, and the report says why: the program reports the gap.
func TestNamespaceCommandFallback(t *testing.T) {
	requireGit(t)
	f := newFixture(t)
	git(t, f.granted, "init", "-q", "repo")
	t.Setenv("OUTSIDE", f.outside)
	out := runNamespaced(t, sandbox.Policy{ReadWrite: []string{f.granted}, NoMountNS: true}, f.granted, namespaceProbe)
	for _, want := range []string{"CONFIG-WRITTEN", `"asked":true`, "switched off for this sandbox", "lang=en_US.UTF-8"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, `"ok":true`) {
		t.Errorf("the report says every mount was made:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(f.granted, "repo", ".git", "config")); err != nil {
		t.Fatal(err)
	}
}
