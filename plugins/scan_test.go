package plugins

import (
	"errors"
	"strings"
	"testing"
)

const oneTool = `---
name: probe
description: A capability for static checks.
tools:
  - name: run
    description: Run.
---
`

// wrap puts body into a plugin whose run tool executes it.
func wrap(imports, body string) string {
	return `package probe

import (
	"context"
` + imports + `
	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("run", run)
	return p, nil
}

func run(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
` + body + `
}
`
}

func TestStaticChecks(t *testing.T) {
	cases := []struct {
		name    string
		src     string
		trusted bool
		granted []string
		want    error // nil: loads
		has     []string
	}{
		{name: "pure code loads",
			src: wrap(`"strings"; "strconv"; "encoding/json"; "sort"; "slices"; "path/filepath"`,
				`b, _ := json.Marshal(strings.Fields("b a"))
				s := []string{"b", "a"}
				sort.Strings(s)
				_ = slices.Contains(s, "a")
				return sdk.Text(string(b) + strconv.Itoa(len(s)) + filepath.Base("/x/y")), nil`)},
		{name: "os file call needs files", src: wrap(`"os"`, `b, err := os.ReadFile("/etc/hostname"); _ = b; return nil, err`),
			want: ErrPermission, has: []string{`import "os" needs the files permission`, "permission files"}},
		{name: "os file call with files", granted: []string{"files"},
			src: wrap(`"os"`, `_, err := os.Stat("."); return sdk.Text("ok"), err`)},
		{name: "os.Getenv with files only", granted: []string{"files"},
			src:  wrap(`"os"`, `return sdk.Text(os.Getenv("HOME")), nil`),
			want: ErrPermission, has: []string{"plugin/main.go:16:17: os.Getenv needs the env permission", "declare it in SKILL.md (permissions: [env])"}},
		{name: "os.Exit never", trusted: true, src: wrap(`"os"`, `os.Exit(1); return nil, nil`),
			want: ErrImport, has: []string{"os.Exit would stop Wrasse"}},
		{name: "os.Chdir never", granted: []string{"files"}, src: wrap(`"os"`, `return nil, os.Chdir("/")`),
			want: ErrImport, has: []string{"os.Chdir would change Wrasse's working folder"}},
		{name: "os.Stdout never", trusted: true, src: wrap(`"fmt"; "os"`, `fmt.Fprintln(os.Stdout, "x"); return nil, nil`),
			want: ErrImport, has: []string{"os.Stdout is not available"}},
		{name: "time.AfterFunc is a goroutine", trusted: true, src: wrap(`"time"`, `time.AfterFunc(time.Second, func() {}); return nil, nil`),
			want: ErrGoroutine, has: []string{"time.AfterFunc runs a function on its own goroutine"}},
		{name: "filepath.Glob needs files", src: wrap(`"path/filepath"`, `m, err := filepath.Glob("*"); _ = m; return nil, err`),
			want: ErrPermission, has: []string{"filepath.Glob needs the files permission"}},
		{name: "net/http needs network", src: wrap(`"net/http"`, `_, err := http.Get("http://example.com"); return nil, err`),
			want: ErrPermission, has: []string{`import "net/http" needs the network permission`, "declare it in SKILL.md (permissions: [network])"}},
		{name: "net/http with network loads", granted: []string{"network"},
			src: wrap(`"net/http"`, `_ = http.MethodGet; return sdk.Text("ok"), nil`)},
		{name: "reflect is not for untrusted", src: wrap(`"reflect"`, `return sdk.Text(reflect.TypeOf(1).String()), nil`),
			want: ErrImport, has: []string{`import "reflect" is not available to plugins that do not ship with Wrasse`}},
		{name: "reflect for trusted", trusted: true, src: wrap(`"reflect"`, `return sdk.Text(reflect.TypeOf(1).String()), nil`)},
		{name: "unsafe never", trusted: true, src: wrap(`"unsafe"`, `_ = unsafe.Sizeof(1); return nil, nil`),
			want: ErrImport, has: []string{`import "unsafe" is not available to plugins`}},
		{name: "third-party import", trusted: true, src: wrap(`"github.com/acme/lib"`, `lib.Do(); return nil, nil`),
			want: ErrImport, has: []string{"plugins may import only the standard library"}},
		{name: "package newer than the dialect", trusted: true, src: wrap(`"iter"`, `var s iter.Seq[int]; _ = s; return nil, nil`),
			want: ErrDialect, has: []string{`import "iter"`, "Go 1.22-level"}},
		{name: "function newer than the dialect", src: wrap(`"strings"`, `for range strings.SplitSeq("a,b", ",") {}; return nil, nil`),
			want: ErrDialect, has: []string{"strings.SplitSeq is not in the interpreter's standard library"}},
		{name: "slices.Sort is missing", src: wrap(`"slices"`, `s := []int{2, 1}; slices.Sort(s); return nil, nil`),
			want: ErrDialect, has: []string{"slices.Sort", "use sort.Slice"}},
		{name: "sdk symbol missing", src: wrap(``, `return sdk.Markdown("x"), nil`),
			want: ErrCompile, has: []string{"sdk.Markdown is not in this version of the plugin SDK"}},
		{name: "cgo", trusted: true, src: wrap(`"C"`, `return nil, nil`), want: ErrDialect, has: []string{"cgo is not supported"}},
		{name: "embed", trusted: true, src: wrap(`_ "embed"`, `return nil, nil`) + "\n//go:embed data.txt\nvar data string\n",
			want: ErrDialect, has: []string{`import "embed"`, "//go:embed is not supported"}},
		{name: "range over int literal", src: wrap(``, `n := 0; for i := range 10 { n += i }; return sdk.Textf("%d", n), nil`),
			want: ErrDialect, has: []string{"plugin/main.go:16:9: range over an integer"}},
		{name: "range over len", src: wrap(``, `s := []int{1}; for i := range len(s) { _ = i }; return nil, nil`),
			want: ErrDialect, has: []string{"range over an integer"}},
		{name: "range over int parameter", src: wrap(``, `return nil, nil }
func count(n int) (t int) { for i := range n { t += i }; return`),
			want: ErrDialect, has: []string{"range over an integer"}},
		{name: "range over library int", src: wrap(`"strconv"`, `n, _ := strconv.Atoi("3"); for i := range n { _ = i }; return nil, nil`),
			want: ErrDialect, has: []string{"range over an integer"}},
		{name: "range over time.Duration parameter", src: wrap(`"time"`, `return nil, nil }
func wait(d time.Duration) { for i := range d { _ = i }`),
			want: ErrDialect, has: []string{"range over an integer"}},
		{name: "unknown range falls back to the interpreter", src: wrap(`"time"`, `var d struct{ D time.Duration }; for i := range d.D { _ = i }; return nil, nil`),
			want: ErrDialect, has: []string{"the interpreter failed on this source", "Go 1.22-level", "check the range statements at plugin/main.go:16"}},
		{name: "range over func", src: wrap(``, `seq := func(yield func(int) bool) { yield(1) }; for v := range seq { _ = v }; return nil, nil`),
			want: ErrDialect, has: []string{"range over a function"}},
		{name: "range over named func", src: wrap(``, `for v := range gen { _ = v }; return nil, nil }
func gen(yield func(int) bool) { yield(1)`),
			want: ErrDialect, has: []string{"range over a function"}},
		{name: "range over slice and map is fine", src: wrap(``, `n := 0
				for _, v := range []int{1, 2} { n += v }
				for k := range req.Args { _ = k }
				for i := range req.Raw { _ = i }
				for _, r := range req.Tool { _ = r }
				return sdk.Textf("%d", n), nil`)},
		{name: "min builtin", src: wrap(``, `return sdk.Textf("%d", min(1, 2)), nil`),
			want: ErrDialect, has: []string{"the min builtin is not supported"}},
		{name: "own min is fine", src: wrap(``, `return sdk.Textf("%d", min(1, 2)), nil }
func min(a, b int) int { if a < b { return a }; return b`)},
		{name: "clear builtin", src: wrap(``, `m := map[int]int{}; clear(m); return nil, nil`),
			want: ErrDialect, has: []string{"the clear builtin"}},
		{name: "generic type alias", src: wrap(``, `return nil, nil }
type List[T any] = []T
func unused() {`),
			want: ErrDialect, has: []string{"generic type alias List"}},
		{name: "new with a value", src: wrap(``, `p := new(42); _ = p; return nil, nil`),
			want: ErrDialect, has: []string{"new with a value"}},
		{name: "new with a type is fine", src: wrap(``, `p := new(int); *p = 2; return sdk.Textf("%d", *p), nil`)},
		{name: "goroutine in any file", src: wrap(``, `go func() {}(); return nil, nil`),
			want: ErrGoroutine, has: []string{"go statement"}},
		{name: "every problem at once", src: wrap(`"os/exec"; "net"`, `go func() {}()
				_ = exec.Command; _ = net.Dial
				for i := range 3 { _ = i }
				return nil, nil`),
			want: ErrPermission, has: []string{"os/exec", "net", "go statement", "range over an integer"}},
		{name: "bare exec.Cmd", trusted: true, src: wrap(`"os/exec"`, `c := &exec.Cmd{Path: "/bin/true"}; return nil, c.Run()`),
			want: ErrImport, has: []string{"build commands with exec.Command"}},
		{name: "new exec.Cmd", granted: []string{"exec"}, src: wrap(`"os/exec"`, `c := new(exec.Cmd); return nil, c.Run()`),
			want: ErrImport, has: []string{"build commands with exec.Command"}},
		{name: "exec.Command is fine", granted: []string{"exec"}, src: wrap(`"os/exec"`, `c := exec.Command("true"); _ = c; return sdk.Text("ok"), nil`)},
		{name: "no Init", src: "package probe\n\nfunc Helper() {}\n", want: ErrInit, has: []string{"no func Init"}},
		{name: "two packages", src: wrap(``, `return nil, nil`), want: ErrCompile, has: []string{"a plugin is one package"}},
		{name: "syntax error", src: "package probe\n\nfunc Init( {\n", want: ErrCompile, has: []string{"plugin/main.go:3:"}},
		{name: "wrong Init signature", src: "package probe\n\nfunc Init() int { return 1 }\n", want: ErrInit, has: []string{"Init has type func() int"}},
		{name: "dot import of os", granted: []string{"files"}, src: wrap(`. "os"`, `_, err := Stat("."); return nil, err`),
			want: ErrImport, has: []string{`dot import of "os"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"main.go": tc.src}
			if tc.name == "two packages" {
				files["other.go"] = "package other\n"
			}
			err := NewHost(Options{Logger: discard()}).Check(t.Context(), request(inline(t, oneTool, files), tc.trusted, tc.granted...))
			if tc.want == nil {
				if err != nil {
					t.Fatalf("Check: %v", err)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("Check: %v; want %v", err, tc.want)
			}
			containsAll(t, "error", err.Error(), tc.has)
		})
	}
}

// Problems come sorted by place, one per line, each with file and line.
func TestProblemsAreListed(t *testing.T) {
	src := wrap(`"os/exec"`, `go func() {}()
	for i := range 3 { _ = i }
	_ = exec.Command
	return nil, nil`)
	err := NewHost(Options{}).Check(t.Context(), request(inline(t, oneTool, map[string]string{"main.go": src}), false))
	var list *problemList
	if !errors.As(err, &list) {
		t.Fatalf("error %T %v; want a problem list", err, err)
	}
	lines := strings.Split(strings.TrimPrefix(err.Error(), "capability probe: "), "\n")
	if len(lines) != 3 {
		t.Fatalf("got %d lines:\n%s", len(lines), err)
	}
	for i, want := range []string{"plugin/main.go:5:1: import", "plugin/main.go:16:1: go statement", "plugin/main.go:17:2: range"} {
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d = %q; want prefix %q", i, lines[i], want)
		}
	}
	var se *SourceError
	if !errors.As(err, &se) || se.File != "plugin/main.go" || se.Line == 0 {
		t.Errorf("first SourceError = %+v", se)
	}
}

func TestDefaultName(t *testing.T) {
	for in, want := range map[string]string{
		"strings": "strings", "math/rand/v2": "rand", "encoding/json": "json",
		"github.com/wrasse-app/wrasse/plugins/sdk": "sdk", "v2": "v2",
	} {
		if got := defaultName(in); got != want {
			t.Errorf("defaultName(%q) = %q; want %q", in, got, want)
		}
	}
}

func TestImportName(t *testing.T) {
	for in, want := range map[string]string{"notes": "notes", "My Notes!": "my_notes_", "": "plugin", "a-b_c9": "a-b_c9"} {
		if got := importName(in); got != want {
			t.Errorf("importName(%q) = %q; want %q", in, got, want)
		}
	}
}
