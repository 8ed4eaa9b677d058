//go:build unix

package childproc

import (
	"os"
	"syscall"

	"github.com/wrasse-app/wrasse/plugins/internal/rawpipe"
)

// Pipe is a pipe whose host end (hostReads says which) is served by
// this process's poller and whose child end is never registered with it.
// os.Pipe registers both ends, and the registration of the end handed to
// the child outlives this process's copy of it (it belongs to the open
// pipe, which the child holds): every message then also woke a poller
// thread here for the child's end. The host end's deadlines bound every
// read and write; the child gets a blocking end, which its runtime reads
// and writes directly.
func Pipe(hostReads bool) (host, child *os.File, err error) {
	r, w, err := rawpipe.Pipe()
	if err != nil {
		return nil, nil, err
	}
	h, c := w, r
	if hostReads {
		h, c = r, w
	}
	// Non-blocking before os.NewFile, which then registers it: the flag is
	// the host end's own (each end of a pipe is an open file of its own).
	if err := syscall.SetNonblock(h, true); err != nil {
		syscall.Close(r)
		syscall.Close(w)
		return nil, nil, os.NewSyscallError("setnonblock", err)
	}
	return os.NewFile(uintptr(h), "|plugin-host"), os.NewFile(uintptr(c), "|plugin-child"), nil
}

// HostEnd is a host end of Pipe: its deadlines bound a read or a
// write, and a deadline set to now wakes a blocked one.
func HostEnd(f *os.File) FileIO { return fastFile(f) }

// PollableStdio returns the plugin process's stdin or stdout, when it is
// a pipe or socket this process inherited blocking, as a non-blocking
// copy served by the runtime's poller (with raw reads and writes on
// Linux, see rawFile); else f itself. A goroutine waiting for the host's
// next message then parks instead of holding the process's one P in a
// blocking read, which the runtime's monitor would take back after 20 µs
// and hand over again at every message. The descriptor f stays open; it
// shares the copy's mode, and nothing else reads or writes it.
func PollableStdio(f any) any {
	file, ok := f.(*os.File)
	if !ok {
		return f
	}
	st, err := file.Stat()
	if err != nil || st.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return f
	}
	sc, err := file.SyscallConn()
	if err != nil {
		return f
	}
	fd := -1
	_ = sc.Control(func(raw uintptr) {
		syscall.ForkLock.RLock()
		defer syscall.ForkLock.RUnlock()
		if d, err := syscall.Dup(int(raw)); err == nil {
			syscall.CloseOnExec(d)
			fd = d
		}
	})
	if fd < 0 {
		return f
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return f
	}
	return fastFile(os.NewFile(uintptr(fd), file.Name()))
}

// HostReader is the host end of the child's stdout.
func HostReader(f *os.File) DeadlineReader { return fastFile(f) }

// Pollable puts an inherited pipe (exec hands them over blocking) in
// non-blocking mode, so that os.NewFile serves it through the runtime's
// poller: a goroutine waiting on it holds no thread.
func Pollable(fd int) { _ = syscall.SetNonblock(fd, true) }

// BlockingPipe is os.Pipe without the runtime's poller: neither end is
// ever registered with this process's epoll, whose registration would
// outlive the end handed to the child (it belongs to the pipe, open in
// the child) and wake a poller thread here at every message either way.
func BlockingPipe() (r, w *os.File, err error) {
	rd, wr, err := rawpipe.Pipe()
	if err != nil {
		return nil, nil, err
	}
	return os.NewFile(uintptr(rd), "|0"), os.NewFile(uintptr(wr), "|1"), nil
}
