//go:build unix

package childproc

import (
	"context"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// hangBound only ends a test that would otherwise hang; nothing is timed.
const hangBound = 20 * time.Second

// Stop ends a child and everything in its process group, whether the
// child serves its input (it ends by itself when the input closes, within
// the grace) or ignores it and has started a program of its own (killed,
// with the grandchild, once the grace or ctx is over).
func TestStopEndsTheProcessGroup(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name  string
		argv  []string
		grace time.Duration
		ctx   context.Context
		// killed says the child was killed rather than ending by itself.
		killed bool
	}{
		// cat ends at the end of its input; the grace waits for it.
		{name: "serves its input", argv: []string{"sh", "-c", "echo started; exec cat"}, grace: time.Hour, ctx: context.Background()},
		// sh reads nothing; its background sleep, a grandchild, holds
		// stdout open as long as it lives. Stop waits for "started", so
		// the grandchild exists when it is called.
		{name: "ignores the close, short grace", argv: []string{"sh", "-c", "sleep 1000 & echo started; sleep 1000"},
			grace: time.Millisecond, ctx: context.Background(), killed: true},
		{name: "ignores the close, ctx done", argv: []string{"sh", "-c", "sleep 1000 & echo started; sleep 1000"},
			grace: time.Hour, ctx: cancelled, killed: true},
		{name: "ignores the close, no grace", argv: []string{"sh", "-c", "sleep 1000 & echo started; sleep 1000"},
			ctx: context.Background(), killed: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(tt.argv[0], tt.argv[1:]...)
			p, err := Start(Spec{Cmd: cmd, Stdio: true, StopGrace: tt.grace, ExitWait: hangBound})
			if err != nil {
				t.Fatalf("Start: %v", err)
			}
			defer p.Stdout.Close()
			defer p.Stderr.Close()
			line := make([]byte, len("started\n"))
			if _, err := io.ReadFull(p.Stdout, line); err != nil || string(line) != "started\n" {
				t.Fatalf("first line of the child: %q, %v", line, err)
			}
			stopped := make(chan bool, 1)
			go func() { stopped <- p.Stop(tt.ctx) }()
			select {
			case reaped := <-stopped:
				if !reaped {
					t.Fatal("Stop: the child was not reaped")
				}
			case <-time.After(2 * hangBound):
				t.Fatal("Stop did not return")
			}
			err = p.ExitErr()
			if tt.killed != (err != nil && strings.Contains(err.Error(), "killed")) {
				t.Errorf("ExitErr = %v; killed should be %v", err, tt.killed)
			}
			// The end of stdout: every process holding it (the child and
			// its grandchild) is gone.
			read := make(chan error, 1)
			go func() {
				_, err := io.ReadAll(p.Stdout)
				read <- err
			}()
			select {
			case err := <-read:
				if err != nil {
					t.Fatalf("reading stdout: %v", err)
				}
			case <-time.After(hangBound):
				t.Fatal("stdout still open after Stop: a process of the group survived")
			}
		})
	}
}

// ExtraFiles pipes run the way asked: the child reads fd 3 and writes
// fd 4, and closing the input (CloseInput) ends its reading.
func TestStartExtraFiles(t *testing.T) {
	cmd := exec.Command("sh", "-c", "cat <&3 >&4")
	p, err := Start(Spec{Cmd: cmd, ExtraFiles: []Dir{ChildReads, ChildWrites}, ExitWait: hangBound})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	defer p.Stop(context.Background())
	if _, err := io.WriteString(p.Extra[0], "ping\n"); err != nil {
		t.Fatalf("write fd 3: %v", err)
	}
	p.CloseInput()
	got, err := io.ReadAll(p.Extra[1])
	if err != nil {
		t.Fatalf("read fd 4: %v", err)
	}
	if string(got) != "ping\n" {
		t.Fatalf("fd 4 = %q; want %q", got, "ping\n")
	}
	<-p.Exited()
	if err := p.ExitErr(); err != nil {
		t.Fatalf("ExitErr = %v; want nil", err)
	}
}
