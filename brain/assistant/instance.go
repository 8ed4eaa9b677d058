package assistant

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/wrasse-app/wrasse/brain/workspace"
)

// The instance socket lets a second `wrasse` hand its work to the process
// that holds the workspace (the window, usually) instead of failing on the
// database lock: `wrasse` alone brings the window forward, and CLI commands
// run inside the running app and stream their output back.
//
// Whoever can drive the running app can change what the assistant may do
// (its model host, MCP servers, grants, secrets), so only the user's own
// programs that Wrasse did not start may. Every connection is checked:
//
//   - the socket lives in the user's private runtime folder
//     (workspace.Runtime, mode 0700, chosen once when the App opens),
//     which no sandbox may read or write;
//   - before anything is read, the kernel names the peer (SO_PEERCRED on
//     Linux): it must be this user, and no process Wrasse started, or one
//     they started in turn;
//   - the first line carries the launch token, a random value written at
//     each Serve to a file (0600) beside the socket, which a program in
//     Wrasse's sandbox cannot read; it is compared in constant time, and
//     at most maxHelloLine bytes are read before it is, from at most
//     maxUnchecked connections at a time.
//
// The client checks the other way before it sends anything, standard
// input above all: the runtime folder is the one its session variables
// name (never another one found instead), the folder, the socket and the
// token file are this user's alone (no links, no other owner, no other
// mode) and the process that answers runs as this user.
//
// The protocol is JSON lines. The client sends a hello (a Request with
// only Version and Token); the server answers a Frame with Ready, or
// refuses (an "err" frame and "exit"). The client then sends the Request
// with the command; the server answers with Frames: output on "out" and
// "err", and last "exit".

// protocolVersion changes when Request or Frame change incompatibly.
const protocolVersion = 3

// maxHelloLine bounds the first line, read before the token is checked.
const maxHelloLine = 4 << 10

// maxUnchecked bounds the connections being checked at a time (between
// accept and a valid token), so that unauthenticated clients cannot make
// the server hold many buffers or goroutines.
const maxUnchecked = 8

// maxForwardedStdin bounds the standard input a client forwards.
const maxForwardedStdin = 1 << 20

// maxSocketPath is the longest socket name every system takes (macOS's
// sun_path holds 104 bytes with the terminating zero, Linux's 108).
const maxSocketPath = 103

// tokenBytes is the size of a launch token (hex-encoded in its file).
const tokenBytes = 32

// requestWait bounds the wait for a client's request once it connected.
const requestWait = 5 * time.Second

// Request is what a second process asks of the running one.
type Request struct {
	// Version and Token make the hello, the first line; the command's
	// Request that follows leaves them out.
	Version int `json:"version,omitempty"`
	// Token is the running Wrasse's launch token, read by the client from
	// the runtime folder.
	Token string `json:"token,omitempty"`
	// Args are the command-line arguments after the program name; empty
	// means "show yourself" (bring the window forward).
	Args []string `json:"args"`
	// Stdin is the client's standard input when it was piped (not a
	// terminal), read up to maxForwardedStdin.
	Stdin []byte `json:"stdin,omitempty"`
	// Dir is the client's working folder, for relative paths in Args.
	Dir string `json:"dir,omitempty"`
	// Peer is the process that sent the request, as the kernel named it
	// (set by the server, never sent).
	Peer *Peer `json:"-"`
}

// Frame is one piece of the answer.
type Frame struct {
	// Ready answers a hello the server accepted: the client sends its
	// command next.
	Ready bool   `json:"ready,omitempty"`
	Out   string `json:"out,omitempty"`
	Err   string `json:"err,omitempty"`
	Exit  *int   `json:"exit,omitempty"`
}

// Handler runs one forwarded request in the running process, writing what
// the command prints to stdout and stderr, and returns its exit code.
type Handler func(ctx context.Context, req Request, stdout, stderr io.Writer) int

// SocketPath is the instance socket of workspace ws in runtime folder rt,
// named by a hash of the workspace's root, so that it is short enough for
// a socket name however deep the workspace is.
func SocketPath(rt workspace.Runtime, ws workspace.Workspace) string {
	return filepath.Join(rt.Dir, instanceName(ws)+".sock")
}

// TokenPath is the file holding the launch token of ws's running Wrasse.
func TokenPath(rt workspace.Runtime, ws workspace.Workspace) string {
	return filepath.Join(rt.Dir, instanceName(ws)+".token")
}

// SocketPath is the socket this App serves on (or would).
func (a *App) SocketPath() string { return SocketPath(a.keep.runtime, a.ws) }

