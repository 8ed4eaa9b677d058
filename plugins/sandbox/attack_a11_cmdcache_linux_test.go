package sandbox_test

import (
	"archive/zip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// a11: every shell command, in every conversation and whatever it was
// granted, shares one writable cache home (CommandCache), and the tools
// pointed at it trust what they find there without checking it again:
// Go builds from the extracted module sources in GOMODCACHE (go.sum is
// checked when a module is downloaded, not when it is built), pre-commit
// runs the hook environments in PRE_COMMIT_HOME, Gradle and Maven load
// the plugin jars in theirs. So a hostile command (granted a scratch
// folder only) rewrites a module's source there, and the next `go build`
// any other command runs for the person (granted their project) links it
// into the program it writes into the project, which the person then runs
// outside any sandbox. The home folder rule made the person's own caches
// read-only for exactly this reason; the commands' shared cache reopens
// it between commands.
//
// Reproduction: command 1 (conversation A, scratch folder):
// echo 'func init(){ /* payload */ }' >> $GOMODCACHE/example.com/m@v1.0.0/m.go;
// command 2 (conversation B, ~/projects/app): go build -o app .; the person runs ./app.
func TestA11CommandsShareATrustedBuildCache(t *testing.T) {
	requireLandlock(t)
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("this test builds with the real go command: %v", err)
	}
	goBin, _ = filepath.EvalSymlinks(goBin)
	home := homeWith(t, map[string]string{
		"projects/app/go.mod":  "module example.com/app\n\ngo 1.21\n\nrequire example.com/m v1.0.0\n",
		"projects/app/main.go": "package main\n\nimport \"example.com/m\"\n\nfunc main() { println(m.Hello()) }\n",
		"scratch/.keep":        "",
	})
	// A module proxy on disk the project's command downloads from (as it
	// would from proxy.golang.org).
	proxy := filepath.Join(home, "projects/app/.proxy/example.com/m/@v")
	if err := os.MkdirAll(proxy, 0o755); err != nil {
		t.Fatal(err)
	}
	const mod = "module example.com/m\n\ngo 1.21\n"
	for name, data := range map[string]string{"list": "v1.0.0\n", "v1.0.0.info": `{"Version":"v1.0.0"}`, "v1.0.0.mod": mod} {
		if err := os.WriteFile(filepath.Join(proxy, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	zf, err := os.Create(filepath.Join(proxy, "v1.0.0.zip"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(zf)
	for name, data := range map[string]string{"go.mod": mod, "m.go": "package m\n\nfunc Hello() string { return \"hello\" }\n"} {
		w, err := zw.Create("example.com/m@v1.0.0/" + name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(data))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	zf.Close()
	cache := sandbox.CommandCache(home)
	if err := os.MkdirAll(cache, 0o700); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	project, scratch := filepath.Join(home, "projects/app"), filepath.Join(home, "scratch")
	env := "export TMPDIR=" + f.temp + " PATH=" + filepath.Dir(goBin) + ":/usr/bin:/bin HOME=" + home + " GOTOOLCHAIN=local GOSUMDB=off GOFLAGS=-mod=mod GOPROXY=file://" +
		filepath.Join(project, ".proxy") + " " + strings.Join(sandbox.CommandCacheEnv(cache), " ") + "; "
	command := func(root string) sandbox.Policy {
		p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{root}, Protected: f.protected(), Home: home, Temp: f.temp})
		p.Exec = append(p.Exec, filepath.Dir(filepath.Dir(goBin)))
		return p
	}
	// The person's project is built once (the module lands in the cache).
	if out, ok := run(t, command(project), env+"cd "+project+" && go build -o app . && ./app"); !ok || !strings.Contains(out, "hello") {
		t.Fatalf("the first build failed: %s", out)
	}
	// A hostile command elsewhere, granted only a scratch folder.
	src := filepath.Join(cache, "go-mod/example.com/m@v1.0.0/m.go")
	if out, ok := run(t, command(scratch), "chmod u+w "+filepath.Dir(src)+" "+src+" && printf 'package m\\n\\nfunc Hello() string { return \"PWNED-A11\" }\\n' > "+src); !ok {
		t.Logf("the hostile command could not rewrite the shared module cache: %s", out)
	}
	// Another command builds the person's project again.
	if out, ok := run(t, command(project), env+"cd "+project+" && go build -o app ."); !ok {
		t.Fatalf("the second build failed: %s", out)
	}
	// The person runs their program, outside any sandbox.
	out, _ := exec.Command(filepath.Join(project, "app")).CombinedOutput()
	if strings.Contains(string(out), "PWNED-A11") {
		t.Errorf("a command granted only %s rewrote a module in the commands' shared cache, and the next command's build of the person's project linked it: the person's ./app printed %q; want each command's cache writes unable to reach another command's builds (a cache per grant or conversation, or sources checked against go.sum at build)", scratch, out)
	}
}
