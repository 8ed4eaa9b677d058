package plugins

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins/sandbox"
	"github.com/wrasse-app/wrasse/plugins/sdk"

	"github.com/wrasse-app/wrasse/plugins/internal/childproc"
)

// The protocol between the host and a plugin process is JSON lines on the
// process's stdin and stdout (childproc's framing): one wireMsg per line,
// each line bounded in length.
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

// The protocol's version is childproc.Version, sent in the first message
// (load) and checked by the process before anything else.

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
	// Version is the protocol version of the host (childproc.Version); a
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
	w := &wireError{Msg: childproc.Cut(err.Error(), maxWireErrorBytes)}
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

// msgWriter sends wireMsgs on the shared framing (childproc.Writer).
type msgWriter struct{ *childproc.Writer }

// newMsgWriter writes to w lines of at most max bytes (0: no bound).
func newMsgWriter(w io.Writer, max int) msgWriter { return msgWriter{childproc.NewWriter(w, max)} }

func (m msgWriter) send(msg *wireMsg) error { return m.Send(msg.Op, msg) }
