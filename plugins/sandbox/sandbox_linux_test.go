package sandbox_test

import (
	"bytes"
	"fmt"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// The test binary doubles as the sandbox launcher (Wrasse's hidden
// __sandbox-exec subcommand): started with launcherEnv set it restricts
// itself and executes the command it was given.
const launcherEnv = "WRASSE_SANDBOX_TEST_LAUNCHER"

// probeEnv makes the test binary a probe run inside the sandbox: it
// connects to the abstract Unix socket the variable names and exits 0 when
// it could.
const probeEnv = "WRASSE_SANDBOX_TEST_PROBE"

func TestMain(m *testing.M) {
	if addr := os.Getenv(probeEnv); addr != "" && (len(os.Args) < 3 || os.Args[2] != "--") {
		c, err := net.Dial("unix", addr)
		if err != nil {
			fmt.Println("probe:", err)
			os.Exit(1)
		}
		c.Close()
		os.Exit(0)
	}
	if os.Getenv(launcherEnv) == "1" {
		os.Exit(sandbox.Main(os.Args[1:], os.Stderr))
	}
	os.Exit(m.Run())
}

// requireLandlock fails (never skips) when the kernel lacks Landlock: the
// sandbox is a promise this project makes, and CI runs on kernels that
// have it.
func requireLandlock(t *testing.T) {
	t.Helper()
	if abi := sandbox.ABI(); abi < 4 {
		t.Fatalf("Landlock ABI %d: the sandbox tests need Landlock ABI 4 or later (Linux 6.7+ with landlock in the LSM list)", abi)
	}
}

type fixture struct {
	ws, granted, outside, temp string
	ln                         net.Listener
}

// protectedOf are workspace ws's protected paths, as Wrasse passes them
// to every sandbox.
func protectedOf(ws string) sandbox.Protected {
	w := workspace.Workspace{Root: ws}
	noAccess, readOnly := w.Protected()
	return sandbox.Protected{NoAccess: noAccess, ReadOnly: readOnly, Runnable: []string{w.Capabilities()}, RepoMemory: w.RepoMemory()}
}

func (f fixture) protected() sandbox.Protected { return protectedOf(f.ws) }

func newFixture(t *testing.T) fixture {
	t.Helper()
	base := t.TempDir()
	f := fixture{ws: filepath.Join(base, "ws"), granted: filepath.Join(base, "granted"),
		outside: filepath.Join(base, "outside"), temp: filepath.Join(base, "tmp")}
	for _, d := range []string{f.ws, f.granted, f.outside, f.temp, filepath.Join(f.ws, "brain", "cerebellum", "x"), filepath.Join(f.ws, "logs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, data := range map[string]string{
		filepath.Join(f.ws, "wrasse.db"):                            "SECRET-KEY",
		filepath.Join(f.ws, "config.json"):                          `{"baseURL":"x"}`,
		filepath.Join(f.ws, "brain", "cerebellum", "x", "SKILL.md"): "skill",
		filepath.Join(f.ws, "brain", "cerebellum", "x", "run.sh"):   "#!/bin/sh\necho ran\n",
		filepath.Join(f.ws, "notes.txt"):                            "notes",
		filepath.Join(f.outside, "o.txt"):                           "outside",
	} {
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(f.ws, "brain", "cerebellum", "x", "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	f.ln = ln
	return f
}

// run runs a shell command line confined to p and returns its combined
// output and whether it exited 0.
func run(t *testing.T, p sandbox.Policy, line string) (string, bool) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/sh", "-c", line)
	if err := sandbox.Command(cmd, []string{exe}, p); err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(os.Environ(), launcherEnv+"=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	return out.String(), err == nil
}

// A real shell command in the command sandbox, with the workspace inside
// the granted folder (the hard case: the grant must be carved around the
// protected paths).
func TestCommandSandbox(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	home := filepath.Dir(f.ws)
	for _, network := range []bool{false, true} {
		p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{home}, Protected: f.protected(), Temp: f.temp, Network: network})
		// outside is beside the workspace, so inside the granted home: grant
		// only the granted folder for the outside case.
		narrow := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Temp: f.temp, Network: network})
		port := strings.TrimPrefix(f.ln.Addr().String(), "127.0.0.1:")
		tests := []struct {
			name string
			p    sandbox.Policy
			line string
			ok   bool
		}{
			{"read /etc/passwd", p, "cat /etc/passwd", false},
			{"read the workspace database", p, "cat " + f.ws + "/wrasse.db", false},
			{"read the database through a relative path", p, "cd " + f.ws + "/brain && cat ../wrasse.db", false},
			{"read config.json", p, "cat " + f.ws + "/config.json", false},
			{"write config.json", p, "echo '{}' > " + f.ws + "/config.json", false},
			{"replace config.json by rename", p, "echo '{}' > " + f.granted + "/c && mv " + f.granted + "/c " + f.ws + "/config.json", false},
			{"write into the logs", p, "echo x >> " + f.ws + "/logs/wrasse.log", false},
			{"write into brain/cerebellum", p, "mkdir " + f.ws + "/brain/cerebellum/evil", false},
			{"overwrite a skill", p, "echo x > " + f.ws + "/brain/cerebellum/x/SKILL.md", false},
			{"read a skill", p, "cat " + f.ws + "/brain/cerebellum/x/SKILL.md", true},
			{"run a skill's script in its folder", p, "cd " + f.ws + "/brain/cerebellum/x && ./run.sh", true},
			{"write beside a skill's script", p, "cd " + f.ws + "/brain/cerebellum/x && ./run.sh > out.txt", false},
			{"read beside the protected paths", p, "cat " + f.ws + "/notes.txt", true},
			{"write beside the protected paths", p, "echo x > " + f.ws + "/notes.txt", false},
			{"write inside the granted folder", narrow, "echo x > " + f.granted + "/new.txt && cat " + f.granted + "/new.txt", true},
			{"write in the temp folder", narrow, "echo x > " + f.temp + "/t && rm " + f.temp + "/t", true},
			{"write outside the granted folder", narrow, "echo x > " + f.outside + "/new.txt", false},
			{"read outside the granted folder", narrow, "cat " + f.outside + "/o.txt", false},
			{"run system programs", narrow, "ls /usr/bin >/dev/null && grep -c . " + f.granted + "/new.txt", true},
			{"TCP connect", narrow, "exec bash -c 'exec 3<>/dev/tcp/127.0.0.1/" + port + "'", network},
		}
		for _, tt := range tests {
			out, ok := run(t, tt.p, tt.line)
			if ok != tt.ok {
				t.Errorf("network=%v, %s: `%s` succeeded=%v, want %v; output: %s", network, tt.name, tt.line, ok, tt.ok, out)
			}
			if strings.Contains(out, "SECRET-KEY") {
				t.Errorf("%s: the database was read: %s", tt.name, out)
			}
		}
	}
}

