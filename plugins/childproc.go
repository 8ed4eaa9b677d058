package plugins

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wrasse-app/wrasse/plugins/sandbox"

	"github.com/wrasse-app/wrasse/plugins/internal/childproc"
)

// The plugin process itself: starting it with its pipes, reaping it, and
// ending it (gracefully, then by killing its process group), each wait
// bounded.

// childProc is one running plugin process and its pipes.
//
// Its messages are read by the goroutine waiting for a reply, in its own
// read of the pipe (one reader at a time: readTok): the reply wakes that
// goroutine and no other, where a reader goroutine handing replies over a
// channel woke two, often on two threads. Whatever else it reads (a reply
// to another waiter, a secret request) it passes on; another waiter takes
// over the reading when it is done.
type childProc struct {
	cmd    *exec.Cmd
	proc   *childproc.Process
	log    *slog.Logger
	w      msgWriter
	stdin  childproc.FileIO
	stdout childproc.DeadlineReader
	// stderr is closed by finish too: a program the plugin started may
	// hold it open long after the process.
	stderr  *os.File
	secrets func(string) (string, error)

	// readTok is held by the goroutine reading stdout; rd is its.
	readTok chan struct{}
	rd      *childproc.MsgReader

	mu      sync.Mutex
	nextID  uint64
	waiting map[uint64]*wireMsg

	// gone is closed when no more messages can come (stdout ended or
	// carried garbage); goneErr says why.
	gone     chan struct{}
	goneOnce sync.Once
	goneErr  error
	// exited is closed once the process was reaped (proc.ExitErr is
	// Wait's error).
	exited <-chan struct{}
	// errDone is closed when stderr ended.
	errDone chan struct{}
	logs    logCount
	out     *childproc.Output

	finishOnce sync.Once
	// crashing is set when a crash is being reported (with the raw
	// output); reported once that output was logged.
	crashing, reported atomic.Bool
	// asking counts the secret requests being answered.
	asking atomic.Int32
}

// startChildProc starts argv with env and its three pipes. With a
// launcher (Options.Sandbox, or its default from Child), it starts
// through it in the mount namespace a command confined to pol gets
// (sandbox.NamespaceCommand): what Landlock cannot keep from the plugin
// (a granted repository's .git/config and hooks, which the person's own
// git runs) is a read-only mount there. The process confines itself to
// pol once it has its plugin (childServer.confine).
func startChildProc(argv, env []string, launcher []string, pol sandbox.Policy, log *slog.Logger, secrets func(string) (string, error)) (*childProc, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	// The process is the Wrasse executable, whose GUI toolkit logs an
	// error at init under LANG=C.UTF-8; ServeChild puts env back.
	if env == nil {
		// nil would be this process's environment (exec and
		// NamespaceCommand read it so), API keys and all.
		env = []string{}
	}
	cmd.Env = env
	if len(launcher) > 0 {
		if err := sandbox.NamespaceCommand(cmd, launcher, pol); err != nil {
			return nil, err
		}
	} else {
		cmd.Env = sandbox.LauncherEnv(env)
	}
	// The system refused the namespace for now (none left, too many
	// processes): the plugin does not start, saying why.
	if cmd.Err != nil {
		return nil, cmd.Err
	}
	// StopGrace 0: the process is ended once it answered close (or could
	// not), its log up to then relayed already. Whatever the plugin
	// started in its process group goes when it is reaped.
	proc, err := childproc.Start(childproc.Spec{Cmd: cmd, Stdio: true, ExitWait: childExitWait, KillGroupOnExit: true})
	if err != nil {
		return nil, err
	}
	stdin := childproc.HostEnd(proc.Stdin)
	p := &childProc{cmd: cmd, proc: proc, log: log, w: newMsgWriter(stdin, 0), stdin: stdin, stdout: childproc.HostReader(proc.Stdout), stderr: proc.Stderr, secrets: secrets,
		readTok: make(chan struct{}, 1), waiting: map[uint64]*wireMsg{},
		gone: make(chan struct{}), exited: proc.Exited(), errDone: make(chan struct{})}
	p.rd = childproc.NewMsgReader(p.stdout, maxHostInLine)
	p.out = childproc.NewOutput(maxCrashLines, maxCrashBytes)
	p.logs.init()
	go p.readStderr(proc.Stderr)
	go p.wakeReaderAtExit()
	return p, nil
}

// wakeReaderAtExit wakes a reader waiting for the end of stdout once the
// process was reaped: a program the plugin started outside its group
// could hold stdout open. The reader reads what is left and stops.
func (p *childProc) wakeReaderAtExit() {
	<-p.exited
	_ = p.stdout.SetReadDeadline(time.Now())
}

// kill ends the process (and its process group where there is one).
func (p *childProc) kill() {
	p.proc.Kill()
	p.stdin.Close()
}

// shutdown ends a process that has nothing more to do (it answered
// close, or failed to load). Its log up to its answer was relayed already,
// so it is killed rather than waited for.
func (p *childProc) shutdown() {
	p.kill()
	p.finish()
}

// finish waits (bounded) for the process and its pipes to end and logs
// any raw output (the Go runtime's, when it died).
func (p *childProc) finish() {
	p.finishOnce.Do(func() {
		p.awaitEnd()
		// A reader still there is woken by the close and stops.
		p.stdout.Close()
		p.stderr.Close()
		if out := p.rawOutput(); out != "" && !p.crashing.Load() {
			p.log.Warn("plugin process output", "output", out)
		}
	})
}

// awaitEnd waits for the process to be reaped and its output read, killing
// it if it lingers; every wait is bounded.
func (p *childProc) awaitEnd() {
	p.proc.Stop(context.Background())
	select {
	case <-p.errDone:
	case <-time.After(childExitWait):
	}
}
