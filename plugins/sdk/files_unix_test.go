//go:build unix

package sdk

import (
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
