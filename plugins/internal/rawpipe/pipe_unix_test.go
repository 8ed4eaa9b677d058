//go:build unix

package rawpipe

import (
	"syscall"
	"testing"
)

func TestPipeIsCloseOnExecAndCarriesBytes(t *testing.T) {
	r, w, err := Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(r)
	defer syscall.Close(w)
	for _, fd := range []int{r, w} {
		flags, err := fcntl(fd, syscall.F_GETFD)
		if err != nil {
			t.Fatal(err)
		}
		if flags&syscall.FD_CLOEXEC == 0 {
			t.Errorf("fd %d is not close-on-exec", fd)
		}
	}
	if _, err := syscall.Write(w, []byte("hi")); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 2)
	if n, err := syscall.Read(r, b); err != nil || string(b[:n]) != "hi" {
		t.Fatalf("read %q, %v; want \"hi\"", b[:n], err)
	}
}

func fcntl(fd, cmd int) (int, error) {
	v, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), uintptr(cmd), 0)
	if e != 0 {
		return 0, e
	}
	return int(v), nil
}
