package childproc

import (
	"context"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Starting a child with its pipes, reaping it, and ending it: the input
// closed, a grace, then its process group killed, each wait bounded.

// Dir says which way a pipe runs, from the child's side.
type Dir int

const (
	// ChildReads is a pipe the parent writes and the child reads.
	ChildReads Dir = iota
	// ChildWrites is a pipe the child writes and the parent reads.
	ChildWrites
)

// Spec says how to start a child. What differs between the two kinds of
// child is here, not in Start: a plugin's process talks on fds 0–2 (Stdio)
// and is ended at once after its close answer (StopGrace 0); a program's
// talks on fds 3–5 (ExtraFiles) and leaves fds 1 and 2 to Cmd.
type Spec struct {
	// Cmd is the command: its path, arguments and Env; its Stdout and
	// Stderr when Stdio is false. Start adds to SysProcAttr (Configure)
	// and sets the pipes.
	Cmd *exec.Cmd
	// Stdio puts pipes on the child's fds 0, 1 and 2 whose parent ends
	// are served by this process's poller (Pipe).
	Stdio bool
	// Stderr, without Stdio, puts one such pipe on the child's fds 1 and
	// 2 both, for a child that writes only its log and crash report there.
	Stderr bool
	// ExtraFiles puts a blocking pipe (BlockingPipe) on each of the
	// child's fds 3, 4, … running the way given.
	ExtraFiles []Dir
	// StopGrace is how long Stop waits, after closing the child's input,
	// for it to end by itself before killing its process group.
	StopGrace time.Duration
	// ExitWait bounds each wait for a killed child to be reaped.
	ExitWait time.Duration
	// KillGroupOnExit kills the process group once the child was reaped:
	// whatever it started goes with it.
	KillGroupOnExit bool
}

// Process is one running child and the parent's ends of its pipes.
type Process struct {
	Cmd *exec.Cmd
	// Stdin, Stdout and Stderr are the parent's ends of the child's fds
	// 0–2 when Spec.Stdio was set; Stderr that of fds 1 and 2 when
	// Spec.Stderr was.
	Stdin, Stdout, Stderr *os.File
	// Extra holds the parent's ends of Spec.ExtraFiles, in order.
	Extra []*os.File

	spec      Spec
	exited    chan struct{}
	exitErr   error
	closeOnce sync.Once
}

// Start starts the child of s with its pipes and reaps it when it ends.
func Start(s Spec) (*Process, error) {
	p := &Process{Cmd: s.Cmd, spec: s, exited: make(chan struct{})}
	var childEnds, hostEnds []*os.File
	fail := func(err error) (*Process, error) {
		closeAll(childEnds...)
		closeAll(hostEnds...)
		return nil, err
	}
	if s.Stdio {
		var ends [3]*os.File // the child's ends of stdin, stdout, stderr
		for i, hostReads := range []bool{false, true, true} {
			h, c, err := Pipe(hostReads)
			if err != nil {
				return fail(err)
			}
			hostEnds, childEnds = append(hostEnds, h), append(childEnds, c)
			ends[i] = c
		}
		p.Stdin, p.Stdout, p.Stderr = hostEnds[0], hostEnds[1], hostEnds[2]
		// *os.File pipes: the child writes straight into them, so Wait waits
		// for the process only, not for copies a grandchild could hold open.
		s.Cmd.Stdin, s.Cmd.Stdout, s.Cmd.Stderr = ends[0], ends[1], ends[2]
	} else if s.Stderr {
		h, c, err := Pipe(true)
		if err != nil {
			return fail(err)
		}
		hostEnds, childEnds = append(hostEnds, h), append(childEnds, c)
		p.Stderr = h
		s.Cmd.Stdout, s.Cmd.Stderr = c, c
	}
	for _, d := range s.ExtraFiles {
		rd, wr, err := BlockingPipe()
		if err != nil {
			return fail(err)
		}
		h, c := wr, rd
		if d == ChildWrites {
			h, c = rd, wr
		}
		hostEnds, childEnds = append(hostEnds, h), append(childEnds, c)
		p.Extra = append(p.Extra, h)
		s.Cmd.ExtraFiles = append(s.Cmd.ExtraFiles, c)
	}
	Configure(s.Cmd)
	if err := s.Cmd.Start(); err != nil {
		return fail(err)
	}
	closeAll(childEnds...)
	go p.wait()
	return p, nil
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		if f != nil {
			f.Close()
		}
	}
}

func (p *Process) wait() {
	p.exitErr = p.Cmd.Wait() // published by close(p.exited)
	if p.spec.KillGroupOnExit {
		KillTree(p.Cmd.Process)
	}
	close(p.exited)
}

// Exited is closed once the child was reaped.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// ExitErr is Wait's error; nil until Exited is closed.
func (p *Process) ExitErr() error {
	select {
	case <-p.exited:
		return p.exitErr
	default:
		return nil
	}
}

// Kill kills the child and its process group.
func (p *Process) Kill() { KillTree(p.Cmd.Process) }

// CloseInput closes the parent's ends the child reads (its stdin and the
// ChildReads extra pipes): a child that serves its parent sees the end of
// its input and returns.
func (p *Process) CloseInput() {
	p.closeOnce.Do(func() {
		closeAll(p.Stdin)
		for i, d := range p.spec.ExtraFiles {
			if d == ChildReads {
				closeAll(p.Extra[i])
			}
		}
	})
}

// Stop ends the child: it closes its input, waits up to StopGrace (or
// until ctx is done) for it to end, then kills its process group and
// waits up to ExitWait for it to be reaped, killing it and waiting once
// more if it is not. It reports whether the child was reaped.
func (p *Process) Stop(ctx context.Context) bool {
	p.CloseInput()
	if p.spec.StopGrace > 0 {
		t := time.NewTimer(p.spec.StopGrace)
		select {
		case <-p.exited:
		case <-ctx.Done():
		case <-t.C:
		}
		t.Stop()
	}
	// Killed even when it ended by itself: what it started in its group
	// goes too.
	p.Kill()
	if p.AwaitExit() {
		return true
	}
	p.Kill()
	return p.AwaitExit()
}

// AwaitExit waits up to ExitWait for the child to be reaped and reports
// whether it was.
func (p *Process) AwaitExit() bool {
	t := time.NewTimer(p.spec.ExitWait)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}
