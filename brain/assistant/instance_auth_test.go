//go:build linux || darwin

package assistant

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/wrasse-app/wrasse/brain/workspace"
)

// otherUID is a user that is not the one running the tests.
const otherUID = 65534

// privateRuntime gives the test a runtime folder of its own, never the
// user's real one: XDG_RUNTIME_DIR and TMPDIR name one fresh private
// folder, short unlike t.TempDir's, so a socket's path fits its limit.
func privateRuntime(t *testing.T) string {
	t.Helper()
	session, err := os.MkdirTemp("", "wr")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(session) })
	t.Setenv(workspace.EnvRuntimeDir, session)
	t.Setenv("TMPDIR", session)
	return envRuntime().Dir
}

// impostor is a socket another program bound where Wrasse's would be; it
// records every byte it is sent.
type impostor struct {
	ln       net.Listener
	mu       sync.Mutex
	received bytes.Buffer
	wg       sync.WaitGroup
}

func listenImpostor(t *testing.T, path string) *impostor {
	t.Helper()
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	im := &impostor{ln: ln}
	im.wg.Add(1)
	go func() {
		defer im.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			b, _ := io.ReadAll(c)
			im.mu.Lock()
			im.received.Write(b)
			im.mu.Unlock()
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close(); im.wg.Wait() })
	return im
}

func (im *impostor) got() string {
	im.ln.Close()
	im.wg.Wait()
	im.mu.Lock()
	defer im.mu.Unlock()
	return im.received.String()
}

