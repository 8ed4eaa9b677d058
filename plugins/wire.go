package plugins

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins/sandbox"
	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// The protocol between the host and a plugin process is JSON lines on the
// process's stdin and stdout: one wireMsg per line (JSON strings escape
// newlines, so a message never spans lines), each line bounded in length.
// The child's stderr carries its log as slog JSON lines, and whatever the
// Go runtime prints when it dies.
//
//	host → child: load, call, cancel, secret (reply), host (reply), close
//	child → host: loaded, result, secret (request), host (request), closed
//
// A reply carries the id of its request. The host sends one call at a
// time; a secret request from the child may come while a call runs, and
// so may a host request: may the call (Call, the id of the load or call
// it belongs to) reach the host of Name? The host answers with the call's
// own check (sdk.CheckHost on the call's context).
const (
	opLoad   = "load"
	opLoaded = "loaded"
	opCall   = "call"
	opResult = "result"
	opCancel = "cancel"
	opSecret = "secret"
	opHost   = "host"
	opClose  = "close"
	opClosed = "closed"
)

// protocolVersion is the version of this protocol, sent in the first
// message (load). Bump it with every incompatible change. 4: the load no
// longer carries maxResultBytes nor the tools' outputSchema (the registry
// checks and cuts results on the host's side).
const protocolVersion = 4

// Line bounds. A load carries the plugin source (at most maxSourceBytes,
// which JSON may escape up to six times). A line from the child, a result
// above all, is at most maxHostInLine: that bounds what an untrusted
// process makes the host hold, and is no cap on results (the registry cuts
// every result to what the model may see); a plugin that returns more is
// told so in an error result (childServer.call).
const (
	maxChildInLine = 8*maxSourceBytes + 8<<20
	maxHostInLine  = 8 << 20
	maxStderrLine  = 64 << 10
)

// maxWireErrorBytes bounds an error message sent across.
const maxWireErrorBytes = 64 << 10

type wireMsg struct {
	Op   string          `json:"op"`
	ID   uint64          `json:"id,omitempty"`
	Load *wireLoad       `json:"load,omitempty"`
	Tool string          `json:"tool,omitempty"`
	Args json.RawMessage `json:"args,omitempty"`
	// Name is the secret asked for, or the URL or host:port a host
	// request is about; Value the secret.
	Name string `json:"name,omitempty"`
	// Call is the load or call a host request belongs to.
	Call   uint64             `json:"call,omitempty"`
	Value  string             `json:"value,omitempty"`
	Result *cerebellum.Result `json:"result,omitempty"`
	Err    *wireError         `json:"error,omitempty"`
	// Restart says the child discarded its interpreter after an overrun:
	// the host replaces the whole process, which also ends any goroutine
	// the overrunning code left blocked.
	Restart bool `json:"restart,omitempty"`
	// Logs is how many log lines the child wrote before this reply; the
	// host relays them before acting on it.
	Logs uint64 `json:"logs,omitempty"`

	// reply receives the reply to a request the host sent, and ctx is
	// the context of that load or call, whose check answers the process's
	// host requests (host side only).
	reply chan *wireMsg
	ctx   context.Context
}

// wireLoad is everything a plugin process needs to start one plugin: the
// source the host checked, the tools, and the authority the host settled
// (roots, hosts, environment). Secrets are not in it: the child asks for
// each one and the host decides.
type wireLoad struct {
	// Version is the protocol version of the host (protocolVersion); a
	// child speaking another refuses the load.
	Version     int                 `json:"version"`
	Name        string              `json:"name"`
	Files       map[string][]byte   `json:"files"`
	Tools       []wireTool          `json:"tools"`
	Permissions map[string][]string `json:"permissions,omitempty"`
	Granted     []string            `json:"granted,omitempty"`
	Workspace   string              `json:"workspace,omitempty"`
	// Protected are the workspace's protected paths (Options.Protected).
	Protected sandbox.Protected `json:"protected"`
	PluginDir string            `json:"pluginDir,omitempty"`
	Roots     []string          `json:"roots,omitempty"`
	Hosts     []string          `json:"hosts,omitempty"`
	// Env is the plugin's virtual environment.
	Env map[string]string `json:"env,omitempty"`
	// Settings are the capability's settings in force (sdk.Env.Settings).
	Settings            map[string]string `json:"settings,omitempty"`
	DefaultTimeout      time.Duration     `json:"defaultTimeout"`
	CloseTimeout        time.Duration     `json:"closeTimeout"`
	MaxUntrustedTimeout time.Duration     `json:"maxUntrustedTimeout"`
}

