package childproc

import (
	"errors"
	"io"
	"os"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

// rawFile reads and writes a non-blocking pipe that the runtime's poller
// serves, with raw system calls: they never block (the poller waits, with
// the file's deadlines), so they need not tell the scheduler, and the
// scheduler's entry into a system call wakes the runtime's monitor
// thread whenever the process was idle, which between two messages it
// is: two more thread wake-ups per message in each process (the monitor
// then polls every 20 µs until it sees the process idle again).
type rawFile struct {
	f  *os.File
	rc syscall.RawConn
	// closed is set by Close: RawConn reports the use of a closed file
	// as internal/poll's own error, which *os.File turns into
	// os.ErrClosed and this does too.
	closed atomic.Bool
}

// closedErr is err as *os.File reports it: os.ErrClosed once r is closed.
func (r *rawFile) closedErr(op string, err error) error {
	if r.closed.Load() && !errors.Is(err, os.ErrDeadlineExceeded) {
		return &os.PathError{Op: op, Path: r.f.Name(), Err: os.ErrClosed}
	}
	return err
}

// fastFile returns f (non-blocking, served by the poller) as a rawFile.
func fastFile(f *os.File) FileIO {
	rc, err := f.SyscallConn()
	if err != nil {
		return f
	}
	return &rawFile{f: f, rc: rc}
}

func (r *rawFile) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := r.rc.Read(func(fd uintptr) bool {
		for {
			m, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
			if e == syscall.EINTR {
				continue
			}
			n, errno = int(m), e
			return e != syscall.EAGAIN
		}
	})
	switch {
	case err != nil:
		return 0, r.closedErr("read", err)
	case errno != 0:
		return 0, &os.PathError{Op: "read", Path: r.f.Name(), Err: errno}
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

func (r *rawFile) Write(p []byte) (int, error) {
	done := 0
	var errno syscall.Errno
	err := r.rc.Write(func(fd uintptr) bool {
		for done < len(p) {
			m, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[done])), uintptr(len(p)-done))
			switch e {
			case 0:
				done += int(m)
			case syscall.EINTR:
			case syscall.EAGAIN:
				return false
			default:
				errno = e
				return true
			}
		}
		return true
	})
	switch {
	case err != nil:
		return done, r.closedErr("write", err)
	case errno != 0:
		return done, &os.PathError{Op: "write", Path: r.f.Name(), Err: errno}
	}
	return done, nil
}

func (r *rawFile) SetReadDeadline(t time.Time) error  { return r.f.SetReadDeadline(t) }
func (r *rawFile) SetWriteDeadline(t time.Time) error { return r.f.SetWriteDeadline(t) }
func (r *rawFile) Close() error {
	r.closed.Store(true)
	return r.f.Close()
}

// WakeMonitor makes sure the runtime's monitor thread (sysmon) is awake
// before plugin code starts. The monitor is what preempts a goroutine that
// never yields; it sleeps while the process is idle and wakes on the next
// entry into a system call, and the raw calls above never make one. In a
// plugin process (one P) an interpreted "for {}" then held the P with the
// monitor asleep, so the timer that stops it never ran and the host killed
// the process after its 2 s slack instead ("did not answer"). One ordinary
// system call per call wakes it only when it sleeps, and it sleeps again
// once the process is idle.
func WakeMonitor() {
	syscall.Syscall(syscall.SYS_GETPID, 0, 0, 0)
}
