package sandbox_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Commands see only their own /proc entries and the system's sizes
// (systemInfo), not all of /proc: the tools commands run every day must
// keep working without the rest. Each case needs its tool installed.
func TestCommandProcKeepsCommonTools(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	project := filepath.Join(f.granted, "app")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"go.mod":  "module example.com/app\n\ngo 1.21\n",
		"main.go": "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\t\"runtime\"\n)\n\nfunc main() { exe, _ := os.Executable(); fmt.Println(runtime.NumCPU() > 0, exe != \"\") }\n",
	} {
		if err := os.WriteFile(filepath.Join(project, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := f.commandPolicy()
	env := "HOME=" + f.temp + " TMPDIR=" + f.temp + " "
	for _, tc := range []struct{ tool, line, want string }{
		{"/usr/bin/python3", "python3 -c 'import os, multiprocessing, subprocess; print(os.cpu_count() > 0, subprocess.run([\"true\"]).returncode)'", "True 0"},
		{"/usr/bin/node", "node -e 'console.log(require(\"os\").cpus().length > 0, process.execPath !== \"\")'", "true true"},
		{"/usr/local/go/bin/go", "GOCACHE=" + f.temp + "/gocache GOPATH=" + f.temp + "/gopath GOTOOLCHAIN=local GOFLAGS=-mod=mod /usr/local/go/bin/go build -o app . && ./app", "true true"},
		{"/usr/bin/git", "git init -q . && git add main.go && git -c user.name=t -c user.email=t@example.com commit -qm first && git log --oneline | wc -l", "1"},
	} {
		t.Run(filepath.Base(tc.tool), func(t *testing.T) {
			if _, err := exec.LookPath(tc.tool); err != nil {
				t.Skipf("%s not installed", tc.tool)
			}
			out, ok := run(t, p, "cd "+project+" && export "+env+" && "+tc.line)
			if !ok || !strings.Contains(out, tc.want) {
				t.Errorf("%s in a command sandbox (own /proc entries only): ok=%v, output %q; want %q", filepath.Base(tc.tool), ok, out, tc.want)
			}
		})
	}
}

// Issue 21 (attack a11): docs/plugins.md: "A sandboxed process sees its own processes'
// /proc entries only". Commands get /proc read-only, and Landlock only
// guards what ptrace guards (environ, maps, fd): every other process's
// cmdline, cwd-free status and the like stay readable, so a command reads
// the secrets the person's programs carry on their command lines
// (`mysql -pSECRET`, `curl -H 'Authorization: Bearer …'`, `sshpass -p`)
// and lists everything the person runs.
//
// Reproduction: shell_exec `cat /proc/*/cmdline | tr '\0' ' '`
func TestCommandProcHidesOtherProcesses(t *testing.T) {
	requireLandlock(t)
	outside := exec.Command("/bin/sh", "-c", "read x", "mysql-pA11SECRET")
	stdin, err := outside.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := outside.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); outside.Wait() })
	f := newFixture(t)
	p := f.commandPolicy()
	line := fmt.Sprintf("tr '\\0' ' ' < /proc/%d/cmdline", outside.Process.Pid)
	if out, _ := run(t, p, line); strings.Contains(out, "A11SECRET") {
		t.Errorf("a shell command read another process's command line: %q; want only its own processes' /proc entries, as docs/plugins.md says (hidepid, or /proc/self and /proc/thread-self only)", out)
	}
}
