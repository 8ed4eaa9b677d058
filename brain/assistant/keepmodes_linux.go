package assistant

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// modeWatch asks the kernel (inotify) to say when the attributes of a kept
// path change, or of anything in a kept folder, and puts the modes back
// then, instead of after the tool call that changed them: a file another
// user opened while it was open to them stays open to them. A program
// that changes a mode and another user's program that opens the file in
// the moment before the repair still race it; see docs/plugins.md.
type modeWatch struct {
	f       *os.File
	log     *slog.Logger
	restore func()

	mu    sync.Mutex
	paths map[int]string // by watch descriptor
	done  chan struct{}
}

// watchMask: attribute changes (chmod, chown), and the watch's end when
// its file goes (a config.json replaced by a rename), to watch the new
// one.
const watchMask = unix.IN_ATTRIB | unix.IN_DONT_FOLLOW

func newModeWatch(log *slog.Logger, restore func()) (*modeWatch, error) {
	// Non-blocking, so that the runtime's poller reads it and Close ends
	// the read.
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("inotify: %w", err)
	}
	w := &modeWatch{f: os.NewFile(uintptr(fd), "inotify"), log: log, restore: restore, paths: map[int]string{}, done: make(chan struct{})}
	go w.run()
	return w, nil
}

// add watches path; a path that does not exist (yet) is left out: the
// folder it would be in is watched.
func (w *modeWatch) add(path string) {
	raw, err := w.f.SyscallConn()
	if err != nil {
		return
	}
	var wd int
	var addErr error
	if err := raw.Control(func(fd uintptr) { wd, addErr = unix.InotifyAddWatch(int(fd), path, watchMask) }); err != nil {
		return
	}
	if addErr != nil {
		if !errors.Is(addErr, unix.ENOENT) {
			w.log.Warn("cannot watch the mode of a file Wrasse keeps private", "path", path, "error", addErr)
		}
		return
	}
	w.mu.Lock()
	w.paths[wd] = path
	w.mu.Unlock()
}

// run reads events until Close: any attribute change puts back what
// changed (restore checks every kept path; a batch of events is one
// check).
func (w *modeWatch) run() {
	defer close(w.done)
	buf := make([]byte, 64*(unix.SizeofInotifyEvent+unix.NAME_MAX+1))
	for {
		n, err := w.f.Read(buf)
		if err != nil {
			return
		}
		var gone []string
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			if ev.Mask&unix.IN_IGNORED != 0 {
				w.mu.Lock()
				if p, ok := w.paths[int(ev.Wd)]; ok {
					gone = append(gone, p)
					delete(w.paths, int(ev.Wd))
				}
				w.mu.Unlock()
			}
			off += unix.SizeofInotifyEvent + int(ev.Len)
		}
		w.restore()
		// A file replaced by another (a rename over it) is watched anew.
		for _, p := range gone {
			w.add(p)
		}
	}
}

// Close stops the watch and waits until no repair runs.
func (w *modeWatch) Close() error {
	err := w.f.Close()
	<-w.done
	return err
}
