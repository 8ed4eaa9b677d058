package store

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// The crash test re-executes this test binary as a child that writes a
// conversation event by event, printing "committed N" after each write
// returns; the parent SIGKILLs it at seeded pseudo-random points and checks
// the file after every kill.
const (
	envCrashDB  = "WRASSE_STORE_CRASH_DB"
	envCrashRun = "WRASSE_STORE_CRASH_RUN"
)

type crashOp struct {
	kind  string // "append", "text" (to this run's open stream), "finish"
	event Event
	text  string
}

// crashOps is the child's script for one run; the parent replays it on a
// model to know what each prefix of it must leave in the file.
func crashOps(run int) []crashOp {
	var ops []crashOp
	add := func(e Event) { ops = append(ops, crashOp{kind: "append", event: e}) }
	pieces := func(n int, tag string) {
		for j := range n {
			ops = append(ops, crashOp{kind: "text", text: fmt.Sprintf(" %s%d.%d", tag, run, j)})
		}
	}
	add(Event{Type: EventUserMessage, Text: fmt.Sprintf("run %d: question", run)})
	add(Event{Type: EventAssistantText, Status: StatusStreaming, Text: fmt.Sprintf("answer %d:", run)})
	pieces(4, "a")
	ops = append(ops, crashOp{kind: "finish"})
	id := fmt.Sprintf("call_%d", run)
	add(Event{Type: EventToolCall, ToolCallID: id, ToolName: "shell", Arguments: json.RawMessage(fmt.Sprintf(`{"run":%d}`, run))})
	add(Event{Type: EventApproval, ToolCallID: id, ToolName: "shell", Decision: &Decision{Kind: ApprovedOnce}})
	add(Event{Type: EventToolResult, ToolCallID: id, ToolName: "shell", Text: fmt.Sprintf("output %d", run), IsError: run%3 == 0})
	add(Event{Type: EventUsage, Model: "m", Usage: &provider.Usage{InputTokens: run, OutputTokens: 2 * run}})
	add(Event{Type: EventAssistantText, Status: StatusStreaming, Text: ""})
	pieces(3, "b")
	ops = append(ops, crashOp{kind: "finish"})
	add(Event{Type: EventUserMessage, Text: fmt.Sprintf("run %d: follow-up", run)})
	// A reply the child never finishes: only a kill ends it.
	add(Event{Type: EventAssistantText, Status: StatusStreaming, Text: fmt.Sprintf("long %d:", run)})
	pieces(10, "c")
	return ops
}

// applyOps replays ops on a copy of events, as the store should, and then
// turns replies left streaming into interrupted ones, as Open does.
func applyOps(events []Event, ops []crashOp) []Event {
	out := slicesClone(events)
	stream := -1
	for _, op := range ops {
		switch op.kind {
		case "append":
			e := op.event
			e.Seq = uint64(len(out) + 1)
			out = append(out, e)
			if e.Status == StatusStreaming {
				stream = len(out) - 1
			}
		case "text":
			out[stream].Text += op.text
		case "finish":
			out[stream].Status = StatusComplete
		}
	}
	for i := range out {
		if out[i].Status == StatusStreaming {
			out[i].Status = StatusInterrupted
		}
	}
	return out
}

func slicesClone(e []Event) []Event { return append([]Event(nil), e...) }

// TestHelperProcess is the child side of TestCrashConsistency.
func TestHelperProcess(t *testing.T) {
	path := os.Getenv(envCrashDB)
	if path == "" {
		t.Skip("helper process for TestCrashConsistency")
	}
	run, _ := strconv.Atoi(os.Getenv(envCrashRun))
	if err := crashChild(path, run); err != nil {
		fmt.Fprintln(os.Stderr, "crash child:", err)
		os.Exit(2)
	}
	os.Exit(0)
}

func crashChild(path string, run int) error {
	db, err := Open(path, Options{})
	if err != nil {
		return err
	}
	defer db.Close()
	convs, err := db.ListConversations()
	if err != nil || len(convs) != 1 {
		return fmt.Errorf("want the one conversation the parent made: %v, %v", convs, err)
	}
	id := convs[0].ID
	var stream uint64
	for i, op := range crashOps(run) {
		switch op.kind {
		case "append":
			e, err := db.AppendEvent(id, op.event)
			if err != nil {
				return err
			}
			if e.Status == StatusStreaming {
				stream = e.Seq
			}
		case "text":
			err = db.AppendText(id, stream, op.text)
		case "finish":
			err = db.FinishEvent(id, stream, StatusComplete)
		}
		if err != nil {
			return err
		}
		// One write per line: atomic on a pipe.
		if _, err := fmt.Fprintf(os.Stdout, "committed %d\n", i+1); err != nil {
			return err
		}
	}
	// Wait to be killed (stdin stays open until then).
	_, _ = io.Copy(io.Discard, os.Stdin)
	return nil
}

