package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
)

const sectionMemory = "memory"

// registryMemTarget bounds the peak resident memory of a process holding a
// 1,000-capability registry.
const registryMemTarget = 60 // MB

// historyMessages is the length of the stored conversation.
const historyMessages = 5000

// ChildEnv is set (to "1") in the environment of a measuring child, so a
// program — or a test binary's TestMain — knows to call RunChild.
const ChildEnv = "WRASSE_BENCH_CHILD"

// Hidden subcommands served by RunChild.
const (
	ChildIdle     = "mem-idle"
	ChildRegistry = "mem-registry"
	ChildHistory  = "mem-history"
)

// ChildReport is what a memory child prints, as one JSON object.
type ChildReport struct {
	// VmHWMKB is the peak resident set in KiB; 0 where the OS does not say.
	VmHWMKB int    `json:"vmhwmKB"`
	Detail  string `json:"detail,omitempty"`
}

// RunChild serves a hidden subcommand: build the state it names, then
// print a ChildReport with the process's peak resident memory.
//
//	mem-idle           nothing (the baseline)
//	mem-registry DIR   open a registry on workspace DIR as the app does,
//	                   render the index, build the search index, search once
//	mem-history FILE   open the database FILE and load its longest
//	                   conversation whole, converted to provider messages
func RunChild(ctx context.Context, args []string, out io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: a child needs a subcommand (%s, %s DIR, %s FILE)", ErrUsage, ChildIdle, ChildRegistry, ChildHistory)
	}
	var rep ChildReport
	var keep any
	switch {
	case args[0] == ChildIdle && len(args) == 1:
	case args[0] == ChildRegistry && len(args) == 2:
		reg, err := openRegistry(args[1], newHost())
		if err != nil {
			return err
		}
		defer reg.Close()
		sess := reg.NewSession("bench", nil)
		idx := reg.Index(sess)
		res, err := reg.Search(sess, "send an email with an attachment", cerebellum.SearchLimit)
		if err != nil {
			return err
		}
		rep.Detail = fmt.Sprintf("%d capabilities, %d tools, index %d bytes, %d matches", len(reg.List()), reg.Snapshot().ToolCount(), len(idx), len(res.Matches))
		keep = reg
	case args[0] == ChildExecRSS && len(args) >= 2: // scale_registry.go
		if err := runExecRSS(ctx, args[1:], &rep); err != nil {
			return err
		}
		return json.NewEncoder(out).Encode(rep)
	case args[0] == ChildHistory && len(args) == 2:
		msgs, detail, err := loadHistory(args[1])
		if err != nil {
			return err
		}
		rep.Detail = detail
		keep = msgs
	default:
		return fmt.Errorf("%w: unknown child command %q", ErrUsage, strings.Join(args, " "))
	}
	kB, ok, err := readVmHWM()
	if err != nil {
		return err
	}
	if ok {
		rep.VmHWMKB = kB
	}
	runtime.KeepAlive(keep)
	return json.NewEncoder(out).Encode(rep)
}

// loadHistory opens a database and loads its longest conversation whole, as
// the UI does when opening it and the loop does before a request.
func loadHistory(path string) ([]provider.Message, string, error) {
	if !isFile(path) {
		return nil, "", fmt.Errorf("no database at %s", path)
	}
	db, err := store.Open(path, store.Options{})
	if err != nil {
		return nil, "", err
	}
	defer db.Close()
	convs, err := db.ListConversations()
	if err != nil {
		return nil, "", err
	}
	if len(convs) == 0 {
		return nil, "", fmt.Errorf("%s holds no conversation", path)
	}
	best := convs[0]
	for _, c := range convs[1:] {
		if c.EventCount > best.EventCount {
			best = c
		}
	}
	evs, err := db.Events(best.ID)
	if err != nil {
		return nil, "", err
	}
	msgs := store.ToMessages(evs)
	return msgs, fmt.Sprintf("%d events, %d provider messages", len(evs), len(msgs)), nil
}

// readVmHWM returns the peak resident set of this process in KiB; ok is
// false where /proc/self/status does not exist (not Linux).
func readVmHWM() (kB int, ok bool, err error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		if os.IsNotExist(err) {
			return 0, false, nil
		}
		return 0, false, err
	}
	defer f.Close()
	kB, ok = procField(f, "VmHWM")
	return kB, ok, nil
}

// childRunner starts this program again as a measuring child.
type childRunner func(ctx context.Context, args ...string) *exec.Cmd

// SelfChild returns a childRunner that runs the executable at path with
// ChildEnv set.
func SelfChild(path string) func(ctx context.Context, args ...string) *exec.Cmd {
	return func(ctx context.Context, args ...string) *exec.Cmd {
		cmd := exec.CommandContext(ctx, path, args...)
		cmd.Env = append(os.Environ(), ChildEnv+"=1")
		return cmd
	}
}

// runChild runs one child and decodes its report.
func runChild(ctx context.Context, child childRunner, args ...string) (ChildReport, error) {
	cmd := child(ctx, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return ChildReport{}, fmt.Errorf("%w: %s: %w: %s", ErrChild, strings.Join(args, " "), err, strings.TrimSpace(errOut.String()))
	}
	var rep ChildReport
	if err := json.Unmarshal(bytes.TrimSpace(lastLine(out.Bytes())), &rep); err != nil {
		return ChildReport{}, fmt.Errorf("%w: %s printed %q: %w", ErrChild, strings.Join(args, " "), out.String(), err)
	}
	return rep, nil
}

