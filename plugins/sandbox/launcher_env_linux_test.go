package sandbox_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// the launcher (Wrasse's executable, linked dynamically: Fyne
// needs cgo) confines itself only once main runs, and sandbox.Command
// hands it the command's environment as it is (LauncherEnv changes only
// the locale). The dynamic linker obeys LD_PRELOAD, LD_LIBRARY_PATH and
// LD_AUDIT before main: a library they name runs as the person, with no
// Landlock, no filter and every capability. An MCP server's manifest sets
// its environment (env:), which reaches cmd.Env (plugins/mcp/server.go),
// so a capability that ships lib/x.so and `env: {LD_PRELOAD: ./lib/x.so}`
// runs unconfined; so does a library a sandboxed command wrote into a
// granted folder a later server's LD_LIBRARY_PATH names. Read-only
// launcher or not, nothing checks what the linker loads into it.
//
// Reproduction: an MCP capability with command: node, env: {LD_PRELOAD:
// /home/me/projects/x.so} (x.so's constructor writes ~/.bashrc); enable
// it: ~/.bashrc changes although the server's sandbox keeps it read-only.
func TestLauncherHoldsLoaderVariables(t *testing.T) {
	requireLandlock(t)
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("needs gcc to build the preloaded library")
	}
	f := newFixture(t)
	pwn := filepath.Join(f.outside, "pwn")
	src := filepath.Join(f.granted, "x.c")
	so := filepath.Join(f.granted, "x.so")
	c := "#include <stdio.h>\n__attribute__((constructor)) static void init(void) { FILE *f = fopen(\"" + pwn +
		"\", \"a\"); if (f) { fputs(\"escaped\\n\", f); fclose(f); } }\n"
	if err := os.WriteFile(src, []byte(c), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("gcc", "-shared", "-fPIC", "-o", so, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v: %s", err, out)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{f.granted}, Protected: f.protected(), Program: "/bin/true", Temp: f.temp})
	cmd := exec.Command("/bin/true")
	cmd.Env = append(os.Environ(), launcherEnv+"=1", "LD_PRELOAD="+so)
	if err := sandbox.Command(cmd, []string{exe}, p); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	cmd.Run()
	if _, err := os.Stat(pwn); err == nil {
		t.Errorf("a library named by LD_PRELOAD in a sandboxed program's environment ran in the launcher before it confined itself and wrote %s outside every grant (output %q): want the dynamic linker's variables (LD_*) taken out of the launcher's environment and handed to the program only after Restrict (as the locale is), or the launcher linked statically", pwn, b.String())
	}
}