// Every sandbox asks for Landlock's IPC scopes: a confined command can
// signal no process outside its sandbox (Wrasse itself here: the test
// process is its parent) and reach no abstract Unix socket bound outside
// it, with or without the network. The kernel here offers ABI 6 or later
// (CI's does); on an older one the Status says so instead.
func TestCommandSandboxScopesIPC(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("@wrasse-scope-test-%d", os.Getpid())
	ln, err := net.Listen("unix", name)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	scoped := sandbox.ABI() >= 6
	for _, network := range []bool{false, true} {
		p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Temp: f.temp, Network: network})
		p.Exec = append(p.Exec, filepath.Dir(exe))
		if st := sandbox.Expect(network); st.Scoped != scoped || (len(st.Gaps()) > 0) == scoped {
			t.Errorf("network=%v: Expect = %+v, gaps %q", network, st, st.Gaps())
		}
		if out, ok := run(t, p, "kill -0 $PPID"); ok == scoped {
			t.Errorf("network=%v: signalling the unconfined parent succeeded=%v with ABI %d: %s", network, ok, sandbox.ABI(), out)
		}
		if out, ok := run(t, p, "kill -0 $$ && sleep 0 & kill -0 $!"); !ok {
			t.Errorf("network=%v: signalling its own processes failed: %s", network, out)
		}
		if out, ok := run(t, p, probeEnv+"="+name+" "+exe); ok == scoped {
			t.Errorf("network=%v: connecting to an abstract socket outside succeeded=%v: %s", network, ok, out)
		}
	}
	// The probe works at all: unconfined, it connects.
	probe := exec.Command(exe)
	probe.Env = append(os.Environ(), probeEnv+"="+name)
	if out, err := probe.CombinedOutput(); err != nil {
		t.Fatalf("the unconfined probe failed: %v %s", err, out)
	}
}

func TestRulesCarveAroundProtectedPaths(t *testing.T) {
	f := newFixture(t)
	p := sandbox.Policy{ReadWrite: []string{filepath.Dir(f.ws)}, NoAccess: []string{filepath.Join(f.ws, "wrasse.db")},
		ReadOnly: []string{filepath.Join(f.ws, "brain", "cerebellum")}}
	got := map[string]sandbox.Access{}
	for _, r := range sandbox.Rules(p) {
		got[r.Path] = r.Access
	}
	ws := sandbox.Clean(f.ws)
	want := map[string]sandbox.Access{
		sandbox.Clean(filepath.Dir(f.ws)):        sandbox.List,
		ws:                                       sandbox.List,
		filepath.Join(ws, "brain"):               sandbox.List,
		filepath.Join(ws, "brain", "cerebellum"): sandbox.Read,
		filepath.Join(ws, "notes.txt"):           sandbox.ReadWrite,
		filepath.Join(ws, "config.json"):         sandbox.ReadWrite,
		filepath.Join(ws, "logs"):                sandbox.ReadWrite,
		sandbox.Clean(f.granted):                 sandbox.ReadWrite,
		sandbox.Clean(f.outside):                 sandbox.ReadWrite,
		sandbox.Clean(f.temp):                    sandbox.ReadWrite,
	}
	for path, acc := range want {
		if got[path] != acc {
			t.Errorf("%s: access %v, want %v", path, got[path], acc)
		}
	}
	if _, ok := got[filepath.Join(ws, "wrasse.db")]; ok {
		t.Errorf("the protected database got a rule: %v", got)
	}
}

// commandPolicy is a shell command's policy granted f.granted alone.
func (f fixture) commandPolicy() sandbox.Policy {
	return sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Temp: f.temp})
}

// plantScript writes a script in the grant, where a command can name it
// in a repository's settings, that makes marker outside the grants: the
// marker's existence says the person's git ran it unconfined.
func plantScript(t *testing.T, f fixture) (marker, script string) {
	t.Helper()
	marker = filepath.Join(f.outside, "ran-unconfined")
	script = filepath.Join(f.granted, "planted.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return marker, script
}
