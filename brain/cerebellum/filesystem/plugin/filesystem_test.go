package filesystem

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func manifest(t *testing.T) *skillmd.Manifest {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := skillmd.Parse(data, skillmd.Options{Folder: "filesystem"})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// setup makes a root folder with files given as name → content.
func setup(t *testing.T, files map[string]string) (*sdk.Plugin, string) {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := Init(&sdk.Env{Name: "filesystem", Roots: []string{dir}, Workspace: filepath.Join(dir, "ws")})
	if err != nil {
		t.Fatal(err)
	}
	return p, dir
}

func call(t *testing.T, p *sdk.Plugin, tool string, args map[string]any) (string, error) {
	t.Helper()
	raw, _ := json.Marshal(args)
	req, err := sdk.NewRequest(tool, raw)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Handler(tool)(context.Background(), req)
	if err != nil {
		var te *sdk.ToolError
		if !errors.As(err, &te) {
			t.Errorf("error is not a *sdk.ToolError: %v", err)
		}
		return "", err
	}
	return res.Text, nil
}

type tcase struct {
	name    string
	args    map[string]any
	want    []string
	notWant []string
	errWant string
}

func run(t *testing.T, p *sdk.Plugin, tool string, tests []tcase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := call(t, p, tool, tc.args)
			if tc.errWant != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errWant) {
					t.Fatalf("error = %v, want it to mention %q (output %q)", err, tc.errWant, out)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(out, w) {
					t.Errorf("output contains %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestInitRegistersDeclaredTools(t *testing.T) {
	p, _ := setup(t, nil)
	var declared []string
	for _, tool := range manifest(t).Tools {
		declared = append(declared, tool.Name)
	}
	want := append([]string(nil), declared...)
	got := p.ToolNames()
	if len(got) != len(want) {
		t.Fatalf("registered %v, declared %v", got, want)
	}
	seen := map[string]bool{}
	for _, n := range got {
		seen[n] = true
	}
	for _, n := range want {
		if !seen[n] {
			t.Errorf("declared tool %s is not registered", n)
		}
	}
}

func TestRead(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 2500; i++ {
		long.WriteString("row\n")
	}
	p, dir := setup(t, map[string]string{
		"a.txt":    "one\ntwo\nthree\n",
		"crlf.txt": "x\r\ny\r\n",
		"empty":    "",
		"bin.dat":  "abc\x00def",
		"long.txt": long.String(),
		"sub/b.md": "# title",
	})
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644)
	if runtime.GOOS != "windows" {
		os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "link"))
	}
	run(t, p, "fs_read", []tcase{
		{name: "whole", args: map[string]any{"path": "a.txt"}, want: []string{"(3 lines)\n1\tone\n2\ttwo\n3\tthree\n"}},
		{name: "range", args: map[string]any{"path": "a.txt", "start_line": 2, "end_line": 2}, want: []string{"showing 2-2", "2\ttwo\n"}, notWant: []string{"one", "three"}},
		{name: "no numbers", args: map[string]any{"path": "a.txt", "line_numbers": false}, want: []string{"\none\ntwo\nthree\n"}},
		{name: "end past eof", args: map[string]any{"path": "a.txt", "start_line": 3, "end_line": 99}, want: []string{"3\tthree"}},
		{name: "crlf shown without \\r", args: map[string]any{"path": "crlf.txt"}, want: []string{"1\tx\n2\ty\n"}},
		{name: "absolute path", args: map[string]any{"path": filepath.Join(dir, "sub", "b.md")}, want: []string{"1\t# title"}},
		{name: "empty file", args: map[string]any{"path": "empty"}, want: []string{"is empty"}},
		{name: "paged", args: map[string]any{"path": "long.txt"}, want: []string{"(2500 lines, showing 1-2000)", "start_line 2001"}},
		{name: "second page", args: map[string]any{"path": "long.txt", "start_line": 2001}, want: []string{"showing 2001-2500", "2500\trow"}, notWant: []string{"stopped"}},
		{name: "start past end", args: map[string]any{"path": "a.txt", "start_line": 9}, errWant: "past the end"},
		{name: "end before start", args: map[string]any{"path": "a.txt", "start_line": 3, "end_line": 2}, errWant: "before start_line"},
		{name: "missing", args: map[string]any{"path": "nope.txt"}, errWant: "does not exist"},
		{name: "folder", args: map[string]any{"path": "sub"}, errWant: "is a folder"},
		{name: "binary", args: map[string]any{"path": "bin.dat"}, errWant: "binary"},
		{name: "outside", args: map[string]any{"path": filepath.Join(outside, "secret")}, errWant: "outside the folders"},
		{name: "dotdot", args: map[string]any{"path": "../x"}, errWant: "outside the folders"},
	})
	if runtime.GOOS != "windows" {
		run(t, p, "fs_read", []tcase{{name: "symlink out", args: map[string]any{"path": "link"}, errWant: "outside the folders"}})
	}
}