type wireTool struct {
	Name string `json:"name"`
	// Timeout is the deadline the host settled (default applied, capped).
	Timeout time.Duration `json:"timeout"`
}

// wireError is an error sent across: its message and the sentinels it
// wraps, by name, so errors.Is works on the other side.
type wireError struct {
	Kinds []string `json:"kinds,omitempty"`
	Msg   string   `json:"msg"`
}

// errorKinds names the sentinels that cross the process boundary.
var errorKinds = []struct {
	name string
	err  error
}{
	{"bad-request", ErrBadRequest}, {"no-source", ErrNoSource}, {"compile", ErrCompile},
	{"dialect", ErrDialect}, {"goroutine", ErrGoroutine}, {"import", ErrImport},
	{"permission", ErrPermission}, {"init", ErrInit}, {"tool-mismatch", ErrToolMismatch},
	{"panic", ErrPluginPanic}, {"timeout", ErrPluginTimeout}, {"interrupted", ErrInterrupted},
	{"unknown-tool", ErrUnknownTool}, {"closed", ErrClosed}, {"crashed", ErrPluginCrashed},
	{"canceled", context.Canceled}, {"deadline", context.DeadlineExceeded},
	{"host-not-allowed", sdk.ErrHostNotAllowed},
}

func toWireError(err error) *wireError {
	if err == nil {
		return nil
	}
	// A panic value can be any size; the message only needs its start.
	w := &wireError{Msg: cutText(err.Error(), maxWireErrorBytes)}
	for _, k := range errorKinds {
		if errors.Is(err, k.err) {
			w.Kinds = append(w.Kinds, k.name)
		}
	}
	return w
}

// remoteError is an error that happened in a plugin process.
type remoteError struct {
	msg   string
	kinds []error
}

func (e *remoteError) Error() string   { return e.msg }
func (e *remoteError) Unwrap() []error { return e.kinds }

func (w *wireError) err() error {
	if w == nil {
		return nil
	}
	e := &remoteError{msg: w.Msg}
	for _, name := range w.Kinds {
		for _, k := range errorKinds {
			if k.name == name {
				e.kinds = append(e.kinds, k.err)
			}
		}
	}
	if e.msg == "" {
		e.msg = "plugin process reported an error without a message"
	}
	return e
}

func (w *wireError) is(target error) bool { return w != nil && errors.Is(w.err(), target) }

// errLineTooLong marks a protocol line longer than its bound.
var errLineTooLong = errors.New("protocol line too long")

// lineReader reads newline-terminated lines of bounded length.
type lineReader struct {
	r   *bufio.Reader
	max int
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next line without its newline. A final line without a
// newline is returned too; io.EOF follows. A line longer than max is an
// error (the rest of the stream cannot be trusted to be in step).
func (l *lineReader) next() ([]byte, error) {
	var line []byte
	for {
		chunk, err := l.r.ReadSlice('\n')
		if len(line)+len(chunk) > l.max+1 {
			return nil, fmt.Errorf("%w: more than %d bytes", errLineTooLong, l.max)
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return line, nil
		default:
			return nil, err
		}
	}
}

// cutLine is like next but never fails on a long line: it returns the
// first max bytes and drops the rest of the line (for log output).
func (l *lineReader) cutLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := l.r.ReadSlice('\n')
		if room := l.max - len(line); room > 0 {
			line = append(line, chunk[:min(len(chunk), room)]...)
		}
		switch {
		case err == nil:
			if n := len(line); n > 0 && line[n-1] == '\n' {
				line = line[:n-1]
			}
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return line, nil
		default:
			return nil, err
		}
	}
}

