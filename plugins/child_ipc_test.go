package plugins

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Calls from several goroutines to one plugin process each get their own
// answer (the reading of the process's messages passes between callers).
func TestChildConcurrentCalls(t *testing.T) {
	rt, err := childTestHost(&recorder{}, childArg).Load(t.Context(), request(fixture(t, "good"), false))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	const callers, calls = 6, 40
	var wg sync.WaitGroup
	errs := make(chan error, callers*calls)
	for g := range callers {
		wg.Go(func() {
			for i := range calls {
				want := fmt.Sprintf("caller %d call %d", g, i)
				args, _ := json.Marshal(map[string]string{"text": want})
				res, err := rt.Call(t.Context(), "echo", args)
				if err != nil || res.Content != want {
					errs <- fmt.Errorf("%s: %+v, %v", want, res, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := starts(t, rt); n != 1 {
		t.Errorf("%d processes started; want 1", n)
	}
}

// Close while a call runs: the call is reading the process's messages, so
// it passes the close's reply on; Close returns, and the call fails as
// closed rather than waiting for its deadline.
func TestChildCloseDuringCall(t *testing.T) {
	c := fixture(t, "timeout")
	c.Manifest.Tools[1].Timeout = time.Minute // polite waits for its context
	rt, err := childTestHost(&recorder{}, childArg).Load(t.Context(), request(c, false))
	if err != nil {
		t.Fatal(err)
	}
	cr := rt.(*childRuntime)
	done := make(chan error, 1)
	go func() {
		_, err := rt.Call(t.Context(), "polite", nil)
		done <- err
	}()
	// Until the call is the one reading (its message is sent).
	for !reading(cr) {
		runtime.Gosched()
	}
	if err := rt.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := <-done; !errors.Is(err, ErrClosed) {
		t.Fatalf("Call: %v; want ErrClosed", err)
	}
}

// reading reports whether a call waits on cr's process and holds the
// reading of its messages.
func reading(cr *childRuntime) bool {
	cr.mu.Lock()
	p := cr.cur
	cr.mu.Unlock()
	if p == nil {
		return false
	}
	p.mu.Lock()
	n := len(p.waiting)
	p.mu.Unlock()
	return n > 0 && len(p.readTok) == 1
}

// A plugin process that dies while a program it started (in a session of
// its own, out of reach of the kill of its group) holds its stdout open
// is reported as crashed at once: the host does not wait for an end of
// the pipe that does not come.
func TestChildDiesWhileProgramHoldsStdout(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil || runtime.GOOS == "windows" {
		t.Skip("needs the setsid program")
	}
	// The program opens the plugin process's stdout itself (a plugin
	// cannot hand it over), says so, and outlives the call's deadline; its
	// argument marks it for the cleanup.
	hold := fmt.Sprintf("120.%09d", time.Now().Nanosecond())
	t.Cleanup(func() { killPrograms(t, hold) })
	src := wrap(`"io"; "os"; "os/exec"; "strconv"`, `cmd := exec.Command("setsid", "sh", "-c", "exec 3>/proc/$PPID/fd/1; echo held; exec sleep `+hold+`")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	if _, err := io.ReadFull(out, make([]byte, 5)); err != nil {
		return nil, err
	}
	exec.Command("kill", "-9", strconv.Itoa(os.Getpid())).Run()
	<-ctx.Done()
	return sdk.Text("still alive"), nil`)
	c := inline(t, oneTool, map[string]string{"main.go": src})
	c.Manifest.Tools[0].Timeout = time.Minute
	rt, err := childTestHost(&recorder{}, childArg).Load(t.Context(), request(c, false, "exec", "files"))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	// At the deadline the call would fail as a timeout instead (the
	// program holds the pipe for longer).
	_, err = rt.Call(t.Context(), "run", nil)
	if !errors.Is(err, ErrPluginCrashed) || !strings.Contains(err.Error(), "signal: killed") {
		t.Fatalf("Call: %v; want a crash naming the signal", err)
	}
}

// killPrograms kills the processes whose command line holds mark.
func killPrograms(t *testing.T, mark string) {
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		if b, err := os.ReadFile("/proc/" + d.Name() + "/cmdline"); err == nil && strings.Contains(string(b), mark) {
			if p, err := os.FindProcess(pid); err == nil {
				_ = p.Kill()
			}
		}
	}
}
