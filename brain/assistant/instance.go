package assistant

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/wrasse-app/wrasse/brain/workspace"
)

// The instance socket lets a second `wrasse` hand its work to the process
// that holds the workspace (the window, usually) instead of failing on the
// database lock: `wrasse` alone brings the window forward, and CLI commands
// run inside the running app and stream their output back. The socket is
// a Unix domain socket only the user can open (mode 0600 in the
// workspace's 0700 folder).
//
// The protocol is JSON lines. The client sends one Request; the server
// answers with Frames: output on "out" and "err", and last "exit".

// protocolVersion changes when Request or Frame change incompatibly.
const protocolVersion = 1

// maxForwardedStdin bounds the standard input a client forwards.
const maxForwardedStdin = 1 << 20

// Request is what a second process asks of the running one.
type Request struct {
	Version int `json:"version"`
	// Args are the command-line arguments after the program name; empty
	// means "show yourself" (bring the window forward).
	Args []string `json:"args"`
	// Stdin is the client's standard input when it was piped (not a
	// terminal), read up to maxForwardedStdin.
	Stdin []byte `json:"stdin,omitempty"`
	// Dir is the client's working folder, for relative paths in Args.
	Dir string `json:"dir,omitempty"`
}

// Frame is one piece of the answer.
type Frame struct {
	Out  string `json:"out,omitempty"`
	Err  string `json:"err,omitempty"`
	Exit *int   `json:"exit,omitempty"`
}

// Handler runs one forwarded request in the running process, writing what
// the command prints to stdout and stderr, and returns its exit code.
type Handler func(ctx context.Context, req Request, stdout, stderr io.Writer) int

// SocketPath is the instance socket of workspace ws. Socket paths are
// limited to about 100 bytes, so a deep workspace gets one in the temp
// folder named by a hash of its root.
func SocketPath(ws workspace.Workspace) string {
	p := filepath.Join(ws.Root, ".wrasse.sock")
	if len(p) < 100 {
		return p
	}
	sum := sha256.Sum256([]byte(ws.Root))
	return filepath.Join(os.TempDir(), fmt.Sprintf("wrasse-%d-%s.sock", os.Getuid(), hex.EncodeToString(sum[:8])))
}

// Serve listens on the workspace's instance socket and runs each request
// with h until ctx ends. Only the process holding the workspace (an open
// App) may serve, so a socket file left by a crash is replaced. It returns
// once listening; serving goes on in the background.
//
// Cancelling ctx stops it in the background; Close stops it and waits until
// the socket is gone and every forwarded command has returned.
func (a *App) Serve(ctx context.Context, h Handler) error {
	ctx, cancel := context.WithCancel(ctx)
	path := SocketPath(a.ws)
	_ = os.Remove(path) // a stale socket of a crashed process
	ln, err := net.Listen("unix", path)
	if err != nil {
		cancel()
		return fmt.Errorf("listen on %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		cancel()
		return fmt.Errorf("restrict %s to its owner: %w", path, err)
	}
	done := make(chan struct{})
	a.serveMu.Lock()
	a.servers = append(a.servers, server{stop: cancel, done: done})
	a.serveMu.Unlock()
	var wg sync.WaitGroup
	go func() {
		<-ctx.Done()
		ln.Close()
		wg.Wait()
		_ = os.Remove(path)
		close(done)
	}()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				a.serveConn(ctx, conn, h)
			}()
		}
	}()
	return nil
}

func (a *App) serveConn(ctx context.Context, conn net.Conn, h Handler) {
	defer conn.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := bufio.NewReaderSize(conn, 64<<10)
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	line, err := readLine(r, maxForwardedStdin*2)
	if err != nil {
		return
	}
	_ = conn.SetReadDeadline(time.Time{})
	var req Request
	fw := &frameWriter{enc: json.NewEncoder(conn)}
	if err := json.Unmarshal(line, &req); err != nil || req.Version != protocolVersion {
		fw.exit(2, fmt.Sprintf("wrasse: the running Wrasse speaks protocol %d; this one sent something else: close the window and try again\n", protocolVersion))
		return
	}
	// A client that goes away (Ctrl+C) cancels its command.
	go func() {
		_, _ = io.Copy(io.Discard, r)
		cancel()
	}()
	a.log.Info("running a forwarded command", "args", len(req.Args))
	code := h(ctx, req, fw.stream(false), fw.stream(true))
	fw.exit(code, "")
}

// server is one running Serve, for Close to stop and wait for.
type server struct {
	stop func()
	done chan struct{}
}

// stopServing ends every Serve and waits for each to finish.
func (a *App) stopServing() {
	a.serveMu.Lock()
	servers := a.servers
	a.servers = nil
	a.serveMu.Unlock()
	for _, s := range servers {
		s.stop()
		<-s.done
	}
}

// readLine reads one newline-terminated line of at most limit bytes.
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	var out []byte
	for {
		chunk, err := r.ReadSlice('\n')
		out = append(out, chunk...)
		if len(out) > limit {
			return nil, errors.New("request too long")
		}
		if err == nil {
			return out, nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return nil, err
		}
	}
}

// frameWriter turns the command's output into frames, one writer at a time.
type frameWriter struct {
	mu  sync.Mutex
	enc *json.Encoder
}

type streamWriter struct {
	fw    *frameWriter
	isErr bool
}

func (fw *frameWriter) stream(isErr bool) io.Writer { return streamWriter{fw, isErr} }

func (w streamWriter) Write(p []byte) (int, error) {
	w.fw.mu.Lock()
	defer w.fw.mu.Unlock()
	f := Frame{Out: string(p)}
	if w.isErr {
		f = Frame{Err: string(p)}
	}
	if err := w.fw.enc.Encode(f); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (fw *frameWriter) exit(code int, msg string) {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	if msg != "" {
		_ = fw.enc.Encode(Frame{Err: msg})
	}
	_ = fw.enc.Encode(Frame{Exit: &code})
}

// Forward sends req to the process serving workspace ws and copies its
// answer to stdout and stderr, returning the command's exit code. It
// returns ErrNotRunning quickly when no process serves the workspace.
func Forward(ctx context.Context, ws workspace.Workspace, req Request, stdout, stderr io.Writer) (int, error) {
	d := net.Dialer{Timeout: time.Second}
	conn, err := d.DialContext(ctx, "unix", SocketPath(ws))
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrNotRunning, err)
	}
	defer conn.Close()
	req.Version = protocolVersion
	if err := json.NewEncoder(conn).Encode(req); err != nil {
		return 0, fmt.Errorf("send the command to the running Wrasse: %w", err)
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	dec := json.NewDecoder(bufio.NewReader(conn))
	for {
		var f Frame
		if err := dec.Decode(&f); err != nil {
			if ctx.Err() != nil {
				return 130, ctx.Err()
			}
			return 1, fmt.Errorf("the running Wrasse stopped answering: %w", err)
		}
		if f.Out != "" {
			io.WriteString(stdout, f.Out)
		}
		if f.Err != "" {
			io.WriteString(stderr, f.Err)
		}
		if f.Exit != nil {
			return *f.Exit, nil
		}
	}
}

// ReadForwardedStdin reads piped standard input for a Request, up to its
// limit; a terminal is not read (an interactive prompt cannot cross the
// socket).
func ReadForwardedStdin(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxForwardedStdin+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxForwardedStdin {
		return nil, fmt.Errorf("standard input is longer than %d bytes", maxForwardedStdin)
	}
	return data, nil
}
