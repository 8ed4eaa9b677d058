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
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/workspace"
)

// serveNothing serves a that runs no command, counting requests.
func serveNothing(t *testing.T, a *App) *int {
	t.Helper()
	ran := new(int)
	if err := a.Serve(t.Context(), func(context.Context, Request, io.Writer, io.Writer) int { *ran++; return 0 }); err != nil {
		t.Fatal(err)
	}
	return ran
}

// A program this process started is refused as soon as it connects, from
// what the kernel says of it, before it has sent a byte: the server reads
// nothing from such a peer. It is shown what it was refused for.
func TestServeChecksThePeerBeforeReading(t *testing.T) {
	perl, err := exec.LookPath("perl")
	if err != nil {
		t.Skip("needs perl")
	}
	privateRuntime(t)
	a := openTest(t)
	ran := serveNothing(t, a)
	// It connects, sends nothing, and prints what it is told.
	out, err := exec.Command(perl, "-MIO::Socket::UNIX", "-e",
		`$s = IO::Socket::UNIX->new(Peer => $ARGV[0]) or die "connect: $!\n"; print while <$s>;`, a.SocketPath()).CombinedOutput()
	if err != nil {
		t.Fatalf("perl: %v %s", err, out)
	}
	if !strings.Contains(string(out), "refused this command: it came from a program Wrasse started (perl (pid") {
		t.Errorf("a child that sent nothing got %q", out)
	}
	if *ran != 0 {
		t.Error("the handler ran")
	}
}

// At most maxHelloLine bytes are read before the token is checked.
func TestServeCapsWhatItReadsBeforeTheToken(t *testing.T) {
	privateRuntime(t)
	a := openTest(t)
	ran := serveNothing(t, a)
	c, err := net.Dial("unix", a.SocketPath())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// A line that never ends: the server stops reading at the limit.
	go c.Write(bytes.Repeat([]byte("x"), 4*maxHelloLine))
	b, _ := io.ReadAll(c)
	if !strings.Contains(string(b), "its first line was longer than 4096 bytes") {
		t.Errorf("got %q", b)
	}
	if *ran != 0 {
		t.Error("the handler ran")
	}
}

// While maxUnchecked connections are being checked, another is refused
// at once with why, before anything is read from it.
func TestServeCapsConnectionsBeingChecked(t *testing.T) {
	privateRuntime(t)
	a := openTest(t)
	path := filepath.Join(envRuntime().Dir, "cap.sock")
	if err := envRuntime().Ensure(); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	s := &instanceServer{app: a, token: "t", unchecked: make(chan struct{}, maxUnchecked)}
	for range maxUnchecked {
		s.unchecked <- struct{}{}
	}
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	conn, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	s.serveConn(conn)
	b, _ := io.ReadAll(c)
	if !strings.Contains(string(b), "8 other connections are being checked: try again in a moment") {
		t.Errorf("got %q", b)
	}
	if len(s.unchecked) != maxUnchecked {
		t.Errorf("a refused connection took or freed a slot: %d", len(s.unchecked))
	}
}

// The command, with its standard input, goes only to a server that
// accepted the hello: one that refuses (an older Wrasse, a wrong token)
// gets the token and nothing else.
func TestForwardSendsTheCommandOnlyOnceReady(t *testing.T) {
	privateRuntime(t)
	ws := workspace.Workspace{Root: t.TempDir()}
	rt := envRuntime()
	if err := rt.Ensure(); err != nil {
		t.Fatal(err)
	}
	if err := writeToken(TokenPath(rt, ws), "the-token"); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", SocketPath(rt, ws))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if err := os.Chmod(SocketPath(rt, ws), 0o600); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- err.Error()
			return
		}
		defer c.Close()
		line, _ := bufio.NewReader(c).ReadString('\n')
		code := 1
		json.NewEncoder(c).Encode(Frame{Err: "refused\n", Exit: &code})
		// Anything sent after the refusal would be read here.
		c.(*net.UnixConn).CloseWrite()
		rest, _ := io.ReadAll(c)
		got <- line + string(rest)
	}()
	var errb bytes.Buffer
	code, err := Forward(t.Context(), ws, Request{Args: []string{"secrets", "set", "k"}, Stdin: []byte("sk-not-yet")}, io.Discard, &errb)
	if err != nil || code != 1 || errb.String() != "refused\n" {
		t.Fatalf("Forward = %d, %v, %q", code, err, errb.String())
	}
	sent := <-got
	if strings.Contains(sent, "sk-not-yet") || strings.Contains(sent, "secrets") || !strings.Contains(sent, `"token":"the-token"`) {
		t.Errorf("the server received %q", sent)
	}
}

