//go:build !unix

package childproc

import (
	"errors"
	"io"
	"os"
	"sync"
	"time"
)

// Pipe is os.Pipe, with the ends in the order asked for.
func Pipe(hostReads bool) (host, child *os.File, err error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	if hostReads {
		return r, w, nil
	}
	return w, r, nil
}

// HostReader gives f read deadlines, which anonymous pipes lack here: a
// goroutine reads f and a read waits for it, its deadline or a wake.
func HostReader(f *os.File) DeadlineReader {
	c := &chunkReader{f: f, chunks: make(chan []byte), wake: make(chan struct{}, 1), closed: make(chan struct{})}
	go c.pump()
	return c
}

type chunkReader struct {
	f      *os.File
	chunks chan []byte
	wake   chan struct{}
	// closed ends a pump that holds a chunk nobody will read (output the
	// process wrote after the host stopped reading it).
	closed    chan struct{}
	closeOnce sync.Once

	mu       sync.Mutex
	deadline time.Time
	err      error // the end of f, once chunks is closed
	pending  []byte
}

func (c *chunkReader) pump() {
	defer close(c.chunks)
	buf := make([]byte, 64<<10)
	for {
		n, err := c.f.Read(buf)
		if n > 0 {
			select {
			case c.chunks <- append([]byte(nil), buf[:n]...):
			case <-c.closed:
				return
			}
		}
		if err != nil {
			c.mu.Lock()
			c.err = err
			c.mu.Unlock()
			return
		}
	}
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.pending) == 0 {
		c.mu.Lock()
		d := c.deadline
		c.mu.Unlock()
		var timeout <-chan time.Time
		if !d.IsZero() {
			wait := time.Until(d)
			if wait <= 0 {
				return 0, os.ErrDeadlineExceeded
			}
			t := time.NewTimer(wait)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case b, ok := <-c.chunks:
			if !ok {
				c.mu.Lock()
				defer c.mu.Unlock()
				if c.err == nil || errors.Is(c.err, os.ErrClosed) {
					return 0, io.EOF
				}
				return 0, c.err
			}
			c.pending = b
		case <-timeout:
			return 0, os.ErrDeadlineExceeded
		case <-c.wake:
			return 0, os.ErrDeadlineExceeded
		}
	}
	n := copy(p, c.pending)
	c.pending = c.pending[n:]
	return n, nil
}

func (c *chunkReader) SetReadDeadline(t time.Time) error {
	c.mu.Lock()
	c.deadline = t
	c.mu.Unlock()
	if !t.IsZero() && !t.After(time.Now()) {
		select {
		case c.wake <- struct{}{}:
		default:
		}
	}
	return nil
}

func (c *chunkReader) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return c.f.Close()
}

// PollableStdio returns f: a plugin process reads and writes its stdio
// as it is.
func PollableStdio(f any) any { return f }

// HostEnd is a host end of Pipe; a read of stdout goes through
// HostReader, which gives it deadlines.
func HostEnd(f *os.File) FileIO { return f }

// Pollable does nothing here: inherited pipes are read as they are.
func Pollable(int) {}

// BlockingPipe is os.Pipe here.
func BlockingPipe() (r, w *os.File, err error) { return os.Pipe() }
