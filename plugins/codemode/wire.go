package codemode

import (
	"bufio"
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
	opRun    = "run"
	opReply  = "reply"
	opCancel = "cancel"
	opCall   = "call"
	opDone   = "done"
)

// maxLine bounds one protocol line: a program, the arguments of one call
// or one result, escaped.
const maxLine = 16 << 20

// maxArgsBytes bounds the encoded arguments of one inner call.
const maxArgsBytes = 1 << 20

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

// writer sends messages, one per line, from any goroutine.
type writer struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *writer) send(m *message) error {
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

// reader reads messages, one per line.
type reader struct{ s *bufio.Scanner }

func newReader(r io.Reader) *reader {
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 0, 64<<10), maxLine)
	return &reader{s: s}
}

func (r *reader) next() (*message, error) {
	if !r.s.Scan() {
		if err := r.s.Err(); err != nil {
			return nil, err
		}
		return nil, io.EOF
	}
	m := &message{}
	if err := json.Unmarshal(r.s.Bytes(), m); err != nil {
		return nil, fmt.Errorf("malformed message: %w", err)
	}
	return m, nil
}
