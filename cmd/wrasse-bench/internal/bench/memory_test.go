package bench

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/captest"
)

// TestMain lets this test binary serve as a measuring child, as the
// wrasse-bench binary does.
func TestMain(m *testing.M) {
	if os.Getenv(ChildEnv) != "" {
		if err := RunChild(context.Background(), os.Args[1:], os.Stdout); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestChildren(t *testing.T) {
	ctx := t.Context()
	child := childRunner(SelfChild(os.Args[0]))
	tmp := t.TempDir()
	ws, err := writeWorkspace(filepath.Join(tmp, "ws"), captest.Generate(30, 3, 1))
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(tmp, "history.db")
	if err := writeHistory(db, 41); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args   []string
		detail string
	}{
		{[]string{ChildIdle}, ""},
		{[]string{ChildRegistry, ws}, "tools"},
		{[]string{ChildHistory, db}, "41 events"},
	} {
		rep, err := runChild(ctx, child, c.args...)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if !strings.Contains(rep.Detail, c.detail) {
			t.Errorf("%v: detail %q lacks %q", c.args, rep.Detail, c.detail)
		}
		if runtime.GOOS == "linux" && rep.VmHWMKB <= 0 {
			t.Errorf("%v: VmHWM %d", c.args, rep.VmHWMKB)
		}
	}
	for _, args := range [][]string{{"mem-nonsense"}, {ChildRegistry}, {ChildHistory, filepath.Join(tmp, "missing.db")}} {
		if _, err := runChild(ctx, child, args...); !errors.Is(err, ErrChild) {
			t.Errorf("%v: %v, want ErrChild", args, err)
		}
	}
}

func TestRunChildUsage(t *testing.T) {
	var out bytes.Buffer
	for _, args := range [][]string{nil, {"mem-idle", "extra"}, {"what"}} {
		if err := RunChild(t.Context(), args, &out); !errors.Is(err, ErrUsage) {
			t.Errorf("%v: %v", args, err)
		}
	}
	if out.Len() != 0 {
		t.Errorf("printed %q on usage errors", out.String())
	}
}

func TestLastLine(t *testing.T) {
	for in, want := range map[string]string{"a\nb\n": "b", "only": "only", "x\n\n{\"v\":1}\n\n": `{"v":1}`} {
		if got := string(lastLine([]byte(in))); got != want {
			t.Errorf("lastLine(%q) = %q, want %q", in, got, want)
		}
	}
}