func TestWrite(t *testing.T) {
	p, dir := setup(t, map[string]string{"old.txt": "old", "sub/x": "x"})
	if err := os.Chmod(filepath.Join(dir, "old.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	run(t, p, "fs_write", []tcase{
		{name: "create", args: map[string]any{"path": "new.txt", "content": "a\nb\n"}, want: []string{"created", "new.txt (4 bytes, 2 lines)"}},
		{name: "replace", args: map[string]any{"path": "old.txt", "content": "new"}, want: []string{"replaced"}},
		{name: "create dirs", args: map[string]any{"path": "d1/d2/f.txt", "content": "deep"}, want: []string{"created"}},
		{name: "no create dirs", args: map[string]any{"path": "d3/f.txt", "content": "x", "create_dirs": false}, errWant: "create_dirs"},
		{name: "parent is file", args: map[string]any{"path": "sub/x/f.txt", "content": "x"}, errWant: "is a file"},
		{name: "onto folder", args: map[string]any{"path": "sub", "content": "x"}, errWant: "is a folder"},
		{name: "outside", args: map[string]any{"path": "/tmp/wrasse-never/x", "content": "x"}, errWant: "outside the folders"},
		{name: "empty path", args: map[string]any{"path": "", "content": "x"}, errWant: "path is empty"},
	})
	for name, want := range map[string]string{"new.txt": "a\nb\n", "old.txt": "new", "d1/d2/f.txt": "deep"} {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", name, got, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "d3")); err == nil {
		t.Error("d3 was created although create_dirs was false")
	}
	if info, _ := os.Stat(filepath.Join(dir, "old.txt")); runtime.GOOS != "windows" && info.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want the original 0600 kept", info.Mode().Perm())
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".wrasse-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestPatch(t *testing.T) {
	src := "func a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 1\n}\n"
	p, dir := setup(t, map[string]string{"x.go": src, "y.go": src, "w.txt": "a\r\nb\r\nc\r\n", "z.go": src})
	run(t, p, "fs_patch", []tcase{
		{name: "unique", args: map[string]any{"path": "x.go", "search": "func b() {\n\treturn 1", "replace": "func b() {\n\treturn 2"}, want: []string{"replaced 1 occurrence at line 5"}},
		{name: "ambiguous", args: map[string]any{"path": "y.go", "search": "return 1", "replace": "return 3"}, errWant: "occurs 2 times"},
		{name: "all", args: map[string]any{"path": "y.go", "search": "return 1", "replace": "return 3", "all": true}, want: []string{"replaced 2 occurrences, the first at line 2"}},
		{name: "not found", args: map[string]any{"path": "x.go", "search": "return 9", "replace": ""}, errWant: "not found"},
		{name: "whitespace differs", args: map[string]any{"path": "z.go", "search": "  return 1\n}\n\nfunc b", "replace": ""}, errWant: "whitespace differs"},
		{name: "crlf file", args: map[string]any{"path": "w.txt", "search": "a\nb", "replace": "A\nB"}, want: []string{"replaced 1"}},
		{name: "empty search", args: map[string]any{"path": "x.go", "search": "", "replace": "x"}, errWant: "search is empty"},
		{name: "missing file", args: map[string]any{"path": "nope.go", "search": "a", "replace": "b"}, errWant: "does not exist"},
	})
	check := map[string]string{
		"x.go":  "func a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 2\n}\n",
		"y.go":  strings.ReplaceAll(src, "return 1", "return 3"),
		"w.txt": "A\r\nB\r\nc\r\n",
		"z.go":  src,
	}
	for name, want := range check {
		got, _ := os.ReadFile(filepath.Join(dir, name))
		if string(got) != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
}

func TestList(t *testing.T) {
	p, _ := setup(t, map[string]string{
		"b.txt": "bb", "a.txt": "a", "sub/c.txt": "c", "sub/deeper/d.txt": "d",
		".hidden": "h", ".git/config": "x", "node_modules/m/index.js": "m",
	})
	run(t, p, "fs_list", []tcase{
		{name: "depth 1", args: map[string]any{}, want: []string{".git/\n.hidden  1 B\na.txt  1 B\nb.txt  2 B\nnode_modules/\nsub/\n", "3 folders, 3 files"}, notWant: []string{"sub/c.txt"}},
		{name: "depth 2 skips .git", args: map[string]any{"depth": 2}, want: []string{"sub/c.txt  1 B\nsub/deeper/\n"}, notWant: []string{"config", "index.js", "d.txt"}},
		{name: "depth 3", args: map[string]any{"path": "sub", "depth": 3}, want: []string{"c.txt", "deeper/d.txt"}},
		{name: "no hidden", args: map[string]any{"include_hidden": false}, notWant: []string{".hidden", ".git"}},
		{name: "file", args: map[string]any{"path": "a.txt"}, errWant: "not a folder"},
		{name: "missing", args: map[string]any{"path": "nope"}, errWant: "does not exist"},
		{name: "outside", args: map[string]any{"path": "/"}, errWant: "outside the folders"},
	})
}

func TestGlobRegexp(t *testing.T) {
	tests := []struct {
		glob  string
		match []string
		miss  []string
	}{
		{"*.go", []string{"a.go", "x/y/b.go"}, []string{"a.gox", "a.go/c"}},
		{"**/*.go", []string{"a.go", "x/y/b.go"}, []string{"a.txt"}},
		{"src/**/*.ts", []string{"src/a.ts", "src/x/y/a.ts"}, []string{"a.ts", "lib/src/a.ts"}},
		{"src/*/index.ts", []string{"src/a/index.ts"}, []string{"src/index.ts", "src/a/b/index.ts"}},
		{"*.{md,txt}", []string{"a.md", "d/b.txt"}, []string{"a.go"}},
		{"file?.txt", []string{"file1.txt"}, []string{"file10.txt"}},
		{"[ab]*.c", []string{"a.c", "bx.c"}, []string{"c.c"}},
		{"[!ab]*.c", []string{"c.c"}, []string{"a.c"}},
		{"./docs/*.md", []string{"docs/a.md"}, []string{"x/docs/a.md"}},
		{"a+b(1).txt", []string{"a+b(1).txt"}, []string{"aab1.txt"}},
		{"**", []string{"a", "a/b/c"}, nil},
	}
	for _, tc := range tests {
		re, err := globRegexp(tc.glob)
		if err != nil {
			t.Fatalf("%s: %v", tc.glob, err)
		}
		for _, m := range tc.match {
			if !re.MatchString(m) {
				t.Errorf("%s should match %s (re %s)", tc.glob, m, re)
			}
		}
		for _, m := range tc.miss {
			if re.MatchString(m) {
				t.Errorf("%s should not match %s (re %s)", tc.glob, m, re)
			}
		}
	}
	for _, bad := range []string{"", "[abc", "{a,b", "{a,{b}}"} {
		if _, err := globRegexp(bad); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

func TestFind(t *testing.T) {
	p, _ := setup(t, map[string]string{
		"main.go": "", "pkg/a.go": "", "pkg/a_test.go": "", "README.md": "", ".git/x.go": "", "node_modules/y.go": "",
	})
	run(t, p, "fs_find", []tcase{
		{name: "any depth", args: map[string]any{"pattern": "*.go"}, want: []string{"3 matches", "main.go\npkg/a.go\npkg/a_test.go\n"}, notWant: []string{".git", "node_modules"}},
		{name: "double star", args: map[string]any{"pattern": "pkg/**/*_test.go"}, want: []string{"1 matches", "pkg/a_test.go"}},
		{name: "folders", args: map[string]any{"pattern": "pkg"}, want: []string{"pkg/\n"}},
		{name: "subfolder", args: map[string]any{"pattern": "*.go", "path": "pkg"}, want: []string{"a.go\na_test.go"}, notWant: []string{"main.go"}},
		{name: "none", args: map[string]any{"pattern": "*.rs"}, want: []string{"no match"}},
		{name: "bad glob", args: map[string]any{"pattern": "[a"}, errWant: "not a valid glob"},
		{name: "outside", args: map[string]any{"pattern": "*", "path": ".."}, errWant: "outside the folders"},
	})
}

func TestGrep(t *testing.T) {
	var many strings.Builder
	for i := 0; i < 50; i++ {
		many.WriteString("hit\n")
	}
	p, _ := setup(t, map[string]string{
		"a.go":        "package a\n\nfunc Main() {}\n// TODO: x\n",
		"b/b.go":      "package b\nfunc main() {}\n",
		"c.txt":       "TODO later\n",
		"bin.dat":     "TODO\x00\x01",
		"many.txt":    many.String(),
		".git/HEAD":   "TODO",
		"long.txt":    strings.Repeat("x", 500) + "TODO\n",
		"anchors.txt": "start\n  start\n",
	})
	run(t, p, "fs_grep", []tcase{
		{name: "regex", args: map[string]any{"pattern": `func\s+main`}, want: []string{"b/b.go:2: func main() {}", "1 matching lines in 1 files"}, notWant: []string{"Main"}},
		{name: "ignore case", args: map[string]any{"pattern": `func\s+main`, "ignore_case": true}, want: []string{"a.go:3: func Main() {}", "b/b.go:2:"}},
		{name: "glob", args: map[string]any{"pattern": "TODO", "glob": "*.go"}, want: []string{"a.go:4: // TODO: x"}, notWant: []string{"c.txt"}},
		{name: "binary skipped", args: map[string]any{"pattern": "TODO"}, want: []string{"c.txt:1: TODO later", "1 binary files"}, notWant: []string{"bin.dat:", ".git"}},
		{name: "long line cut", args: map[string]any{"pattern": "TODO", "path": "long.txt"}, want: []string{"long.txt:1: xxx", "[...]"}},
		{name: "max results", args: map[string]any{"pattern": "hit", "max_results": 10}, want: []string{"10 matching lines", "many.txt:10: hit", "stopped at 10"}, notWant: []string{"many.txt:11:"}},
		{name: "line anchors", args: map[string]any{"pattern": "^start$", "path": "anchors.txt"}, want: []string{"anchors.txt:1: start\n"}, notWant: []string{":2:"}},
		{name: "line numbers", args: map[string]any{"pattern": "hit", "path": "many.txt", "max_results": 1000}, want: []string{"many.txt:50: hit", "50 matching lines"}},
		{name: "empty match at end", args: map[string]any{"pattern": "^$", "path": "c.txt"}, want: []string{"no match"}},
		{name: "no match", args: map[string]any{"pattern": "zzz"}, want: []string{"no match"}},
		{name: "bad regex", args: map[string]any{"pattern": "func("}, errWant: "not a valid regular expression"},
		{name: "missing", args: map[string]any{"pattern": "x", "path": "nope"}, errWant: "does not exist"},
		{name: "outside", args: map[string]any{"pattern": "x", "path": "/etc"}, errWant: "outside the folders"},
	})
}

func TestNoRoots(t *testing.T) {
	p, err := Init(&sdk.Env{Name: "filesystem"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, p, "fs_list", map[string]any{}); err == nil || !strings.Contains(err.Error(), "no folder is granted") {
		t.Fatalf("error = %v", err)
	}
}

func TestConfirmPatterns(t *testing.T) {
	m := manifest(t)
	tests := []struct {
		line string
		want bool
	}{
		{`fs_write {"content":"x","path":"/etc/hosts"}`, true},
		{`fs_patch {"path":"/usr/local/bin/tool","replace":"b","search":"a"}`, true},
		{`fs_write {"content":"x","create_dirs":true,"path":"C:\\Windows\\System32\\drivers\\etc\\hosts"}`, true},
		{`fs_write {"content":"x","path":"/home/me/.ssh/authorized_keys"}`, true},
		{`fs_patch {"path":"/home/me/.bashrc","replace":"b","search":"a"}`, true},
		{`fs_write {"content":"x","path":"/Library/LaunchDaemons/x.plist"}`, true},
		{`fs_write {"content":"x","path":"/home/me/project/etc/config"}`, false},
		{`fs_write {"content":"{\"path\":\"/etc/passwd\"}","path":"/home/me/notes.json"}`, false},
		{`fs_write {"content":"x","path":"/home/me/.bashrc.bak"}`, false},
		{`fs_write {"content":"x","path":"/home/me/ssh/notes"}`, false},
		{`fs_read {"path":"/etc/hosts"}`, false},
		{`fs_list {"path":"/usr"}`, false},
		{`fs_write {"content":"x","path":"/variables.txt"}`, false},
	}
	for _, tc := range tests {
		got := false
		for _, p := range m.ConfirmPatterns {
			if p.Re.MatchString(tc.line) {
				got = true
			}
		}
		if got != tc.want {
			t.Errorf("%s: confirm = %v, want %v", tc.line, got, tc.want)
		}
	}
}

func TestDangerPatterns(t *testing.T) {
	m := manifest(t)
	tests := []struct {
		line string
		want bool
	}{
		{`fs_read {"path":"/proc/self/environ"}`, true},
		{`fs_read {"path":"/proc/1234/environ"}`, true},
		{`fs_read {"path":"/proc/1/task/7/environ"}`, true},
		{`fs_read {"end_line":5,"path":"../../proc/1/environ"}`, true},
		{`fs_write {"content":"x","path":"/proc/self/environ"}`, true},
		{`fs_patch {"path":"/proc/1/environ","replace":"b","search":"a"}`, true},
		{`fs_grep {"path":"/proc/42/environ","pattern":"KEY"}`, true},
		{`fs_grep {"path":"/proc","pattern":"sk-"}`, true},
		{`fs_grep {"path":"/proc/self/","pattern":"sk-"}`, true},
		{`fs_grep {"glob":"environ","path":"/proc/1","pattern":"KEY"}`, true},
		{`fs_find {"path":"/proc","pattern":"*/environ"}`, true},
		{`fs_find {"pattern":"/proc/*/environ"}`, true},
		{`fs_read {"path":"/home/me/.local/share/wrasse/wrasse.db"}`, true},
		{`fs_read {"path":"C:\\Users\\me\\AppData\\Local\\wrasse\\wrasse.db"}`, true},
		{`fs_read {"path":"wrasse.db.bak"}`, true},
		{`fs_write {"content":"x","path":"/home/me/.local/share/wrasse/wrasse.db"}`, true},
		{`fs_patch {"path":"wrasse.db","replace":"b","search":"a"}`, true},
		{`fs_grep {"path":"/home/me/.local/share/wrasse/wrasse.db","pattern":"sk-"}`, true},
		{`fs_grep {"glob":"wrasse.db","pattern":"sk-"}`, true},
		{`fs_find {"pattern":"**/wrasse.db"}`, true},
		// Harmless.
		{`fs_read {"path":"/proc/cpuinfo"}`, false},
		{`fs_grep {"path":"/proc/cpuinfo","pattern":"model name"}`, false},
		{`fs_read {"path":"/home/me/notes/environment.md"}`, false},
		{`fs_grep {"path":"src","pattern":"/proc/self/environ"}`, false},
		{`fs_grep {"path":".","pattern":"wrasse\\.db"}`, false},
		{`fs_find {"path":"/proc","pattern":"cpuinfo"}`, false},
		{`fs_find {"pattern":"**/*.db"}`, false},
		{`fs_list {"path":"/proc"}`, false},
		{`fs_write {"content":"the database is wrasse.db","path":"/home/me/notes.md"}`, false},
		{`fs_read {"path":"/home/me/project/main.go"}`, false},
	}
	for _, tc := range tests {
		got := false
		for _, p := range m.DangerPatterns {
			if p.Re.MatchString(tc.line) {
				got = true
			}
		}
		if got != tc.want {
			t.Errorf("%s: block = %v, want %v", tc.line, got, tc.want)
		}
	}
	for _, p := range m.DangerPatterns {
		if p.Reason == "" {
			t.Errorf("danger pattern %q has no reason", p.Pattern)
		}
	}
}

// Hard links name the very file they link: one to a file no tool may read
// is refused or left out wherever it is met, and a write to one to a
// capability's file replaces the link's name, never the capability's file.
func TestHardLinksToProtectedFiles(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "ws")
	skill := filepath.Join(ws, "brain", "cerebellum", "notes", "SKILL.md")
	const secret = "sk-HARDLINK"
	files := map[string]string{filepath.Join(ws, "wrasse.db"): secret + "\x00", filepath.Join(ws, "config.json"): `{"k":"` + secret + `"}`,
		skill: "---\nname: notes\n---\n", filepath.Join(home, "docs", "a.txt"): "alpha"}
	for p, body := range files {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"docs/db.txt": "wrasse.db", "docs/settings.txt": "config.json", "docs/skill.md": "brain/cerebellum/notes/SKILL.md"} {
		if err := os.Link(filepath.Join(ws, target), filepath.Join(home, link)); err != nil {
			t.Skip("hard links unsupported:", err)
		}
	}
	p, err := Init(&sdk.Env{Name: "filesystem", Roots: []string{home, ws}, Workspace: ws,
		NoAccess: []string{filepath.Join(ws, "wrasse.db"), filepath.Join(ws, "config.json")},
		ReadOnly: []string{filepath.Join(ws, "brain", "cerebellum")}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool    string
		args    map[string]any
		errWant string
	}{
		{"fs_read", map[string]any{"path": "docs/db.txt"}, "another name of"},
		{"fs_read", map[string]any{"path": "docs/settings.txt"}, "another name of"},
		{"fs_patch", map[string]any{"path": "docs/settings.txt", "search": "k", "replace": "x"}, "another name of"},
		{"fs_write", map[string]any{"path": "docs/settings.txt", "content": "{}"}, "another name of"},
		{"fs_grep", map[string]any{"path": "docs", "pattern": "sk-"}, ""},
		{"fs_grep", map[string]any{"path": "docs/db.txt", "pattern": "sk-"}, "another name of"},
		{"fs_list", map[string]any{"path": "docs"}, ""},
		{"fs_find", map[string]any{"path": "docs", "pattern": "*.txt"}, ""},
		{"fs_write", map[string]any{"path": "docs/skill.md", "content": "rewritten"}, ""},
		{"fs_patch", map[string]any{"path": "docs/skill.md", "search": "rewritten", "replace": "patched"}, ""},
	}
	for _, tt := range tests {
		out, err := call(t, p, tt.tool, tt.args)
		if tt.errWant != "" && (err == nil || !strings.Contains(err.Error(), tt.errWant)) {
			t.Errorf("%s %v: %q, %v; want %q", tt.tool, tt.args, out, err, tt.errWant)
		}
		if tt.errWant == "" && err != nil {
			t.Errorf("%s %v: %v", tt.tool, tt.args, err)
		}
		if strings.Contains(out, secret) || strings.Contains(out, "db.txt") || strings.Contains(out, "settings.txt") {
			t.Errorf("%s %v showed a protected file: %s", tt.tool, tt.args, out)
		}
	}
	if b, _ := os.ReadFile(skill); string(b) != "---\nname: notes\n---\n" {
		t.Errorf("the capability's SKILL.md was changed through a hard link: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(home, "docs", "skill.md")); string(b) != "patched" {
		t.Errorf("docs/skill.md = %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "config.json")); !strings.Contains(string(b), secret) {
		t.Errorf("config.json = %q", b)
	}
}
