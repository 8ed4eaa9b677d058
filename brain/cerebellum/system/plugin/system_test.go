package system

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func manifest(t *testing.T) *skillmd.Manifest {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := skillmd.Parse(data, skillmd.Options{Folder: "system"})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// fakeRun records calls and answers from a table keyed by program name.
type fakeRun struct {
	calls   []string
	answers map[string]string
	fail    map[string]error
}

func (f *fakeRun) run(ctx context.Context, name string, args []string) ([]byte, error) {
	f.calls = append(f.calls, name+" "+strings.Join(args, " "))
	if err := f.fail[name]; err != nil {
		return nil, err
	}
	return []byte(f.answers[name]), nil
}

func newSys(t *testing.T, goos string, fr *fakeRun) (*sys, string) {
	t.Helper()
	dir := t.TempDir()
	// As the app lays it out: the workspace inside the granted folder.
	ws := filepath.Join(dir, "ws")
	if err := os.Mkdir(ws, 0o700); err != nil {
		t.Fatal(err)
	}
	s := &sys{
		env:  &sdk.Env{Name: "system", Roots: []string{dir, ws}, Workspace: ws, Settings: map[string]string{"locale": "de_CH.UTF-8"}},
		now:  func() time.Time { return time.Date(2025, 3, 9, 14, 30, 5, 0, time.FixedZone("CET", 3600)) },
		goos: goos,
		run:  fr.run,
	}
	return s, dir
}

// allowHosts is the context of a call whose conversation may reach any
// host.
var allowHosts = sdk.WithHostCheck(context.Background(), func(context.Context, string) error { return nil })

func call(t *testing.T, h sdk.Handler, args map[string]any) (string, error) {
	t.Helper()
	return callCtx(t, allowHosts, h, args)
}

func callCtx(t *testing.T, ctx context.Context, h sdk.Handler, args map[string]any) (string, error) {
	t.Helper()
	raw, _ := json.Marshal(args)
	req, err := sdk.NewRequest("x", raw)
	if err != nil {
		t.Fatal(err)
	}
	res, err := h(ctx, req)
	if err != nil {
		var te *sdk.ToolError
		if !errors.As(err, &te) {
			t.Errorf("error is not a *sdk.ToolError: %v", err)
		}
		return "", err
	}
	return res.Text, nil
}

func TestInitRegistersDeclaredTools(t *testing.T) {
	p, err := Init(&sdk.Env{Name: "system"})
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	for _, tool := range manifest(t).Tools {
		declared = append(declared, tool.Name)
	}
	if got, want := strings.Join(p.ToolNames(), ","), "disk_space,system_info,system_open"; got != want {
		t.Fatalf("registered %s, want %s", got, want)
	}
	if len(declared) != 3 {
		t.Fatalf("declared %v", declared)
	}
	for _, n := range declared {
		if p.Handler(n) == nil {
			t.Errorf("declared tool %s has no handler", n)
		}
	}
}

func TestInfo(t *testing.T) {
	fr := &fakeRun{answers: map[string]string{"sw_vers": "15.3.1\n", "sysctl": "17179869184\n"}}
	s, dir := newSys(t, "darwin", fr)
	out, err := call(t, s.info, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"os: darwin macOS 15.3.1\n", "memory: 16.0 GiB total\n", "time: 2025-03-09 14:30:05 Sunday\n",
		"time zone: CET (UTC+01:00)\n", "iso time: 2025-03-09T14:30:05+01:00\n", "locale: de_CH.UTF-8\n",
		"workspace: " + dir, "granted folders: " + dir, "arch: " + runtime.GOARCH,
	} {
		if !strings.Contains(out, w) {
			t.Errorf("info lacks %q:\n%s", w, out)
		}
	}
	if !regexp.MustCompile(`(?m)^cpus: [1-9][0-9]*$`).MatchString(out) {
		t.Errorf("no cpu count:\n%s", out)
	}
	s.env.Settings = nil
	s.run = (&fakeRun{fail: map[string]error{"sw_vers": errors.New("no"), "sysctl": errors.New("no")}}).run
	out, err = call(t, s.info, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "locale: unknown") || strings.Contains(out, "memory:") {
		t.Errorf("fallbacks wrong:\n%s", out)
	}
}

func TestInfoNative(t *testing.T) {
	p, err := Init(&sdk.Env{Name: "system"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := call(t, p.Handler("system_info"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "os: "+runtime.GOOS) || !strings.Contains(out, "iso time: ") {
		t.Errorf("info:\n%s", out)
	}
}

func TestParsers(t *testing.T) {
	rel := osRelease("NAME=\"Debian GNU/Linux\"\nVERSION=\"12 (bookworm)\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n")
	if rel != "(Debian GNU/Linux 12 (bookworm))" {
		t.Errorf("osRelease = %q", rel)
	}
	if rel := osRelease("NAME=Alpine\nVERSION=3.19\n"); rel != "(Alpine 3.19)" {
		t.Errorf("osRelease = %q", rel)
	}
	if got := memInfo("MemTotal:       16318480 kB\nMemFree: 1 kB\nMemAvailable:    8159240 kB\n"); got != "15.6 GiB total, 7.8 GiB available" {
		t.Errorf("memInfo = %q", got)
	}
	if got := memInfo("garbage"); got != "" {
		t.Errorf("memInfo(garbage) = %q", got)
	}
	tests := []struct {
		out     string
		want    diskUsage
		wantErr bool
	}{
		{out: "Filesystem     1024-blocks      Used Available Capacity Mounted on\n/dev/sda1        102400000  51200000  51200000      50% /\n",
			want: diskUsage{Filesystem: "/dev/sda1", Mount: "/", Total: 102400000 * 1024, Used: 51200000 * 1024, Free: 51200000 * 1024}},
		{out: "Filesystem 1024-blocks Used Available Capacity Mounted on\nmy disk 100 40 60 40% /Volumes/My Disk\n",
			want: diskUsage{Filesystem: "my disk", Mount: "/Volumes/My Disk", Total: 102400, Used: 40960, Free: 61440}},
		{out: "Filesystem 1024-blocks Used Available Capacity Mounted on\n", wantErr: true},
		{out: "", wantErr: true},
		{out: "Filesystem 1024-blocks Used Available Capacity Mounted on\nx a b c 40% /\n", wantErr: true},
	}
	for _, tc := range tests {
		got, err := parseDF(tc.out)
		if (err != nil) != tc.wantErr || (!tc.wantErr && got != tc.want) {
			t.Errorf("parseDF(%q) = %+v, %v; want %+v", tc.out, got, err, tc.want)
		}
	}
	if u, err := parsePSDrive("300 700\r\n"); err != nil || u.Total != 1000 || u.Free != 700 {
		t.Errorf("parsePSDrive = %+v, %v", u, err)
	}
	if _, err := parsePSDrive("oops"); err == nil {
		t.Error("parsePSDrive(oops): want an error")
	}
	if got := humanBytes(1536); got != "1.5 KiB" {
		t.Errorf("humanBytes = %q", got)
	}
	if got := formatOffset(-(5*3600 + 30*60)); got != "-05:30" {
		t.Errorf("formatOffset = %q", got)
	}
}

func TestDiskSpace(t *testing.T) {
	fr := &fakeRun{answers: map[string]string{"df": "Filesystem 1024-blocks Used Available Capacity Mounted on\n/dev/x 1048576 262144 786432 25% /data\n"}}
	s, dir := newSys(t, "linux", fr)
	out, err := call(t, s.disk, map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"file system: /dev/x mounted on /data", "total: 1.0 GiB", "used: 256.0 MiB (25%)", "free: 768.0 MiB"} {
		if !strings.Contains(out, w) {
			t.Errorf("disk lacks %q:\n%s", w, out)
		}
	}
	// Without a path: the disk of the workspace.
	if len(fr.calls) != 1 || fr.calls[0] != "df -Pk "+filepath.Join(dir, "ws") {
		t.Errorf("calls = %v", fr.calls)
	}
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"path": "/"}, "outside the folders"},
		{map[string]any{"path": "missing"}, "does not exist"},
	} {
		if _, err := call(t, s.disk, tc.args); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error = %v, want %q", tc.args, err, tc.want)
		}
	}
	s.run = (&fakeRun{answers: map[string]string{"df": "garbage"}}).run
	if _, err := call(t, s.disk, map[string]any{}); err == nil || !strings.Contains(err.Error(), "unexpected df output") {
		t.Errorf("error = %v", err)
	}
}

