package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseGitConfig(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []gitEntry
		bad      bool
	}{
		{"plain", "[core]\n\thooksPath = .husky/_\n",
			[]gitEntry{{"core", "", "hookspath", ".husky/_", true}}, false},
		{"case of section and key", "[CoRe]\n\tHooksPATH=x\n",
			[]gitEntry{{"core", "", "hookspath", "x", true}}, false},
		{"subsection kept exactly", "[includeIf \"gitdir:~/Work/\"]\n\tpath = w.inc\n",
			[]gitEntry{{"includeif", "gitdir:~/Work/", "path", "w.inc", true}}, false},
		{"subsection escapes", "[a \"x\\\"y\\\\z\\q\"]\nk=v\n",
			[]gitEntry{{"a", "x\"y\\zq", "k", "v", true}}, false},
		{"old subsection form lower case", "[Include.Sub]\npath=p\n",
			[]gitEntry{{"include", "sub", "path", "p", true}}, false},
		{"key on the header's line", "[include] path = a\n",
			[]gitEntry{{"include", "", "path", "a", true}}, false},
		{"no value", "[extensions]\n\tworktreeConfig\n",
			[]gitEntry{{"extensions", "", "worktreeconfig", "", false}}, false},
		{"quotes, escapes, comments", "[core]\n\tx = \"a ; b\" # c\n\ty = a\\tb\\\\ \\\"q\\\" ; d\n",
			[]gitEntry{{"core", "", "x", "a ; b", true}, {"core", "", "y", "a\tb\\ \"q\"", true}}, false},
		{"inner spaces kept, outer dropped", "[s]\nk =   a   b   \n",
			[]gitEntry{{"s", "", "k", "a   b", true}}, false},
		{"continuation line", "[include]\n\tpath = ~/dot\\\nfiles/git\n",
			[]gitEntry{{"include", "", "path", "~/dotfiles/git", true}}, false},
		{"CRLF and BOM", "\xef\xbb\xbf[core]\r\n\thooksPath = h\r\n",
			[]gitEntry{{"core", "", "hookspath", "h", true}}, false},
		{"comment lines", "# c\n; d\n[s]\n  # e\nk=v\n",
			[]gitEntry{{"s", "", "k", "v", true}}, false},
		{"key before any section is no setting", "k = v\n[s]\nk=w\n",
			[]gitEntry{{"s", "", "k", "w", true}}, false},
		{"bad escape stops, keeping what came before", "[s]\na=1\nb=\\x\nc=3\n",
			[]gitEntry{{"s", "", "a", "1", true}}, true},
		{"unterminated quote", "[s]\na=\"x\nb=2\n", nil, true},
		{"unterminated header", "[s\n", nil, true},
		{"unquoted subsection", "[s x]\n", nil, true},
		{"key starting with a digit", "[s]\n1a=2\n", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseGitConfig([]byte(tc.in))
			if (err != nil) != tc.bad {
				t.Fatalf("error %v, want one: %v", err, tc.bad)
			}
			if err != nil && !errors.Is(err, errGitConfig) {
				t.Errorf("error %v is not errGitConfig", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

// writeGitConfig writes entries back in git's syntax, quoting and
// escaping every subsection and value.
func writeGitConfig(entries []gitEntry) string {
	var b strings.Builder
	esc := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\b", `\b`)
	for _, e := range entries {
		b.WriteString("[" + e.Section)
		if e.Subsection != "" {
			b.WriteString(` "` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(e.Subsection) + `"`)
		}
		b.WriteString("]\n\t" + e.Key)
		if e.HasValue {
			b.WriteString(` = "` + esc.Replace(e.Value) + `"`)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// The settings files come from repositories and home folders a command
// may have written: the reader never panics, and what it reads, written
// back, reads the same.
func FuzzParseGitConfig(f *testing.F) {
	for _, s := range []string{
		"[core]\n\thooksPath = .husky/_\n",
		"[include]\n\tpath = ../.gitconfig\n[includeIf \"gitdir:~/w/\"]\n\tpath = ~/w.inc\n",
		"[a \"x\\\"y\"] k = \"v ; w\" # c\r\n",
		"[s.T]\nk\nv = a\\\nb\n",
		"\xef\xbb\xbf[s]\nk = \\t\\b\\n\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, _ := parseGitConfig(data)
		for _, e := range entries {
			if e.Section == "" && e.Subsection == "" {
				t.Fatalf("an entry without a section: %#v", e)
			}
			if e.Key == "" || e.Key != strings.ToLower(e.Key) || e.Section != strings.ToLower(e.Section) {
				t.Fatalf("key or section not in lower case: %#v", e)
			}
			if !e.HasValue && e.Value != "" {
				t.Fatalf("a value without one: %#v", e)
			}
		}
		again, err := parseGitConfig([]byte(writeGitConfig(entries)))
		if err != nil {
			t.Fatalf("written back: %v\n%q", err, writeGitConfig(entries))
		}
		if len(again) != len(entries) || (len(entries) > 0 && !reflect.DeepEqual(again, entries)) {
			t.Fatalf("written back reads differently:\n%#v\n%#v", entries, again)
		}
	})
}

func TestReadGitSettings(t *testing.T) {
	home := t.TempDir()
	repo := filepath.Join(home, "code", "app")
	write := func(path, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(repo, ".git", "config"), "[core]\n\thooksPath = .husky/_\n[include]\n\tpath = ../.gitconfig\n")
	write(filepath.Join(repo, ".gitconfig"), "[includeIf \"onbranch:main\"]\n\tpath = ~/dotfiles/main.inc\n")
	write(filepath.Join(home, "dotfiles", "main.inc"), "[core]\n\thooksPath = ~/hooks\n[include]\n\tpath = missing.inc\n")
	write(filepath.Join(home, ".gitconfig"), "[include]\n\tpath = loop\n")
	write(filepath.Join(home, "loop"), "[include]\n\tpath = loop\n")

	s := readGitSettings(home, filepath.Join(home, ".gitconfig"), filepath.Join(repo, ".git", "config"))
	wantInc := []string{filepath.Join(home, "loop"), filepath.Join(repo, ".gitconfig"),
		filepath.Join(home, "dotfiles", "main.inc"), filepath.Join(home, "dotfiles", "missing.inc")}
	if !reflect.DeepEqual(s.included, wantInc) {
		t.Errorf("included %q, want %q", s.included, wantInc)
	}
	wantHooks := []string{".husky/_", filepath.Join(home, "hooks")}
	if !reflect.DeepEqual(s.hooksPaths, wantHooks) {
		t.Errorf("hooksPaths %q, want %q", s.hooksPaths, wantHooks)
	}
}

// A chain of includes stops at git's depth, however long a command
// makes it.
func TestReadGitSettingsBoundsIncludes(t *testing.T) {
	dir := t.TempDir()
	for i := range 3 * maxIncludeDepth {
		data := "[include]\n\tpath = " + filepath.Join(dir, "c"+string(rune('a'+i))) + "\n"
		if err := os.WriteFile(filepath.Join(dir, "c"+string(rune('a'+i-1))), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := readGitSettings("", filepath.Join(dir, "c"+string(rune('a'-1))))
	if len(s.included) != maxIncludeDepth+1 {
		t.Errorf("%d files included, want git's %d levels and the one that ends them", len(s.included), maxIncludeDepth+1)
	}
}

// TestSettingsReaderShares: a share's budgets bound what it reads without
// touching its siblings', the reader's bound them all, and a file a share
// could read only part of is left for another share to read whole.
func TestSettingsReaderShares(t *testing.T) {
	dir := t.TempDir()
	pad := "[a]\n" + strings.Repeat("b = c\n", 2000) // 12 KiB before the setting
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, []byte(pad+"[core]\n\thooksPath = h\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := newSettingsReaderOf(1<<20, 1<<20)
	small := r.share(4<<10, 1<<20)
	if s := small.settings("", big); len(s.hooksPaths) != 0 || !small.over || !r.over {
		t.Errorf("a share with 4 KiB to read read past it, or said nothing (%v, over %v/%v)", s.hooksPaths, small.over, r.over)
	}
	if s := r.share(64<<10, 1<<20).settings("", big); len(s.hooksPaths) != 1 {
		t.Errorf("a sibling share did not read the file a smaller share was cut short in: %v", s.hooksPaths)
	}
	for i := 0; i < 100; i++ {
		r.share(64<<10, 1<<20).settings("", big)
	}
	if r.visited > 1<<20+64<<10 || r.read > 64<<10 {
		t.Errorf("the shares went through %d bytes and read %d, past the reader's bounds", r.visited, r.read)
	}
	if s := r.share(64<<10, 1<<20).settings("", big); len(s.hooksPaths) != 0 {
		t.Errorf("a share read on once the reader's budget was used up: %v", s.hooksPaths)
	}
}

// A core.hooksPath or include path longer than the kernel takes names
// nothing git can open: it is left out, where cleaning and resolving one
// of 120,000 folders took the plan a minute. One just under stays.
func TestReadGitSettingsLeavesOutPathsTooLongToOpen(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("a/", 3*maxGitPath) + "h"
	fits := strings.Repeat("a/", 1000) + "h"
	cfg := filepath.Join(dir, "config")
	data := "[core]\n\thooksPath = " + long + "\n[include]\n\tpath = " + long + "\n[core]\n\thooksPath = " + fits + "\n"
	if err := os.WriteFile(cfg, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	s := readGitSettings(dir, cfg)
	if !reflect.DeepEqual(s.hooksPaths, []string{fits}) {
		t.Errorf("hooksPaths %.80q…, want only the one that fits", s.hooksPaths)
	}
	if len(s.included) != 0 {
		t.Errorf("included %.80q…, want none", s.included)
	}
}
