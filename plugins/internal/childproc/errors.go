package childproc

import "errors"

var (
	// ErrLineTooLong marks a protocol line longer than its bound: the rest
	// of the stream cannot be trusted to be in step.
	ErrLineTooLong = errors.New("protocol line too long")
	// ErrVersion marks a first message from a parent speaking another
	// protocol version than this process (see CheckVersion).
	ErrVersion = errors.New("protocol version mismatch")
)
