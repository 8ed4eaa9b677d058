//go:build unix

package attach

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
)

// A named pipe is refused without opening it: opening one waits for a
// writer, which would hang the read for good.
func TestReadRefusesPipe(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	if _, err := Read(p); !errors.Is(err, ErrUnreadable) {
		t.Fatalf("Read(pipe) = %v; want ErrUnreadable", err)
	}
}