func TestDiskSpaceReal(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs df")
	}
	dir := t.TempDir()
	p, _ := Init(&sdk.Env{Name: "system", Roots: []string{dir}, Workspace: dir})
	out, err := call(t, p.Handler("disk_space"), map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "total: ") || !strings.Contains(out, "free: ") {
		t.Errorf("disk:\n%s", out)
	}
}

func TestOpen(t *testing.T) {
	fr := &fakeRun{}
	s, dir := newSys(t, "linux", fr)
	if err := os.WriteFile(filepath.Join(dir, "report.pdf"), []byte("%PDF"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		target  string
		call    string
		errWant string
	}{
		{target: "https://example.com/a?b=1&c=2", call: "xdg-open https://example.com/a?b=1&c=2"},
		{target: "mailto:me@example.com", call: "xdg-open mailto:me@example.com"},
		{target: "report.pdf", call: "xdg-open " + filepath.Join(dir, "report.pdf")},
		{target: dir, call: "xdg-open " + dir},
		{target: "", errWant: "target is empty"},
		{target: "javascript:alert(1)", errWant: "only http, https and mailto"},
		{target: "file:///etc/passwd", errWant: "only http, https and mailto"},
		{target: "https://", errWant: "has no host"},
		{target: "missing.pdf", errWant: "does not exist"},
		{target: "/etc/passwd", errWant: "outside the folders"},
	}
	for _, tc := range tests {
		fr.calls = nil
		_, err := call(t, s.open, map[string]any{"target": tc.target})
		if tc.errWant != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errWant) {
				t.Errorf("%q: error = %v, want %q", tc.target, err, tc.errWant)
			}
			if len(fr.calls) != 0 {
				t.Errorf("%q: opener ran although the target was refused", tc.target)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.target, err)
			continue
		}
		if len(fr.calls) != 1 || fr.calls[0] != tc.call {
			t.Errorf("%q: calls = %v, want %q", tc.target, fr.calls, tc.call)
		}
	}
	s.run = (&fakeRun{fail: map[string]error{"xdg-open": errors.New("exit status 3")}}).run
	if _, err := call(t, s.open, map[string]any{"target": "https://example.com"}); err == nil || !strings.Contains(err.Error(), "could not open") {
		t.Errorf("error = %v", err)
	}
}

