package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync"
	"testing"
	"time"

	builtin "github.com/wrasse-app/wrasse/brain/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// The test binary doubles as the program process, as the app's
// executable does.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == ChildCommand {
		if err := ServeChild(context.Background(), ChildPipes(os.Stderr)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if len(os.Args) > 1 && os.Args[1] == hangCommand {
		time.Sleep(time.Hour) // a process that never answers
		os.Exit(0)
	}
	if len(os.Args) > 1 && os.Args[1] == crashCommand {
		// A process that dies as the Go runtime reports a crash, after a
		// log record (logged, not part of the report) and a stdout line.
		fmt.Fprintln(os.Stderr, `{"time":"2026-01-01T00:00:00Z","level":"INFO","msg":"serving"}`)
		fmt.Fprintln(os.Stdout, "runtime: goroutine stack exceeds 1000000000-byte limit")
		fmt.Fprintln(os.Stderr, "fatal error: stack overflow")
		os.Exit(2)
	}
	os.Exit(m.Run())
}

const (
	hangCommand  = "__hang"
	crashCommand = "__crash"
)

func childRunner(timeout time.Duration) *Runner {
	return &Runner{Command: []string{os.Args[0], ChildCommand}, Timeout: timeout, MaxOutput: 4 << 10}
}

// fakeTools answers calls from a table: archive_list lists three archives,
// archive_size returns a size per name, fail always fails.
type fakeTools struct {
	mu    sync.Mutex
	calls []string
	// onCall, if set, runs before each answer (cancelling, counting).
	onCall func(n int)
}

var testTools = []Tool{
	{Name: "archive_list", Description: "List archives.", Parameters: json.RawMessage(`{"type":"object","properties":{"folder":{"type":"string"}},"required":["folder"]}`)},
	{Name: "archive_size", Description: "Size of one archive.", Parameters: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"},"unit":{"type":"string","enum":["bytes","kb"]}},"required":["name"]}`)},
	{Name: "fail", Description: "Always fails.", Parameters: json.RawMessage(`{"type":"object"}`)},
}

func (f *fakeTools) call(ctx context.Context, tool string, args json.RawMessage) (string, error) {
	f.mu.Lock()
	f.calls = append(f.calls, tool+" "+string(args))
	n := len(f.calls)
	f.mu.Unlock()
	if f.onCall != nil {
		f.onCall(n)
	}
	var a struct{ Name string }
	_ = json.Unmarshal(args, &a)
	switch tool {
	case "archive_list":
		return `["a.zip","b.zip","c.zip"]`, nil
	case "archive_size":
		return fmt.Sprint(len(a.Name) * 100), nil
	}
	return "", errors.New("Blocked by the safety policy; it did not run")
}

const threeTools = `package main

import (
	"encoding/json"
	"fmt"
)

func main() {
	list, err := archive_list(Archive_listArgs{Folder: "/tmp"})
	if err != nil {
		fmt.Println("list:", err)
		return
	}
	var names []string
	json.Unmarshal([]byte(list), &names)
	total := 0
	for _, n := range names {
		s, err := archive_size(ArchiveSizeArgs{Name: n})
		if err != nil {
			fmt.Println("size:", err)
			return
		}
		var v int
		fmt.Sscan(s, &v)
		total += v
	}
	_, err = fail(FailArgs{})
	fmt.Printf("%d archives, %d bytes; fail: %v\n", len(names), total, err)
}
`

func TestRun(t *testing.T) {
	cases := []struct {
		name    string
		src     string
		timeout time.Duration
		want    string // in the output
		err     error
		errText string
		calls   int
	}{
		{name: "three tools", src: strings.Replace(threeTools, "Archive_listArgs", "ArchiveListArgs", 1),
			want: "3 archives, 1500 bytes; fail: Blocked by the safety policy", calls: 5},
		{name: "bare main without package or imports", src: "func main() {\n\tfmt.Println(strings.ToUpper(\"ok\"))\n}\n", want: "OK"},
		{name: "loops forever", src: "package main\n\nfunc main() {\n\tfor {\n\t}\n}\n", timeout: 500 * time.Millisecond, err: ErrTimeout},
		{name: "prints 100 MB", src: "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tline := make([]byte, 1<<20)\n\tfor i := 0; i < 100; i++ {\n\t\tfmt.Println(string(line))\n\t}\n}\n",
			err: ErrOutputLimit},
		{name: "panics", src: "package main\n\nfunc main() {\n\tfmt.Println(\"before\")\n\tpanic(\"boom\")\n}\n", err: ErrPanic, errText: "boom (at main.go:"},
		{name: "nil map", src: "package main\n\nfunc main() {\n\tvar m map[string]int\n\tm[\"x\"] = 1\n}\n", err: ErrPanic, errText: "nil map"},
		{name: "imports os/exec", src: "package main\n\nimport \"os/exec\"\n\nfunc main() {\n\texec.Command(\"ls\").Run()\n}\n", err: ErrRefused, errText: "main.go:3"},
		{name: "imports net", src: "package main\n\nimport \"net\"\n\nfunc main() {\n\tnet.Dial(\"tcp\", \"example.com:80\")\n}\n", err: ErrRefused, errText: "net"},
		{name: "imports os", src: "package main\n\nimport \"os\"\n\nfunc main() {\n\tos.ReadFile(\"/etc/passwd\")\n}\n", err: ErrRefused, errText: "os"},
		{name: "starts a goroutine", src: "package main\n\nfunc main() {\n\tgo func() {}()\n}\n", err: ErrRefused, errText: "goroutine"},
		{name: "does not compile", src: "package main\n\nfunc main() {\n\tundefinedThing()\n}\n", err: ErrCompile, errText: "main.go:4"},
		{name: "no main", src: "package main\n\nfunc helper() {}\n", err: ErrRefused, errText: "func main"},
		{name: "empty", src: "  ", err: ErrNoProgram},
		{name: "too many calls", src: "package main\n\nfunc main() {\n\tn := 0\n\tfor {\n\t\tif _, err := fail(FailArgs{}); err != nil && strings.Contains(err.Error(), \"at most\") {\n\t\t\tbreak\n\t\t}\n\t\tn++\n\t}\n\tfmt.Println(n, \"calls\")\n}\n",
			want: "1000 calls", calls: 1000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			timeout := c.timeout
			if timeout == 0 {
				timeout = 20 * time.Second
			}
			f := &fakeTools{}
			res, err := childRunner(timeout).Run(t.Context(), Program{Source: c.src, Tools: testTools}, f.call)
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("err = %v; want %v (output %q)", err, c.err, res.Output)
				}
				if !strings.Contains(err.Error(), c.errText) {
					t.Errorf("err = %v; want it to mention %q", err, c.errText)
				}
				if errors.Is(err, ErrRefused) && len(f.calls) > 0 {
					t.Errorf("a refused program made calls: %v", f.calls)
				}
				if c.err == ErrOutputLimit && (len(res.Output) != 4<<10 || !res.Truncated) {
					t.Errorf("output %d bytes, truncated %v; want the first 4 KiB, truncated", len(res.Output), res.Truncated)
				}
				return
			}
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if !strings.Contains(res.Output, c.want) {
				t.Errorf("output %q; want %q", res.Output, c.want)
			}
			if len(f.calls) != c.calls || res.Calls != c.calls {
				t.Errorf("%d calls (result says %d); want %d: %.300v", len(f.calls), res.Calls, c.calls, f.calls)
			}
		})
	}
}