// lastLine returns the last non-empty line of b (a test binary may print
// more before it).
func lastLine(b []byte) []byte {
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	return lines[len(lines)-1]
}

// historyText is the filler of generated messages.
const historyText = "The quick brown fox jumps over the lazy dog while the build runs and the tests pass. "

// writeHistory writes a database at path holding one conversation of n
// messages, cycling user request, tool call, tool result and assistant
// reply, at sizes typical of an assistant's work (a tool result of a few
// KB, a reply of about a KB).
func writeHistory(path string, n int) error {
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	db, err := store.Open(path, store.Options{Clock: func() time.Time { clock = clock.Add(time.Second); return clock }})
	if err != nil {
		return err
	}
	c, err := db.CreateConversation("bench-model")
	if err != nil {
		db.Close()
		return err
	}
	for i := range n {
		var e store.Event
		id := fmt.Sprintf("call_%d", i/4)
		switch i % 4 {
		case 0:
			e = store.Event{Type: store.EventUserMessage, Text: fmt.Sprintf("Request %d: %s", i, strings.Repeat(historyText, 2))}
		case 1:
			e = store.Event{Type: store.EventToolCall, ToolCallID: id, ToolName: "fs_read", Arguments: json.RawMessage(fmt.Sprintf(`{"path":"notes/day-%d.md"}`, i))}
		case 2:
			e = store.Event{Type: store.EventToolResult, ToolCallID: id, ToolName: "fs_read", Text: strings.Repeat(historyText, 30)}
		case 3:
			e = store.Event{Type: store.EventAssistantText, Model: "bench-model", Text: fmt.Sprintf("Answer %d: %s", i, strings.Repeat(historyText, 10))}
		}
		if _, err := db.AppendEvent(c.ID, e); err != nil {
			db.Close()
			return fmt.Errorf("append message %d: %w", i, err)
		}
	}
	return db.Close()
}

// scratchDir returns a folder for the history database: on tmpfs where
// there is one, because every append is an fsync'd transaction (about 3 ms
// each on a disk) and only the file's content matters here.
func scratchDir(tmp string) (dir string, cleanup func(), err error) {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "wrasse-bench-"); err == nil {
			return d, func() { os.RemoveAll(d) }, nil
		}
	}
	d := filepath.Join(tmp, "history")
	if err := os.MkdirAll(d, 0o700); err != nil {
		return "", nil, err
	}
	return d, func() {}, nil
}

// memory measures peak resident memory in child processes.
func memory(ctx context.Context, child childRunner, tmp, registryWS string) []Row {
	regMeasure := fmt.Sprintf("peak RSS, registry of %s capabilities", FormatInt(startupCaps))
	histMeasure := fmt.Sprintf("peak RSS, %s-message conversation loaded", FormatInt(historyMessages))
	if child == nil {
		err := fmt.Errorf("%w: no way to start a child process", ErrChild)
		return []Row{errorRow(sectionMemory, regMeasure, err)}
	}
	idle, err := runChild(ctx, child, ChildIdle)
	if err != nil {
		return []Row{errorRow(sectionMemory, regMeasure, err)}
	}
	if idle.VmHWMKB == 0 {
		na := "n/a (no /proc/self/status)"
		return []Row{{Section: sectionMemory, Measure: regMeasure, Value: na}, {Section: sectionMemory, Measure: histMeasure, Value: na}}
	}
	baseline := "idle child " + FormatMB(idle.VmHWMKB)
	var rows []Row
	if rep, err := runChild(ctx, child, ChildRegistry, registryWS); err != nil {
		rows = append(rows, errorRow(sectionMemory, regMeasure, err))
	} else {
		rows = append(rows, Row{Section: sectionMemory, Measure: regMeasure, Value: FormatMB(rep.VmHWMKB), Number: MB(rep.VmHWMKB), Unit: "MB",
			Baseline: baseline, Target: fmt.Sprintf("≤ %d MB", registryMemTarget), Pass: verdict(MB(rep.VmHWMKB) <= registryMemTarget),
			Note: "memory: VmHWM of a new process (this program re-run) that built the state and held it; registry child: start-up workspace, built-ins, plugin host, index rendered, search index built, one search: " + rep.Detail})
	}
	dir, cleanup, err := scratchDir(tmp)
	if err != nil {
		return append(rows, errorRow(sectionMemory, histMeasure, err))
	}
	defer cleanup()
	db := filepath.Join(dir, store.FileName)
	if err := writeHistory(db, historyMessages); err != nil {
		return append(rows, errorRow(sectionMemory, histMeasure, err))
	}
	size := ""
	if fi, err := os.Stat(db); err == nil {
		size = fmt.Sprintf("; database file %.1f MB", float64(fi.Size())/1e6)
	}
	if rep, err := runChild(ctx, child, ChildHistory, db); err != nil {
		rows = append(rows, errorRow(sectionMemory, histMeasure, err))
	} else {
		rows = append(rows, Row{Section: sectionMemory, Measure: histMeasure, Value: FormatMB(rep.VmHWMKB), Number: MB(rep.VmHWMKB), Unit: "MB",
			Baseline: baseline,
			Note:     "history child: store.Open, Events of the conversation, ToMessages: " + rep.Detail + size})
	}
	return rows
}
