package assistant

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

func TestInstanceForwarding(t *testing.T) {
	a := openTest(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan struct{})
	release := make(chan struct{})
	err := a.Serve(ctx, func(ctx context.Context, req Request, stdout, stderr io.Writer) int {
		if len(req.Args) == 1 && req.Args[0] == "hang" {
			close(started)
			select {
			case <-ctx.Done(): // the client went away
				close(release)
			case <-time.After(10 * time.Second):
			}
			return 1
		}
		fmt.Fprintf(stdout, "args=%s stdin=%s dir=%s\n", strings.Join(req.Args, ","), req.Stdin, req.Dir)
		fmt.Fprintln(stderr, "a warning")
		return 3
	})
	if err != nil {
		t.Fatal(err)
	}
	var out, errw bytes.Buffer
	code, err := Forward(context.Background(), a.Workspace(), Request{Args: []string{"caps", "list"}, Stdin: []byte("piped"), Dir: "/here"}, &out, &errw)
	if err != nil || code != 3 {
		t.Fatalf("Forward = %d, %v", code, err)
	}
	if out.String() != "args=caps,list stdin=piped dir=/here\n" || errw.String() != "a warning\n" {
		t.Fatalf("out %q err %q", out.String(), errw.String())
	}

	// A client that goes away cancels its command.
	cctx, ccancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		Forward(cctx, a.Workspace(), Request{Args: []string{"hang"}}, io.Discard, io.Discard)
	}()
	<-started
	ccancel()
	<-done
	select {
	case <-release:
	case <-time.After(5 * time.Second):
		t.Fatal("the forwarded command was not cancelled when its client left")
	}
}

func TestForwardWithoutServerIsQuick(t *testing.T) {
	ws := workspace.Workspace{Root: t.TempDir()}
	_, err := Forward(context.Background(), ws, Request{Args: []string{"caps", "list"}}, io.Discard, io.Discard)
	if !errors.Is(err, ErrNotRunning) {
		t.Fatalf("Forward with nobody serving: %v", err)
	}
}

func TestSecondOpenFailsFastWithLocked(t *testing.T) {
	a := openTest(t)
	start := time.Now()
	_, err := Open(Options{Workspace: a.Workspace().Root, LockTimeout: 100 * time.Millisecond})
	if !errors.Is(err, store.ErrLocked) {
		t.Fatalf("second Open: %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatal("a second Open waited far past its lock timeout")
	}
}

// envRuntime is the runtime folder the environment names now.
func envRuntime() workspace.Runtime {
	rt, _ := workspace.ChooseRuntime(os.Getenv)
	return rt
}

// The socket and its token live in the user's private runtime folder,
// named by a hash of the workspace, however deep the workspace is.
func TestSocketPathInTheRuntimeFolder(t *testing.T) {
	dir := envRuntime().Dir
	for _, root := range []string{"/tmp/ws", "/" + strings.Repeat("deep/", 40)} {
		ws := workspace.Workspace{Root: root}
		sock, tok := SocketPath(envRuntime(), ws), TokenPath(envRuntime(), ws)
		if filepath.Dir(sock) != dir || filepath.Dir(tok) != dir || len(sock) >= 100 {
			t.Errorf("%s: socket %s, token %s; runtime folder %s", root, sock, tok, dir)
		}
	}
	if SocketPath(envRuntime(), workspace.Workspace{Root: "/a"}) == SocketPath(envRuntime(), workspace.Workspace{Root: "/b"}) {
		t.Error("two workspaces share a socket")
	}
}

func TestCloseStopsServingAndRemovesTheSocket(t *testing.T) {
	a, err := Open(Options{Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Serve(context.Background(), func(context.Context, Request, io.Writer, io.Writer) int { return 0 }); err != nil {
		t.Fatal(err)
	}
	ws := a.Workspace()
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	// Close waited: nobody answers now, and the socket file is gone.
	if _, err := Forward(context.Background(), ws, Request{Args: []string{"x"}}, io.Discard, io.Discard); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("after Close: %v", err)
	}
	if _, err := os.Stat(SocketPath(envRuntime(), ws)); !os.IsNotExist(err) {
		t.Fatalf("socket still there: %v", err)
	}
}
