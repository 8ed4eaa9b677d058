//go:build unix

package sdk

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A pipe is refused at once, not waited on.
func TestOpenArgRefusesPipes(t *testing.T) {
	fx := newFixture(t)
	if err := syscall.Mkfifo(filepath.Join(fx.home, "pipe"), 0o600); err != nil {
		t.Skip(err)
	}
	if _, err := readArg(fx.env, "pipe"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("pipe: %v", err)
	}
}

// A link to a credential-named file is refused at open time: the gate
// asks every time for a path that names one, but checks a link before the
// tool opens it (TestLinkFlippedBetweenGateAndOpen in brain/cerebellum).
func TestOpenArgRefusesLinkToCredentialFile(t *testing.T) {
	fx := newFixture(t)
	for _, f := range []string{".env", "prod.env", ".ENVRC"} {
		if err := os.WriteFile(filepath.Join(fx.home, "notes", f), []byte("KEY=x\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ link, target string }{{"n1", ".env"}, {"n2", "prod.env"}, {"n3", ".ENVRC"}, {"ok", "todo.txt"}} {
		if err := os.Symlink(c.target, filepath.Join(fx.home, "notes", c.link)); err != nil {
			t.Skip(err)
		}
	}
	for _, c := range []struct {
		arg     string
		refused bool
	}{
		{"notes/n1", true}, {"notes/n2", true}, {"notes/n3", true},
		{"notes/ok", false}, {"notes/.env", false}, {"notes/prod.env", false},
	} {
		_, err := readArg(fx.env, filepath.Join(fx.home, c.arg))
		if got := err != nil && strings.Contains(err.Error(), "keys or passwords"); got != c.refused {
			t.Errorf("%s: err %v, want refused=%v", c.arg, err, c.refused)
		}
	}
}
