package sandbox_test

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// every sandbox starts as Wrasse's own executable (`wrasse
// __sandbox-exec`, os.Executable()), which confines itself only once it
// runs. Nothing protects that file: the workspace's protected paths
// (brain/workspace Protected, assistant.ProtectedPaths) leave it out, and
// the home folder rule covers it only in ~/.local/bin or ~/go/bin. Where
// Wrasse runs from a granted folder (its checkout after `make run`, the
// unpacked tarball in ~/Downloads/wrasse, a build in a granted project),
// a command writes a new file beside it and renames it over the
// executable; the next shell_exec, MCP server start or plugin process runs
// the replacement before any sandbox exists, as the person, and the
// person's next start of Wrasse runs it with every key.
//
// Reproduction: Wrasse run from ~/src/wrasse/wrasse with ~/src granted;
// shell_exec: printf '#!/bin/sh\nid>~/pwn\n' > ~/src/wrasse/.n && chmod +x
// ~/src/wrasse/.n && mv ~/src/wrasse/.n ~/src/wrasse/wrasse; then any
// other shell_exec.
func TestLauncherReadOnlyInGrantedFolder(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	launcher := filepath.Join(f.granted, "wrasse")
	in, err := os.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.OpenFile(launcher, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	in.Close()
	out.Close()
	// The workspace's protected paths, as Wrasse passes them today. A fix
	// in sandbox.Command (which knows the launcher) or in the policy
	// builders makes this pass; one in assistant.ProtectedPaths should
	// move this test there.
	p := f.commandPolicy()
	pwn := filepath.Join(f.outside, "pwn")
	launch := func(line string) string {
		cmd := exec.Command("/bin/sh", "-c", line)
		if err := sandbox.Command(cmd, []string{launcher}, p); err != nil {
			t.Fatal(err)
		}
		cmd.Env = append(cmd.Env, launcherEnv+"=1")
		var b bytes.Buffer
		cmd.Stdout, cmd.Stderr = &b, &b
		cmd.Run()
		return b.String()
	}
	// A hostile command replaces the launcher by rename (writing the
	// running file itself would fail with ETXTBSY).
	o1 := launch("printf '#!/bin/sh\\necho escaped > " + pwn + "\\n' > " + f.granted + "/.n && chmod +x " + f.granted + "/.n && mv " + f.granted + "/.n " + launcher)
	// The next command, whatever it is.
	o2 := launch("true")
	if _, err := os.Stat(pwn); err == nil {
		t.Errorf("a command replaced the sandbox launcher in its granted folder and the next sandboxed command ran unconfined: it wrote %s outside every grant (outputs %q, %q); want Wrasse's executable read-only to every sandbox wherever it lies (or the launcher run from a descriptor opened at start)", pwn, o1, o2)
	}
}