func TestCrashConsistency(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" || runtime.GOOS == "ios" {
		t.Skip("cannot run a child process here")
	}
	path := filepath.Join(t.TempDir(), FileName)
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	conv := mustConv(t, db, "m")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	kills := 24
	if testing.Short() {
		kills = 8
	}
	rng := rand.New(rand.NewPCG(20250301, 7)) // fixed seed: same kill points every run
	var model []Event
	var points []string // "k→m": kill requested after k reports, m reported in all
	for run := 1; run <= kills; run++ {
		ops := crashOps(run)
		k := rng.IntN(len(ops) + 1) // kill after reading k "committed" lines
		committed, stderr := runAndKill(t, path, run, k, len(ops))
		points = append(points, fmt.Sprintf("%d→%d", k, committed))

		db, err := Open(path, Options{})
		if err != nil {
			t.Fatalf("run %d: reopen after kill: %v", run, err)
		}
		got, err := db.Events(conv.ID)
		if err != nil {
			t.Fatal(err)
		}
		c, err := db.GetConversation(conv.ID)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if got[i].Time.IsZero() {
				t.Errorf("run %d: event %d has no time", run, got[i].Seq)
			}
			got[i].Time = time.Time{} // wall-clock times are not modelled
		}
		// Every reported commit is there; the one write after the last
		// report may or may not have committed before the kill.
		candidates := [][]Event{applyOps(model, ops[:committed])}
		if committed < len(ops) {
			candidates = append(candidates, applyOps(model, ops[:committed+1]))
		}
		matched := -1
		for i, want := range candidates {
			if reflect.DeepEqual(got, want) {
				matched = i
				break
			}
		}
		if matched < 0 {
			t.Fatalf("run %d (killed after %d/%d reported commits): stored events match no allowed state\n got: %s\nwant: %s\n  or: %s\nchild stderr: %s",
				run, committed, len(ops), dump(got), dump(candidates[0]), dump(candidates[len(candidates)-1]), stderr)
		}
		if c.EventCount != len(got) {
			t.Fatalf("run %d: conversation counts %d events, %d stored", run, c.EventCount, len(got))
		}
		model = candidates[matched]
	}

	interrupted := 0
	for _, e := range model {
		if e.Status == StatusInterrupted {
			interrupted++
			if !strings.HasPrefix(e.Text, "answer") && !strings.HasPrefix(e.Text, "long") && !strings.HasPrefix(e.Text, " b") && e.Text != "" {
				t.Errorf("interrupted reply with unexpected text %q", e.Text)
			}
		}
	}
	if interrupted == 0 {
		t.Error("no kill landed mid-stream; the seed no longer exercises interrupted replies")
	}
	t.Logf("%d kills at %s; %d events, %d interrupted replies", kills, strings.Join(points, " "), len(model), interrupted)
}

// runAndKill runs the child for one run, kills it after k reported commits,
// and returns how many commits it reported in all.
func runAndKill(t *testing.T, path string, run, k, total int) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), envCrashDB+"="+path, envCrashRun+"="+strconv.Itoa(run))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	n := 0
	count := func(line string) {
		if v, ok := strings.CutPrefix(line, "committed "); ok {
			if i, err := strconv.Atoi(v); err == nil && i == n+1 {
				n = i
				return
			}
			t.Errorf("run %d: out-of-order report %q after %d", run, line, n)
		}
	}
	for n < k && sc.Scan() {
		count(sc.Text())
	}
	if n < k {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("run %d: child stopped after %d of %d commits: %s", run, n, k, stderr.String())
	}
	_ = cmd.Process.Kill() // SIGKILL on Unix
	for sc.Scan() {
		count(sc.Text())
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("run %d: wait: %v", run, err)
	}
	if exit != nil && exit.Exited() {
		// It ended on its own rather than by the kill: only fine if it
		// finished its script cleanly (it cannot: it waits on stdin).
		t.Fatalf("run %d: child exited with %v: %s", run, exit, stderr.String())
	}
	if n > total {
		t.Fatalf("run %d: %d reports for %d ops", run, n, total)
	}
	return n, stderr.String()
}

func dump(evs []Event) string {
	var b strings.Builder
	for _, e := range evs {
		fmt.Fprintf(&b, "\n  %d %s %q %q", e.Seq, e.Type, e.Text, e.Status)
	}
	return b.String()
}