// An http(s) address is opened only when the conversation may reach its
// host (sdk.CheckHost), which is asked with the full URL; a refusal, or
// no one to answer for the call, opens nothing.
func TestOpenChecksTheHost(t *testing.T) {
	fr := &fakeRun{}
	s, _ := newSys(t, "linux", fr)
	const target = "https://x.example/collect?d=private"
	var asked []string
	refuse := sdk.WithHostCheck(context.Background(), func(_ context.Context, u string) error {
		asked = append(asked, u)
		return fmt.Errorf("%w: the user did not allow x.example", sdk.ErrHostNotAllowed)
	})
	for name, ctx := range map[string]context.Context{"refused": refuse, "no check": context.Background()} {
		fr.calls = nil
		if _, err := callCtx(t, ctx, s.open, map[string]any{"target": target}); err == nil || !strings.Contains(err.Error(), "did not open") {
			t.Errorf("%s: error = %v", name, err)
		}
		if len(fr.calls) != 0 {
			t.Errorf("%s: the opener ran: %v", name, fr.calls)
		}
	}
	if len(asked) != 1 || asked[0] != target {
		t.Errorf("the check was asked about %q, want the full URL", asked)
	}
	fr.calls = nil
	if _, err := call(t, s.open, map[string]any{"target": "mailto:me@example.com"}); err != nil || len(fr.calls) != 1 {
		t.Errorf("mailto: %v %v (no host to reach)", err, fr.calls)
	}
}