// The arguments a program passes arrive as the tool's JSON: required
// fields always, optional ones only when set.
func TestRunArguments(t *testing.T) {
	f := &fakeTools{}
	src := "package main\n\nfunc main() {\n\tarchive_size(ArchiveSizeArgs{Name: \"x\"})\n\tarchive_size(ArchiveSizeArgs{Name: \"y\", Unit: \"kb\"})\n\tcall(\"archive_list\", map[string]any{\"folder\": \"/\"})\n\tsearch(\"zip files\")\n}\n"
	if _, err := childRunner(20*time.Second).Run(t.Context(), Program{Source: src, Tools: testTools}, f.call); err != nil {
		t.Fatal(err)
	}
	want := []string{`archive_size {"name":"x"}`, `archive_size {"name":"y","unit":"kb"}`, `archive_list {"folder":"/"}`, `tool_search {"query":"zip files"}`}
	if strings.Join(f.calls, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(f.calls, "\n"), strings.Join(want, "\n"))
	}
}

// Cancelling the run mid-program (the user stops the turn) stops it at
// once, between or during calls: the process stops by itself (not killed
// at the end of the slack).
func TestRunCancelled(t *testing.T) {
	loop := "package main\n\nfunc main() {\n\tfor {\n\t\tarchive_list(ArchiveListArgs{Folder: \"/\"})\n\t}\n}\n"
	cases := []struct {
		name string
		src  string
		// answer runs as the third call, after cancel.
		answer func(ctx context.Context) (string, error)
	}{
		{name: "after a call", src: loop, answer: func(context.Context) (string, error) { return "ok", nil }},
		{name: "during a call", src: loop, answer: func(ctx context.Context) (string, error) {
			<-ctx.Done()
			return "", ctx.Err()
		}},
		{name: "while computing", src: "package main\n\nfunc main() {\n\tfor i := 0; i < 3; i++ {\n\t\tarchive_list(ArchiveListArgs{Folder: \"/\"})\n\t}\n\tfor {\n\t}\n}\n",
			answer: func(context.Context) (string, error) { return "ok", nil }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			n := 0
			call := func(cctx context.Context, tool string, args json.RawMessage) (string, error) {
				if n++; n < 3 {
					return "ok", nil
				}
				cancel()
				return c.answer(cctx)
			}
			res, err := childRunner(time.Minute).Run(ctx, Program{Source: c.src, Tools: testTools}, call)
			if !errors.Is(err, ErrStopped) || strings.Contains(err.Error(), "killed") {
				t.Fatalf("err = %v; want ErrStopped, the process stopping by itself", err)
			}
			if n != 3 || res.Calls != 3 {
				t.Errorf("%d calls (result says %d) after the cancel at the third; want 3", n, res.Calls)
			}
		})
	}
}