// A socket that is not the user's own Wrasse's is never sent anything,
// the piped secret least of all: a folder made first by another user (the
// shared temporary folder's wrasse-UID), a link, a socket of another user
// or open to others, a token file that is not private.
func TestForwardRefusesAnImpostor(t *testing.T) {
	ws := workspace.Workspace{Root: t.TempDir()}
	chown := func(t *testing.T, p string) {
		t.Helper()
		if os.Getuid() != 0 {
			t.Skip("giving a file to another user needs root")
		}
		if err := os.Lchown(p, otherUID, otherUID); err != nil {
			t.Fatal(err)
		}
	}
	mkdir := func(t *testing.T, dir string, mode os.FileMode) {
		t.Helper()
		if err := os.Mkdir(dir, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
	}
	token := func(t *testing.T, mode os.FileMode) {
		t.Helper()
		if err := os.WriteFile(TokenPath(envRuntime(), ws), []byte("impostor-token"), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(TokenPath(envRuntime(), ws), mode); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name  string
		plant func(t *testing.T, dir string) *impostor
		want  string
	}{
		{"another user made the folder first", func(t *testing.T, dir string) *impostor {
			mkdir(t, dir, 0o777)
			im := listenImpostor(t, SocketPath(envRuntime(), ws))
			token(t, 0o644)
			chown(t, dir)
			chown(t, SocketPath(envRuntime(), ws))
			return im
		}, "belongs to user 65534"},
		{"the folder is open to others", func(t *testing.T, dir string) *impostor {
			mkdir(t, dir, 0o777)
			im := listenImpostor(t, SocketPath(envRuntime(), ws))
			token(t, 0o600)
			return im
		}, "has mode 0777"},
		{"the folder is a link", func(t *testing.T, dir string) *impostor {
			elsewhere := t.TempDir()
			if err := os.Symlink(elsewhere, dir); err != nil {
				t.Fatal(err)
			}
			im := listenImpostor(t, filepath.Join(elsewhere, filepath.Base(SocketPath(envRuntime(), ws))))
			if err := os.WriteFile(filepath.Join(elsewhere, filepath.Base(TokenPath(envRuntime(), ws))), []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
			return im
		}, "is a symbolic link"},
		{"another user's socket", func(t *testing.T, dir string) *impostor {
			mkdir(t, dir, 0o700)
			im := listenImpostor(t, SocketPath(envRuntime(), ws))
			_ = os.Chmod(SocketPath(envRuntime(), ws), 0o600)
			token(t, 0o600)
			chown(t, SocketPath(envRuntime(), ws))
			return im
		}, "belongs to user 65534"},
		{"a socket open to others", func(t *testing.T, dir string) *impostor {
			mkdir(t, dir, 0o700)
			im := listenImpostor(t, SocketPath(envRuntime(), ws))
			_ = os.Chmod(SocketPath(envRuntime(), ws), 0o666)
			token(t, 0o600)
			return im
		}, "has mode 0666"},
		{"a token open to others", func(t *testing.T, dir string) *impostor {
			mkdir(t, dir, 0o700)
			im := listenImpostor(t, SocketPath(envRuntime(), ws))
			_ = os.Chmod(SocketPath(envRuntime(), ws), 0o600)
			token(t, 0o644)
			return im
		}, "has mode 0644"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := privateRuntime(t)
			im := c.plant(t, dir)
			var out, errb bytes.Buffer
			req := Request{Args: []string{"secrets", "set", "openai_api_key"}, Stdin: []byte("sk-the-real-key")}
			_, err := Forward(t.Context(), ws, req, &out, &errb)
			if !errors.Is(err, ErrUntrustedInstance) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Forward: %v", err)
			}
			if got := im.got(); got != "" {
				t.Fatalf("the impostor received %q", got)
			}
		})
	}
}

// CheckInstance tells "nobody serves" from "someone we must not trust".
func TestCheckInstance(t *testing.T) {
	dir := privateRuntime(t)
	ws := workspace.Workspace{Root: t.TempDir()}
	if err := CheckInstance(ws); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("no runtime folder: %v", err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := CheckInstance(ws); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("no socket: %v", err)
	}
	if err := os.WriteFile(SocketPath(envRuntime(), ws), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := CheckInstance(ws); !errors.Is(err, ErrUntrustedInstance) || !strings.Contains(err.Error(), "is not a socket") {
		t.Fatalf("a plain file: %v", err)
	}
}

// rawRequest speaks the protocol as any client could: req's Version and
// Token as the hello, the rest once the server is ready; it returns what
// came back.
func rawRequest(t *testing.T, ws workspace.Workspace, req Request) string {
	t.Helper()
	c, err := net.Dial("unix", SocketPath(envRuntime(), ws))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	enc := json.NewEncoder(c)
	if err := enc.Encode(Request{Version: req.Version, Token: req.Token}); err != nil {
		t.Fatal(err)
	}
	req.Version, req.Token = 0, ""
	var b strings.Builder
	sc := bufio.NewScanner(c)
	for sc.Scan() {
		var f Frame
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			t.Fatal(err)
		}
		if f.Ready {
			if err := enc.Encode(req); err != nil {
				t.Fatal(err)
			}
		}
		b.WriteString(f.Err + f.Out)
		if f.Exit != nil {
			break
		}
	}
	return b.String()
}

// A request without this launch's token is refused and logged; the
// handler never runs. The token is in a file only the user can read, and
// changes with every Serve.
func TestServeRequiresTheLaunchToken(t *testing.T) {
	privateRuntime(t)
	a := openTest(t)
	ran := 0
	var mu sync.Mutex
	err := a.Serve(t.Context(), func(ctx context.Context, req Request, stdout, stderr io.Writer) int {
		mu.Lock()
		ran++
		mu.Unlock()
		if req.Token != "" || req.Peer == nil || req.Peer.PID != os.Getpid() {
			t.Errorf("the handler got token %q, peer %+v", req.Token, req.Peer)
		}
		return 0
	})
	if err != nil {
		t.Fatal(err)
	}
	ws := a.Workspace()
	if err := workspace.CheckPrivate(TokenPath(envRuntime(), ws), false, 0o600); err != nil {
		t.Fatal(err)
	}
	token, err := readToken(envRuntime(), ws)
	if err != nil || len(token) != 2*tokenBytes {
		t.Fatalf("token %q, %v", token, err)
	}
	for _, tc := range []struct{ name, token string }{{"none", ""}, {"wrong", strings.Repeat("0", 2*tokenBytes)}, {"a prefix", token[:10]}} {
		got := rawRequest(t, ws, Request{Version: protocolVersion, Token: tc.token, Args: []string{"config", "set", "baseURL", "http://evil"}})
		if !strings.Contains(got, "refused this command: it did not carry this Wrasse's launch token") {
			t.Errorf("%s token: %q", tc.name, got)
		}
	}
	if got := rawRequest(t, ws, Request{Version: protocolVersion, Token: token, Args: []string{"x"}}); got != "" {
		t.Errorf("with the token: %q", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if ran != 1 {
		t.Errorf("the handler ran %d times; want once (with the token)", ran)
	}
	log, _ := os.ReadFile(ws.Log())
	if !strings.Contains(string(log), "refused a command on the instance socket") {
		t.Errorf("no refusal in the log:\n%s", log)
	}
}

// Close removes the socket and the token; a new Serve writes a new token.
func TestTokenChangesWithEveryLaunch(t *testing.T) {
	privateRuntime(t)
	ws := t.TempDir()
	var tokens []string
	for range 2 {
		a, err := Open(Options{Workspace: ws})
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Serve(t.Context(), func(context.Context, Request, io.Writer, io.Writer) int { return 0 }); err != nil {
			t.Fatal(err)
		}
		tok, err := readToken(envRuntime(), a.Workspace())
		if err != nil {
			t.Fatal(err)
		}
		tokens = append(tokens, tok)
		if err := a.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Lstat(a.TokenPath()); !os.IsNotExist(err) {
			t.Fatalf("the token outlived Close: %v", err)
		}
	}
	if tokens[0] == tokens[1] {
		t.Error("two launches share a token")
	}
}

// A command sent from a program another user runs, or from one this
// process started, is refused with why.
func TestServeChecksThePeer(t *testing.T) {
	privateRuntime(t)
	a := openTest(t)
	s := &instanceServer{app: a}
	if why := s.check(Peer{Known: true, PID: os.Getpid(), UID: os.Getuid()}); why != "" {
		t.Errorf("this process itself: %s", why)
	}
	if why := s.check(Peer{Known: true, PID: os.Getppid(), UID: os.Getuid() + 1}); !strings.Contains(why, "another user") {
		t.Errorf("another user: %q", why)
	}
	if why := s.check(Peer{}); why != "" {
		t.Errorf("a system that names no peer: %q", why)
	}
}

// The server's peer is the client, and the client sees the server as
// this user.
func TestPeerOfAConnection(t *testing.T) {
	privateRuntime(t)
	if err := envRuntime().Ensure(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(envRuntime().Dir, "p.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan Peer, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		p, _ := peerOf(c)
		got <- p
	}()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	server, err := peerOf(c)
	if err != nil {
		t.Fatal(err)
	}
	client := <-got
	for _, p := range []Peer{server, client} {
		if !p.Known || p.PID != os.Getpid() || p.UID != os.Getuid() {
			t.Errorf("peer %+v; want this process", p)
		}
	}
}

// Modes a command opened up (chmod is outside the sandbox) are put back:
// at open, and whenever KeepModes runs (after every tool call), the
// session and runtime folders, the socket and the token too while
// serving. (The watch may have put them back before KeepModes: it tells
// them all the same, once.)
func TestKeepModes(t *testing.T) {
	session := filepath.Dir(privateRuntime(t))
	ws := workspace.Workspace{Root: t.TempDir()}
	if err := os.WriteFile(ws.Config(), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(ws.Root, 0o755); err != nil {
		t.Fatal(err)
	}
	a, err := Open(Options{Workspace: ws.Root})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	for _, k := range ws.KeptModes() {
		if fi, err := os.Stat(k.Path); err != nil || fi.Mode().Perm() != k.Mode {
			t.Errorf("after Open %s: %v %v", k.Path, fi.Mode().Perm(), err)
		}
	}
	if err := a.Serve(t.Context(), func(context.Context, Request, io.Writer, io.Writer) int { return 0 }); err != nil {
		t.Fatal(err)
	}
	opened := map[string]os.FileMode{ws.Root: 0o777, ws.Database(): 0o644, ws.Config(): 0o666,
		SocketPath(envRuntime(), ws): 0o777, TokenPath(envRuntime(), ws): 0o644, envRuntime().Dir: 0o755, session: 0o711}
	for p, m := range opened {
		if err := os.Chmod(p, m); err != nil {
			t.Fatal(err)
		}
	}
	restored := a.KeepModes()
	if len(restored) != len(opened) {
		t.Fatalf("restored %v", restored)
	}
	for _, r := range restored {
		if fi, _ := os.Stat(r.Path); fi.Mode().Perm() != r.Mode || opened[r.Path] != r.Was {
			t.Errorf("%s: now %04o, was %04o", r.Path, fi.Mode().Perm(), r.Was)
		}
	}
	note := modesNote(restored)
	if !strings.Contains(note, ws.Database()+" had mode 0644; it is 0600 again") || !strings.HasPrefix(note, "\n\n[Wrasse: ") {
		t.Errorf("note %q", note)
	}
	if again := a.KeepModes(); len(again) != 0 || modesNote(again) != "" {
		t.Errorf("a second check changed %v", again)
	}
	log, _ := os.ReadFile(ws.Log())
	if !strings.Contains(string(log), "a file's mode that Wrasse keeps had been changed") {
		t.Errorf("nothing logged:\n%s", log)
	}
}
