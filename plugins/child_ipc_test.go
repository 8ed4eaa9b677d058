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
// the pipe that does not come. The test kills the process once the
// program holds the pipe: the plugin's own programs may not signal it
// (Landlock's signal scope).
func TestChildDiesWhileProgramHoldsStdout(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil || runtime.GOOS == "windows" {
		t.Skip("needs the setsid program")
	}
	// The program opens the plugin process's stdout itself (a plugin
	// cannot hand it over), says so, and outlives the call's deadline; its
	// argument marks it for the cleanup. The plugin names its own pid:
	// setsid forks when its caller leads a process group, and then $PPID
	// is setsid's parent half, which may have exited already.
	hold := fmt.Sprintf("120.%09d", time.Now().Nanosecond())
	t.Cleanup(func() { killPrograms(t, hold) })
	// Landlock gives each thread of the plugin process a domain of its
	// own (each thread restricts itself), and a program may open only the
	// /proc files of a thread in its own domain: the one that started it.
	// So the program tries each thread's fd/1 (/proc/PID/fd is the main
	// thread's, which the plugin's goroutines never run on in wrasse).
	src := wrap(`"fmt"; "io"; "os"; "os/exec"; "strconv"`, `cmd := exec.Command("setsid", "sh", "-c", "exec 2>&1; for t in /proc/"+strconv.Itoa(os.Getpid())+"/task/*; do if (: >$t/fd/1) 2>/dev/null; then exec 3>$t/fd/1; echo held; exec sleep `+hold+`; fi; done; echo no thread")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	said := make([]byte, 200)
	n, _ := io.ReadAtLeast(out, said, 5)
	if string(said[:n]) != "held\n" {
		return sdk.Text("setup: " + string(said[:n])), nil
	}
	fmt.Println("`+readyMark+`")
	<-ctx.Done()
	return sdk.Text("still alive"), nil`)
	c := inline(t, oneTool, map[string]string{"main.go": src})
	c.Manifest.Tools[0].Timeout = time.Minute
	// Should the program find no thread to hold, the plugin answers
	// "setup: ..." without dying, and the scenario is tried again.
	for attempt := 1; ; attempt++ {
		log := &recorder{}
		rt, err := childTestHost(log, childArg).Load(t.Context(), request(c, false, "exec", "files"))
		if err != nil {
			t.Fatal(err)
		}
		killWhenReady(t, rt, log)
		// At the deadline the call would fail as a timeout instead (the
		// program holds the pipe for longer).
		res, err := rt.Call(t.Context(), "run", nil)
		rt.Close()
		if err == nil && strings.HasPrefix(res.Content, "setup: ") && attempt < 10 {
			t.Logf("attempt %d: the program could not hold the pipe (%s); again", attempt, strings.TrimSpace(res.Content))
			continue
		}
		if !errors.Is(err, ErrPluginCrashed) || !strings.Contains(err.Error(), "signal: killed") {
			t.Fatalf("Call: %v (result %q); want a crash naming the signal", err, res.Content)
		}
		return
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
