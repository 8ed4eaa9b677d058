package childproc

import (
	"io"
	"time"
)

// FileIO is a pipe end with deadlines (*os.File, or rawFile on Linux).
type FileIO interface {
	io.ReadWriteCloser
	SetReadDeadline(t time.Time) error
	SetWriteDeadline(t time.Time) error
}

// DeadlineReader is what a parent reads a child's messages from:
// a read ends at the deadline, and a deadline set in the past wakes a read
// that waits.
type DeadlineReader interface {
	io.ReadCloser
	SetReadDeadline(t time.Time) error
}
