package codemode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/wrasse-app/wrasse/plugins"
)

// ProgramFile is the name a program goes by in messages (main.go:3:9).
const ProgramFile = plugins.ProgramFile

// Message operations (see the package doc).
const (
	opRun   = "run"
	opReply = "reply"
	opCall  = "call"
	opDone  = "done"
)

// maxLine bounds one protocol line: a program, the arguments of one call
// or one result, escaped.
const maxLine = 16 << 20

// maxArgsBytes bounds the encoded arguments of one inner call.
const maxArgsBytes = 1 << 20

// errLineTooLong: a message longer than maxLine.
var errLineTooLong = errors.New("message too long")

type message struct {
	Op string `json:"op"`
	ID uint64 `json:"id,omitempty"`
	// run
	Checked   string        `json:"checked,omitempty"`
	Run       string        `json:"run,omitempty"`
	Timeout   time.Duration `json:"timeout,omitempty"`
	MaxOutput int           `json:"maxOutput,omitempty"`
	MaxCalls  int           `json:"maxCalls,omitempty"`
	// call
	Tool string          `json:"tool,omitempty"`
	Args json.RawMessage `json:"args,omitempty"`
	// reply, done
	Text      string     `json:"text,omitempty"`
	Err       *wireError `json:"error,omitempty"`
	Truncated bool       `json:"truncated,omitempty"`
	Calls     int        `json:"calls,omitempty"`
}

type wireError struct {
	Kind string `json:"kind,omitempty"`
	Msg  string `json:"msg"`
}

func toWire(err error) *wireError {
	if err == nil {
		return nil
	}
	w := &wireError{Msg: err.Error()}
	for _, k := range kinds {
		if errors.Is(err, k.err) {
			w.Kind = k.name
			break
		}
	}
	return w
}

// kindError is an error that crossed the pipe: its message, unwrapping
// to its sentinel.
type kindError struct {
	msg  string
	kind error
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() error { return e.kind }

func (w *wireError) err() error {
	if w == nil {
		return nil
	}
	for _, k := range kinds {
		if k.name == w.Kind {
			return &kindError{msg: w.Msg, kind: k.err}
		}
	}
	return errors.New(w.Msg)
}

// writer sends messages, one line in one write each, from any goroutine.
type writer struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *writer) send(m *message) error {
	// encoding/json for every message; see BenchmarkWireLine for what a
	// hand-written codec saved (docs/performance.md, code mode).
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("encode %s message: %w", m.Op, err)
	}
	b = append(b, '\n')
	w.mu.Lock()
	defer w.mu.Unlock()
	_, err = w.w.Write(b)
	return err
}

// reader reads messages, one per line, from a buffer it reuses. Unlike a
// bufio.Scanner it survives a read error: a read deadline that passed
// (the parent's bound, moved on lazily) leaves what was read in place.
type reader struct {
	r          io.Reader
	buf        []byte
	start, end int
	scanned    int // bytes after start known to hold no newline
}

func newReader(r io.Reader) *reader { return &reader{r: r, buf: make([]byte, 4<<10)} }

// line returns the next line without its newline; it is valid until the
// next call.
func (r *reader) line() ([]byte, error) {
	for {
		if i := bytes.IndexByte(r.buf[r.start+r.scanned:r.end], '\n'); i >= 0 {
			l := r.buf[r.start : r.start+r.scanned+i]
			r.start += r.scanned + i + 1
			r.scanned = 0
			return l, nil
		}
		r.scanned = r.end - r.start
		if r.start > 0 {
			r.end = copy(r.buf, r.buf[r.start:r.end])
			r.start = 0
		}
		if r.end == len(r.buf) {
			if len(r.buf) > maxLine {
				return nil, errLineTooLong
			}
			nb := make([]byte, min(2*len(r.buf), maxLine+1))
			copy(nb, r.buf[:r.end])
			r.buf = nb
		}
		n, err := r.r.Read(r.buf[r.end:])
		r.end += n
		if n == 0 && err != nil {
			return nil, err
		}
	}
}

func (r *reader) next() (*message, error) {
	l, err := r.line()
	if err != nil {
		return nil, err
	}
	m := &message{}
	if err := json.Unmarshal(l, m); err != nil {
		return nil, fmt.Errorf("malformed message: %w", err)
	}
	return m, nil
}