// A process that does not answer is killed at the parent's own bound
// (the program's deadline and the slack, or the slack after a stop); one
// that ends without answering is a crash.
func TestRunUnresponsiveProcess(t *testing.T) {
	cases := []struct {
		name    string
		command []string
		cancel  bool
		err     error
		errText string
	}{
		{name: "never answers", command: []string{os.Args[0], hangCommand}, err: ErrTimeout, errText: "killed"},
		{name: "never answers the stop", command: []string{os.Args[0], hangCommand}, cancel: true, err: ErrStopped, errText: "killed"},
		{name: "ends without answering", command: []string{os.Args[0], "-test.run=^$"}, err: ErrCrashed},
		{name: "crashes", command: []string{os.Args[0], crashCommand}, err: ErrCrashed,
			errText: "fatal error: stack overflow (goroutine stack exceeds 1000000000-byte limit) (exit status 2)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			if c.cancel {
				cancel()
			}
			r := &Runner{Command: c.command, Timeout: 100 * time.Millisecond}
			_, err := r.Run(ctx, Program{Source: "package main\n\nfunc main() {}\n"}, (&fakeTools{}).call)
			if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.errText) {
				t.Fatalf("err = %v; want %v mentioning %q", err, c.err, c.errText)
			}
		})
	}
}

// A program that allocates without end dies at the process's memory cap;
// the app sees a crash with the runtime's reason.
func TestRunOutOfMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates up to the 2 GiB cap")
	}
	src := "package main\n\nfunc main() {\n\tvar keep [][]byte\n\tfor {\n\t\tb := make([]byte, 64<<20)\n\t\tfor i := 0; i < len(b); i += 4096 {\n\t\t\tb[i] = 1\n\t\t}\n\t\tkeep = append(keep, b)\n\t}\n}\n"
	_, err := childRunner(time.Minute).Run(t.Context(), Program{Source: src}, (&fakeTools{}).call)
	if !errors.Is(err, ErrCrashed) && !errors.Is(err, ErrPanic) {
		t.Fatalf("err = %v; want a crash (out of memory)", err)
	}
	t.Log(err)
}

// builtinTools are the tools of every capability that ships with Wrasse.
func builtinTools(t *testing.T) []Tool {
	t.Helper()
	fsys := builtin.FS()
	var tools []Tool
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := fs.ReadFile(fsys, path.Join(e.Name(), "SKILL.md"))
		if err != nil {
			continue
		}
		m, err := skillmd.Parse(data, skillmd.Options{File: e.Name() + "/SKILL.md", Folder: e.Name()})
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		for _, tl := range m.Tools {
			tools = append(tools, Tool{Name: tl.Name, Description: tl.Description, Parameters: tl.Parameters})
		}
	}
	if len(tools) < 10 {
		t.Fatalf("only %d built-in tools", len(tools))
	}
	return tools
}

// The typed wrappers of every built-in tool compile under the
// interpreter, and a program can fill each struct.
func TestGeneratedBuiltinsCompile(t *testing.T) {
	tools := builtinTools(t)
	var b strings.Builder
	b.WriteString("package main\n\nimport \"fmt\"\n\nfunc main() {\n")
	for _, tl := range tools {
		fmt.Fprintf(&b, "\tfmt.Println(%q, %s{})\n", tl.Name, ArgsType(tl.Name))
	}
	b.WriteString("}\n")
	r := &Runner{MaxOutput: 1 << 20}
	res, err := r.Run(t.Context(), Program{Source: b.String(), Tools: tools}, (&fakeTools{}).call)
	if err != nil {
		t.Fatalf("generated wrappers of %d built-in tools do not compile: %v\n%s", len(tools), err, assemble(b.String(), tools).run)
	}
	if got := strings.Count(res.Output, "\n"); got != len(tools) {
		t.Errorf("%d lines; want one per tool (%d)", got, len(tools))
	}
}

// Time spent in inner calls (a user reading an approval card) does not
// count against the program's deadline; its own running time does.
func TestRunDeadlineStopsDuringCalls(t *testing.T) {
	// The program's own time (compiling and running it under the race
	// detector, on a loaded machine) must stay well inside limit: at
	// 300 ms it did not, about one run in 20 with one CPU busy.
	const limit = time.Second
	slow := func(ctx context.Context, tool string, args json.RawMessage) (string, error) {
		select {
		case <-time.After(limit + limit/2): // each call longer than the whole deadline
		case <-ctx.Done():
			return "", ctx.Err()
		}
		return "approved at last", nil
	}
	src := "package main\n\nfunc main() {\n\tfor i := 0; i < 2; i++ {\n\t\tout, err := archive_list(ArchiveListArgs{Folder: \"/\"})\n\t\tfmt.Println(out, err)\n\t}\n}\n"
	res, err := childRunner(limit).Run(t.Context(), Program{Source: src, Tools: testTools}, slow)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if strings.Count(res.Output, "approved at last") != 2 {
		t.Errorf("output %q", res.Output)
	}
}
