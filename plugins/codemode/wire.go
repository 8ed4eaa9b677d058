package codemode

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/wrasse-app/wrasse/plugins"
	"github.com/wrasse-app/wrasse/plugins/internal/childproc"
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

type message struct {
	Op string `json:"op"`
	ID uint64 `json:"id,omitempty"`
	// run: Version is the parent's protocol version (childproc.Version),
	// which the process checks before anything else.
	Version   int           `json:"version,omitempty"`
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

// writer sends messages on the shared framing (childproc.Writer).
type writer struct{ *childproc.Writer }

func newWriter(w io.Writer) writer { return writer{childproc.NewWriter(w, maxLine)} }

func (w writer) send(m *message) error { return w.Send(m.Op, m) }

// reader reads messages, one per line (childproc.MsgReader: a read error,
// such as a deadline, leaves what was read in place).
type reader struct{ *childproc.MsgReader }

func newReader(r io.Reader) reader { return reader{childproc.NewMsgReader(r, maxLine)} }

// line returns the next line without its newline; it is valid until the
// next call.
func (r reader) line() ([]byte, error) { return r.Next() }

func (r reader) next() (*message, error) {
	l, err := r.Next()
	if err != nil {
		return nil, err
	}
	m := &message{}
	if err := json.Unmarshal(l, m); err != nil {
		return nil, fmt.Errorf("malformed message: %w", err)
	}
	return m, nil
}