// fileIO is a pipe end with deadlines (*os.File, or rawFile on Linux).
type fileIO interface {
	io.ReadWriteCloser
	SetReadDeadline(t time.Time) error
	SetWriteDeadline(t time.Time) error
}

// deadlineReader is what the host reads a plugin process's messages from:
// a read ends at the deadline, and a deadline set in the past wakes a read
// that waits.
type deadlineReader interface {
	io.ReadCloser
	SetReadDeadline(t time.Time) error
}

// msgReader reads the host's side of the protocol: newline-terminated lines
// of bounded length, like lineReader, except that a read that fails (a
// deadline, a wake) keeps the partial line it has for the next one.
type msgReader struct {
	r   io.Reader
	max int
	buf []byte
	// buf[start:end] is unread; buf[start:scan] holds no newline.
	start, scan, end int
}

// msgReaderSize is the buffer of a msgReader, grown for a longer line.
const msgReaderSize = 64 << 10

func newMsgReader(r io.Reader, max int) *msgReader {
	return &msgReader{r: r, max: max, buf: make([]byte, min(msgReaderSize, max+1))}
}

// next returns the next line without its newline, valid until the next
// call. A final line without a newline is returned too; io.EOF follows.
func (m *msgReader) next() ([]byte, error) {
	for {
		if i := bytes.IndexByte(m.buf[m.scan:m.end], '\n'); i >= 0 {
			line := m.buf[m.start : m.scan+i]
			m.start = m.scan + i + 1
			m.scan = m.start
			return line, nil
		}
		m.scan = m.end
		if m.end-m.start > m.max {
			return nil, fmt.Errorf("%w: more than %d bytes", errLineTooLong, m.max)
		}
		if m.start == m.end {
			m.start, m.scan, m.end = 0, 0, 0
		}
		if m.end == len(m.buf) {
			if m.start > 0 {
				n := copy(m.buf, m.buf[m.start:m.end])
				m.scan -= m.start
				m.start, m.end = 0, n
			} else {
				m.buf = append(m.buf, make([]byte, min(len(m.buf), m.max+1-len(m.buf)))...)
			}
		}
		n, err := m.r.Read(m.buf[m.end:])
		m.end += n
		if n > 0 {
			continue // the error, if any, comes again on the next read
		}
		if err == nil {
			continue
		}
		if errors.Is(err, io.EOF) && m.end > m.start {
			line := m.buf[m.start:m.end]
			m.start, m.scan = m.end, m.end
			return line, nil
		}
		return nil, err
	}
}

// msgWriter writes messages, one per line, from any goroutine.
type msgWriter struct {
	mu sync.Mutex
	w  io.Writer
	// max, when set, bounds a line (the reader's bound on the other side):
	// a longer message is not sent and send returns errLineTooLong.
	max int
}

func (m *msgWriter) send(msg *wireMsg) error {
	// encoding/json for every message: a hand-written codec for calls and
	// results saved at most half a millisecond on a 64 KiB result
	// (BenchmarkWireLine, docs/performance.md), nothing a person feels
	// beside the model's seconds.
	b, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("encode %s message: %w", msg.Op, err)
	}
	if m.max > 0 && len(b) > m.max {
		return fmt.Errorf("%w: a %s message of %d bytes, over %d", errLineTooLong, msg.Op, len(b), m.max)
	}
	b = append(b, '\n')
	m.mu.Lock()
	defer m.mu.Unlock()
	_, err = m.w.Write(b)
	return err
}