// TokenPath is the launch token file of this App's socket.
func (a *App) TokenPath() string { return TokenPath(a.keep.runtime, a.ws) }

// clientRuntime is the runtime folder a client looks in: the one its
// session variables name, or an error saying why that one cannot be used
// (never another folder found instead).
func clientRuntime() (workspace.Runtime, error) {
	rt, err := workspace.ChooseRuntime(os.Getenv)
	if err != nil {
		return rt, fmt.Errorf("%w: %w", ErrUntrustedInstance, err)
	}
	return rt, nil
}

func instanceName(ws workspace.Workspace) string {
	sum := sha256.Sum256([]byte(ws.Root))
	return hex.EncodeToString(sum[:8])
}

// Serve listens on the workspace's instance socket and runs each request
// with h until ctx ends. Only the process holding the workspace (an open
// App) may serve, so a socket and token left by a crash are replaced. It
// returns once listening; serving goes on in the background.
//
// ctx ends the listening only: a command already running goes on until it
// returns or its client goes away (which cancels the ctx it was given), so
// that one command ending never cancels another; a caller that wants them
// stopped cancels them itself. Close stops listening and waits until the
// socket is gone and every forwarded command has returned.
func (a *App) Serve(ctx context.Context, h Handler) error {
	if a.keep.runtimeErr != nil {
		return a.keep.runtimeErr
	}
	if err := a.keep.runtime.Ensure(); err != nil {
		return err
	}
	a.watchRuntime()
	path, tokenPath := a.SocketPath(), a.TokenPath()
	if len(path) > maxSocketPath {
		return fmt.Errorf("the instance socket %s is %d bytes long, and socket names may have at most %d: set %s (or TMPDIR) to a shorter folder",
			path, len(path), maxSocketPath, workspace.EnvRuntimeDir)
	}
	token, err := newToken()
	if err != nil {
		return err
	}
	// The token first: a client that finds the socket finds its token.
	if err := writeToken(tokenPath, token); err != nil {
		return err
	}
	_ = os.Remove(path) // a stale socket of a crashed process
	ln, err := net.Listen("unix", path)
	if err != nil {
		_ = os.Remove(tokenPath)
		return fmt.Errorf("listen on %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		_ = os.Remove(tokenPath)
		return fmt.Errorf("restrict %s to its owner: %w", path, err)
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	a.serveMu.Lock()
	a.servers = append(a.servers, server{stop: cancel, done: done, kept: []workspace.KeptMode{
		{Path: path, Mode: 0o600}, {Path: tokenPath, Mode: 0o600}}})
	a.serveMu.Unlock()
	s := &instanceServer{app: a, token: token, handler: h, unchecked: make(chan struct{}, maxUnchecked)}
	var wg sync.WaitGroup
	go func() {
		<-ctx.Done()
		ln.Close()
		wg.Wait()
		_ = os.Remove(path)
		_ = os.Remove(tokenPath)
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
				s.serveConn(conn)
			}()
		}
	}()
	return nil
}

