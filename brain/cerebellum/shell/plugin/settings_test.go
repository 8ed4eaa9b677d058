package shell

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func TestTimeoutSetting(t *testing.T) {
	cases := map[string]int{"": defaultTimeout, "bad": defaultTimeout, "0s": defaultTimeout, "-5s": defaultTimeout,
		"1m0s": 60, "1500ms": 2, "2m0s": 120, "1h0m0s": maxTimeout}
	for in, want := range cases {
		if got := timeoutSetting(in); got != want {
			t.Errorf("timeoutSetting(%q) = %d; want %d", in, got, want)
		}
	}
}

// The workdir setting is where a command runs when the call names no cwd.
func TestWorkdirSetting(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses pwd")
	}
	root := t.TempDir()
	sub := filepath.Join(root, "project")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := Init(&sdk.Env{Name: "shell", Roots: []string{root}, Workspace: root,
		Settings: map[string]string{"workdir": sub, "timeout": "30s"}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := call(context.Background(), t, p, "shell_exec", map[string]any{"command": "pwd"})
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(sub)
	if !strings.Contains(out, sub) && !strings.Contains(out, real) {
		t.Errorf("pwd = %q; want %s", out, sub)
	}
	// An explicit cwd still wins.
	out, err = call(context.Background(), t, p, "shell_exec", map[string]any{"command": "pwd", "cwd": root})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "project") {
		t.Errorf("cwd given, but pwd = %q", out)
	}
}
