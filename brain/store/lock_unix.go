//go:build unix

package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"

	bolterrors "go.etcd.io/bbolt/errors"
)

// lockPoll is how often a held lock is tried again, as bbolt does.
const lockPoll = 50 * time.Millisecond

// Lock takes the lock bbolt takes on the database file at path (an
// exclusive flock), waiting up to timeout, so nothing else opens the file
// while it is checked, set aside or replaced. A missing file needs no
// lock. Release it before opening the file in this process: bbolt's own
// lock would wait for it.
func Lock(path string, timeout time.Duration) (unlock func(), err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return func() {}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	deadline := time.Now().Add(timeout)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
				f.Close()
			}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) || time.Now().After(deadline) {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, fmt.Errorf("%w: %s is locked by another process; close the other Wrasse or choose another workspace: %w", ErrLocked, path, bolterrors.ErrTimeout)
			}
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		time.Sleep(lockPoll)
	}
}