// A session folder that is not private stops serving and forwarding with
// what to do; neither looks in another folder (a planted state folder).
func TestRuntimeSessionFolderNotPrivate(t *testing.T) {
	session := privateRuntime(t)
	session = filepath.Dir(session)
	// Short, for a socket's name.
	home, err := os.MkdirTemp("/tmp", "h")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", "")
	ws := workspace.Workspace{Root: t.TempDir()}
	// A same-user impostor where the state folder's runtime folder is.
	planted := workspace.Runtime{Dir: filepath.Join(home, ".local", "state", "wrasse", "run")}
	if err := planted.Ensure(); err != nil {
		t.Fatal(err)
	}
	im := listenImpostor(t, SocketPath(planted, ws))
	if err := os.Chmod(SocketPath(planted, ws), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := writeToken(TokenPath(planted, ws), "x"); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(session, 0o711); err != nil {
		t.Fatal(err)
	}
	_, err = Forward(t.Context(), ws, Request{Args: []string{"secrets", "set", "k"}, Stdin: []byte("sk-the-key")}, io.Discard, io.Discard)
	if !errors.Is(err, ErrUntrustedInstance) || !strings.Contains(err.Error(), "chmod 700 "+session) {
		t.Fatalf("Forward: %v", err)
	}
	if err := CheckInstance(ws); !errors.Is(err, ErrUntrustedInstance) {
		t.Fatalf("CheckInstance: %v", err)
	}
	if got := im.got(); got != "" {
		t.Fatalf("the planted socket received %q", got)
	}
	a, err := Open(Options{Workspace: ws.Root})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if err := a.Serve(t.Context(), func(context.Context, Request, io.Writer, io.Writer) int { return 0 }); err == nil ||
		!strings.Contains(err.Error(), "XDG_RUNTIME_DIR ("+session+") cannot hold Wrasse's runtime folder, as it is not private") {
		t.Fatalf("Serve: %v", err)
	}
	if fi, _ := os.Stat(session); fi.Mode().Perm() != 0o711 {
		t.Errorf("a session folder found open at start was changed to %04o", fi.Mode().Perm())
	}
}

// The watch puts a mode back as soon as it changes, without waiting for
// a tool call to end; the next call's result still says so, once.
func TestModesAreWatched(t *testing.T) {
	session := filepath.Dir(privateRuntime(t))
	a := openTest(t)
	serveNothing(t, a)
	ws := a.Workspace()
	if err := os.WriteFile(ws.Config(), []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		mode os.FileMode
	}{{ws.Database(), 0o644}, {ws.Root, 0o755}, {ws.Config(), 0o666}, {a.TokenPath(), 0o644},
		{a.SocketPath(), 0o777}, {filepath.Dir(a.SocketPath()), 0o755}, {session, 0o711}} {
		fi, err := os.Stat(c.path)
		if err != nil {
			t.Fatal(err)
		}
		want := fi.Mode().Perm()
		if err := os.Chmod(c.path, c.mode); err != nil {
			t.Fatal(err)
		}
		// Nothing here asks for a check: only the watch can put it back.
		// The loop ends as soon as it did; the bound only stops a broken
		// watch from hanging the test.
		for i := 0; ; i++ {
			fi, err := os.Stat(c.path)
			if err == nil && fi.Mode().Perm() == want {
				break
			}
			if i == 10000 {
				t.Fatalf("%s stayed %04o", c.path, fi.Mode().Perm())
			}
			time.Sleep(time.Millisecond)
		}
	}
	restored := a.KeepModes()
	if len(restored) != 7 {
		t.Errorf("KeepModes told %d repairs, want 7: %v", len(restored), restored)
	}
	if again := a.KeepModes(); len(again) != 0 {
		t.Errorf("told twice: %v", again)
	}
	// config.json replaced by a rename is watched through its folder.
	tmp := ws.Config() + ".new"
	if err := os.WriteFile(tmp, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, ws.Config()); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(ws.Config(), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		if fi, _ := os.Stat(ws.Config()); fi.Mode().Perm() == 0o600 {
			break
		}
		if i == 10000 {
			t.Fatal("a replaced config.json is not watched")
		}
		time.Sleep(time.Millisecond)
	}
}