// newToken is a fresh launch token.
func newToken() (string, error) {
	b := make([]byte, tokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("make a launch token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// writeToken writes the token to a new file only the user can read.
func writeToken(path, token string) error {
	_ = os.Remove(path)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("write the launch token %s: %w", path, err)
	}
	_, werr := f.WriteString(token)
	if err := errors.Join(werr, f.Close()); err != nil {
		_ = os.Remove(path)
		return fmt.Errorf("write the launch token %s: %w", path, err)
	}
	return nil
}

// instanceServer answers the connections of one Serve.
type instanceServer struct {
	app     *App
	token   string
	handler Handler
	// unchecked holds one slot per connection not yet past the token.
	unchecked chan struct{}
}

// serveConn checks who connected, then what they sent, then runs it.
func (s *instanceServer) serveConn(conn net.Conn) {
	defer conn.Close()
	fw := &frameWriter{enc: json.NewEncoder(conn)}
	select {
	case s.unchecked <- struct{}{}:
	default:
		s.refuse(fw, Peer{}, fmt.Sprintf("%d other connections are being checked: try again in a moment", maxUnchecked))
		return
	}
	release := sync.OnceFunc(func() { <-s.unchecked })
	defer release()
	// Who connected is decided before a byte is read: the kernel says it.
	peer, err := peerOf(conn)
	if err != nil {
		s.refuse(fw, peer, "the kernel did not say which program connected: "+err.Error())
		return
	}
	if why := s.check(peer); why != "" {
		s.refuse(fw, peer, why)
		return
	}
	r := bufio.NewReaderSize(conn, maxHelloLine)
	_ = conn.SetReadDeadline(time.Now().Add(requestWait))
	line, err := readLine(r, maxHelloLine)
	if errors.Is(err, errTooLong) {
		s.refuse(fw, peer, fmt.Sprintf("its first line was longer than %d bytes, which a wrasse command never sends before "+
			"the launch token is checked", maxHelloLine))
		return
	}
	if err != nil {
		return
	}
	var hello Request
	jsonErr := json.Unmarshal(line, &hello)
	// The token before the version: nothing tells a program without it
	// more than that it was refused.
	if subtle.ConstantTimeCompare([]byte(hello.Token), []byte(s.token)) != 1 {
		s.refuse(fw, peer, "it did not carry this Wrasse's launch token, which only your own programs can read (not "+
			"the ones Wrasse runs in its sandbox)")
		return
	}
	if jsonErr != nil || hello.Version != protocolVersion {
		fw.exit(2, fmt.Sprintf("wrasse: the running Wrasse speaks protocol %d; this one sent something else: close the window and try again\n", protocolVersion))
		return
	}
	release()
	fw.ready()
	line, err = readLine(r, maxRequestLine)
	if err != nil {
		return
	}
	_ = conn.SetReadDeadline(time.Time{})
	var req Request
	if err := json.Unmarshal(line, &req); err != nil {
		fw.exit(2, "wrasse: the running Wrasse could not read the command: "+err.Error()+"\n")
		return
	}
	req.Version, req.Token, req.Peer = 0, "", &peer
	// A client that goes away (Ctrl+C) cancels its command.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		_, _ = io.Copy(io.Discard, r)
		cancel()
	}()
	s.app.log.Info("running a forwarded command", "args", len(req.Args), "pid", peer.PID, "exe", Visible(peer.Exe))
	code := s.handler(ctx, req, fw.stream(false), fw.stream(true))
	fw.exit(code, "")
}

// check says why peer may not drive this Wrasse ("" when it may): it must
// be this user, and no program this process started, directly or not.
func (s *instanceServer) check(peer Peer) string {
	if !peer.Known {
		return ""
	}
	if peer.UID != os.Getuid() {
		return fmt.Sprintf("it came from another user (uid %d)", peer.UID)
	}
	if chain, ok := startedBy(os.Getpid(), peer.PID); ok {
		return "it came from a program Wrasse started (" + strings.Join(chain, ", started by ") +
			"), and commands from programs Wrasse started are refused, so that nothing the assistant runs can change what it may do: " +
			"run the command in your own terminal"
	}
	return ""
}

// refuse tells the client why and logs it.
func (s *instanceServer) refuse(fw *frameWriter, peer Peer, why string) {
	s.app.log.Warn("refused a command on the instance socket", "pid", peer.PID, "uid", peer.UID, "exe", Visible(peer.Exe),
		"peer", peer.String(), "why", why)
	fw.exit(exitRefused, "wrasse: the running Wrasse refused this command: "+why+"\n")
}

// exitRefused is the exit code of a refused request.
const exitRefused = 1

// server is one running Serve, for Close to stop and wait for.
type server struct {
	stop func()
	done chan struct{}
	// kept are its socket and token, whose modes are kept (the runtime
	// folder's are the App's).
	kept []workspace.KeptMode
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

// maxRequestLine bounds the command's line: its standard input
// (base64 in JSON), arguments and folder.
const maxRequestLine = maxForwardedStdin*2 + 64<<10

// errTooLong is a line longer than its limit.
var errTooLong = errors.New("request too long")

// readLine reads one newline-terminated line of at most limit bytes.
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	var out []byte
	for {
		chunk, err := r.ReadSlice('\n')
		out = append(out, chunk...)
		if len(out) > limit {
			return nil, errTooLong
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

// ready tells the client its hello was accepted.
func (fw *frameWriter) ready() {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	_ = fw.enc.Encode(Frame{Ready: true})
}

func (fw *frameWriter) exit(code int, msg string) {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	if msg != "" {
		_ = fw.enc.Encode(Frame{Err: msg})
	}
	_ = fw.enc.Encode(Frame{Exit: &code})
}

// CheckInstance checks, before anything is sent, that the process serving
// ws would be this user's own Wrasse: the runtime folder is the one the
// session variables name (XDG_RUNTIME_DIR set but not private is refused,
// never replaced by another folder), and it, its session folder and the
// socket in it are this user's alone (no symbolic links, no other owner,
// no other mode). It fails with ErrNotRunning when there is no socket, and
// with ErrUntrustedInstance when there is one that must not be trusted.
func CheckInstance(ws workspace.Workspace) error {
	rt, err := clientRuntime()
	if err != nil {
		return err
	}
	return checkInstance(rt, ws)
}

func checkInstance(rt workspace.Runtime, ws workspace.Workspace) error {
	err := rt.Check()
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %w", ErrNotRunning, err)
	}
	if err != nil {
		return fmt.Errorf("%w: %w", ErrUntrustedInstance, err)
	}
	path := SocketPath(rt, ws)
	if filepath.Dir(path) != rt.Dir {
		return fmt.Errorf("%w: the socket %s is outside the runtime folder %s", ErrUntrustedInstance, path, rt.Dir)
	}
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %w", ErrNotRunning, err)
	}
	if err := checkSocket(path); err != nil {
		return fmt.Errorf("%w: %w; remove it and start Wrasse again", ErrUntrustedInstance, err)
	}
	return nil
}

// readToken reads the launch token of ws's running Wrasse, once its file
// proved to be this user's alone.
func readToken(rt workspace.Runtime, ws workspace.Workspace) (string, error) {
	path := TokenPath(rt, ws)
	if err := workspace.CheckPrivate(path, false, 0o600); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%w: the running Wrasse left no launch token at %s (it is an older version, or the file "+
				"was removed): close it and start it again", ErrUntrustedInstance, path)
		}
		return "", fmt.Errorf("%w: %w", ErrUntrustedInstance, err)
	}
	f, err := openNoFollow(path)
	if errors.Is(err, fs.ErrPermission) {
		return "", fmt.Errorf("%w: cannot read the running Wrasse's launch token %s (%w). Programs Wrasse runs in its sandbox "+
			"cannot drive it: run the command in your own terminal", ErrUntrustedInstance, path, err)
	}
	if err != nil {
		return "", fmt.Errorf("read the launch token: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 4*tokenBytes))
	if err != nil {
		return "", fmt.Errorf("read the launch token %s: %w", path, err)
	}
	return strings.TrimSpace(string(b)), nil
}

// Forward sends req to the process serving workspace ws and copies its
// answer to stdout and stderr, returning the command's exit code. Nothing
// is sent unless the socket proves to be this user's own Wrasse
// (CheckInstance, the token file, the answering process's user), and the
// command (with its standard input) only once that Wrasse accepted the
// token. It returns ErrNotRunning quickly when no process serves the
// workspace.
func Forward(ctx context.Context, ws workspace.Workspace, req Request, stdout, stderr io.Writer) (int, error) {
	rt, err := clientRuntime()
	if err != nil {
		return 0, err
	}
	if err := checkInstance(rt, ws); err != nil {
		return 0, err
	}
	sock := SocketPath(rt, ws)
	d := net.Dialer{Timeout: time.Second}
	conn, err := d.DialContext(ctx, "unix", sock)
	if errors.Is(err, fs.ErrPermission) {
		// The socket is there and this user's (checkInstance): what
		// refuses is this process's sandbox, which opens no Unix socket.
		return 0, fmt.Errorf("%w: cannot connect to the running Wrasse's socket %s (%w). Programs Wrasse runs in its "+
			"sandbox cannot drive it: run the command in your own terminal", ErrUntrustedInstance, sock, err)
	}
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrNotRunning, err)
	}
	defer conn.Close()
	if peer, err := peerOf(conn); err != nil {
		return 0, fmt.Errorf("%w: the kernel did not say which program answers on %s: %w", ErrUntrustedInstance, sock, err)
	} else if peer.Known && peer.UID != os.Getuid() {
		return 0, fmt.Errorf("%w: the program answering on %s runs as user %d, not as you", ErrUntrustedInstance, sock, peer.UID)
	}
	token, err := readToken(rt, ws)
	if err != nil {
		return 0, err
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	enc := json.NewEncoder(conn)
	// A server that refuses at once may close before the hello is
	// written: its answer is read all the same.
	sendErr := enc.Encode(Request{Version: protocolVersion, Token: token})
	req.Version, req.Token = 0, ""
	sent := false
	dec := json.NewDecoder(bufio.NewReader(conn))
	for {
		var f Frame
		if err := dec.Decode(&f); err != nil {
			if ctx.Err() != nil {
				return 130, ctx.Err()
			}
			if sendErr != nil {
				return 0, fmt.Errorf("send the command to the running Wrasse: %w", sendErr)
			}
			return 1, fmt.Errorf("the running Wrasse stopped answering: %w", err)
		}
		if f.Ready && !sent {
			sent = true
			if err := enc.Encode(req); err != nil {
				return 0, fmt.Errorf("send the command to the running Wrasse: %w", err)
			}
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