func TestOpenCommand(t *testing.T) {
	for goos, want := range map[string]string{
		"darwin":  "open [x]",
		"windows": "rundll32 [url.dll,FileProtocolHandler x]",
		"linux":   "xdg-open [x]",
		"freebsd": "xdg-open [x]",
	} {
		name, args := openCommand(goos, "x")
		if got := name + " [" + strings.Join(args, " ") + "]"; got != want {
			t.Errorf("%s: %s, want %s", goos, got, want)
		}
	}
}

func TestConfirmPatterns(t *testing.T) {
	m := manifest(t)
	tests := []struct {
		line string
		want bool
	}{
		{`system_open {"target":"/home/me/install.sh"}`, true},
		{`system_open {"target":"C:\\Users\\me\\setup.exe"}`, true},
		{`system_open {"target":"/Applications/Calculator.app"}`, true},
		{`system_open {"target":"/Applications/Calculator.app/"}`, true},
		{`system_open {"target":"/home/me/run.BAT"}`, true},
		{`system_open {"target":"https://example.com/setup.exe"}`, true},
		{`system_open {"target":"/home/me/report.pdf"}`, false},
		{`system_open {"target":"https://example.com/"}`, false},
		{`system_open {"target":"/home/me/notes.shtml"}`, false},
		{`system_open {"target":"/home/me/scripts"}`, false},
		{`system_open {"target":"https://myproject.app"}`, false},
		{`system_open {"target":"https://myproject.app/"}`, false},
		{`system_open {"target":"https://example.com"}`, false},
		{`system_open {"target":"setup.exe"}`, true},
		{`disk_space {"path":"/x.sh"}`, false},
	}
	for _, tc := range tests {
		got := false
		for _, p := range m.ConfirmPatterns {
			if p.Re.MatchString(tc.line) {
				got = true
			}
		}
		if got != tc.want {
			t.Errorf("%s: confirm = %v, want %v", tc.line, got, tc.want)
		}
	}
}

// Reproduction: system_open checked a path and handed the opener the path
// as given, which a link flipped meanwhile could point at Wrasse's own
// files. The opener gets the real path of what was checked: no links in
// it, never the workspace's protected files.
func TestOpenHandsTheRealPath(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	fr := &fakeRun{}
	s, dir := newSys(t, "linux", fr)
	ws := filepath.Join(dir, "ws")
	s.env.NoAccess = []string{filepath.Join(ws, "config.json")}
	decoy := filepath.Join(dir, "decoy")
	os.Mkdir(decoy, 0o755)
	for _, d := range []string{decoy, ws} {
		if err := os.WriteFile(filepath.Join(d, "config.json"), []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	flip := filepath.Join(dir, "flip")
	if err := os.Symlink(decoy, flip); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			default:
			}
			target := decoy
			if i%2 == 1 {
				target = ws
			}
			os.Remove(flip + ".next")
			if os.Symlink(target, flip+".next") == nil {
				os.Rename(flip+".next", flip)
			}
		}
	}()
	for range 300 {
		call(t, s.open, map[string]any{"target": filepath.Join(flip, "config.json")})
	}
	close(done)
	<-stopped
	if len(fr.calls) == 0 {
		t.Fatal("the opener never ran")
	}
	for _, c := range fr.calls {
		if c != "xdg-open "+filepath.Join(decoy, "config.json") {
			t.Fatalf("the opener was handed %q", c)
		}
	}
}
