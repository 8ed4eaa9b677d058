package sandbox

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestProgramWords(t *testing.T) {
	for _, c := range []struct {
		value string
		want  []programWord
	}{
		{"./tools/strip.sh", []programWord{{"./tools/strip.sh", true}}},
		{"sh tools/strip.sh --keep", []programWord{{"tools/strip.sh", false}}},
		// A quoted space is part of the word.
		{`"/opt/my tools/x" -v`, []programWord{{"/opt/my tools/x", true}}},
		{`'./my tools/strip.sh'`, []programWord{{"./my tools/strip.sh", true}}},
		{`./my\ tools/strip.sh`, []programWord{{"./my tools/strip.sh", true}}},
		{`"./a \"b\"/c"`, []programWord{{`./a "b"/c`, true}}},
		{"!f() { ./bin/lint; }; f", []programWord{{"./bin/lint", true}}},
		// A word without a slash may be a work-tree file (an existing one
		// is mounted); a bare command word is looked up in PATH.
		{"!./scripts/cred-helper get", []programWord{{"./scripts/cred-helper", true}, {"get", false}}},
		{"sh strip.sh", []programWord{{"strip.sh", false}}},
		{"python3 strip.py", []programWord{{"strip.py", false}}},
		{"FOO=1 env BAR=2 node tool.js", []programWord{{"tool.js", false}}},
		{"if true; then sh x.sh; fi", []programWord{{"x.sh", false}}},
		{"~/bin/textconv", []programWord{{"~/bin/textconv", true}}},
		{"less -R", nil},
		{"log --graph --format=%h/%s", nil},
		{"sed s/a/b/ | $HOME/bin/x && curl https://example.com/x", []programWord{{"s/a/b/", false}}},
		{"cat a/*.txt", nil},
		// A quoted glob or $ is the file's own name.
		{`cat 'a/*.txt' "b/$x"`, []programWord{{"a/*.txt", false}}},
		// Words after a cd are inside its folder; a group's cd ends with it.
		{"cd tools && ./strip.sh", []programWord{{"tools/strip.sh", true}}},
		{"cd tools; cd sub && sh x.sh y", []programWord{{"tools/sub/x.sh", false}, {"tools/sub/y", false}}},
		{"(cd tools && ./a) && ./b", []programWord{{"tools/a", true}, {"./b", true}}},
		{"cd /opt/t && ./a", []programWord{{"/opt/t/a", true}}},
		{"cd $D && ./a; cd - && ./b", []programWord{{"./a", false}, {"./b", false}}},
		{"cd tools >/dev/null && ./a", []programWord{{"/dev/null", false}, {"tools/a", true}}},
		// Operators separate words without spaces; a comment is no word.
		{"./a;./b|./c&&./d", []programWord{{"./a", true}, {"./b", true}, {"./c", true}, {"./d", true}}},
		{"./a <in >out # ./c\n./d", []programWord{{"./a", true}, {"in", false}, {"out", false}, {"./d", true}}},
		{"./a line\\\ncont", []programWord{{"./a", true}, {"linecont", false}}},
		{"'unclosed/x", []programWord{{"unclosed/x", true}}},
		{"", nil},
		// Each simple command's program is its first word past reserved
		// words, assignments and prefixes with their options (a42).
		{"exec ./tools/strip.sh", []programWord{{"./tools/strip.sh", true}}},
		{"env ./tools/strip.sh", []programWord{{"./tools/strip.sh", true}}},
		{"LC_ALL=C ./tools/strip.sh", []programWord{{"./tools/strip.sh", true}}},
		{"/usr/bin/env -i -u HOME FOO=1 nice -n 5 nohup exec -a x ./x y", []programWord{{"./x", true}, {"y", false}}},
		{"timeout -s KILL 10 stdbuf -oL ./x; time -p ./y", []programWord{{"./x", true}, {"./y", true}}},
		{"command -- ./x", []programWord{{"./x", true}}},
		{"./tools/env ./x", []programWord{{"./tools/env", true}, {"./x", false}}},
		// env -C moves its command only; one that cannot be followed
		// leaves no program to make.
		{"env -C tools ./strip.sh && ./b", []programWord{{"tools/strip.sh", true}, {"./b", true}}},
		{"env --chdir=tools ./a; env -Ctools sh b.sh", []programWord{{"tools/a", true}, {"tools/b.sh", false}}},
		{"env -C $D ./a", []programWord{{"./a", false}}},
		{"cd $D && ./a", []programWord{{"./a", false}}},
		{"env -S './a -v' b", []programWord{{"./a", true}, {"b", false}}},
		// A shell's -c command line is taken as the shell takes it.
		{`sh -c "cd tools && ./strip.sh"`, []programWord{{"tools/strip.sh", true}}},
		{`bash -ec 'exec ./x "$1"' _ y`, []programWord{{"./x", true}, {"_", false}, {"y", false}}},
		{`cd t && /bin/sh -o errexit -c "./x" && ./y`, []programWord{{"/bin/sh", true}, {"t/x", true}, {"t/y", true}}},
		{`sh -c "sh -c \"sh -c './x'\""`, []programWord{{"./x", true}}},
		{"sh -e ./x.sh", []programWord{{"./x.sh", false}}},
		// What node and python run for a script's name.
		{"node tools/strip", []programWord{{"tools/strip", false}, {"tools/strip.js", false}, {"tools/strip.mjs", false},
			{"tools/strip.cjs", false}, {"tools/strip.node", false}, {"tools/strip/index.js", false},
			{"tools/strip/index.node", false}, {"tools/strip/package.json", false}}},
		{"node -e 'x' --require=./pre.js strip.mjs", []programWord{{"./pre.js", false}, {"strip.mjs", false}}},
		{"python3 -m tools.strip x", []programWord{{"tools/__init__.py", false}, {"tools/strip.py", false},
			{"tools/strip/__init__.py", false}, {"tools/strip/__main__.py", false}, {"x", false}}},
		{"python3.12 -Bmstrip", []programWord{{"strip.py", false}, {"strip/__init__.py", false}, {"strip/__main__.py", false}}},
		{"python -W ignore tools/strip a", []programWord{{"tools/strip", false}, {"tools/strip/__main__.py", false}, {"a", false}}},
		{"python3 -c 'import x' y", []programWord{{"y", false}}},
	} {
		if got := programWords(c.value); !reflect.DeepEqual(got, c.want) {
			t.Errorf("programWords(%q) = %v, want %v", c.value, got, c.want)
		}
	}
}

// settingPrograms keeps each simple command's program as first (a42),
// none in an alias that is git's own arguments, and expands ~.
func TestSettingPrograms(t *testing.T) {
	for _, c := range []struct {
		section, key, value string
		want                []settingProgram
	}{
		{"filter", "clean", "LC_ALL=C ./a && exec ./b x", []settingProgram{{"./a", true}, {"./b", true}, {"x", false}}},
		{"filter", "clean", "env -C tools node strip", []settingProgram{{"tools/strip", false}, {"tools/strip.js", false},
			{"tools/strip.mjs", false}, {"tools/strip.cjs", false}, {"tools/strip.node", false},
			{"tools/strip/index.js", false}, {"tools/strip/index.node", false}, {"tools/strip/package.json", false}}},
		{"core", "fsmonitor", "~/bin/watch", []settingProgram{{"/home/p/bin/watch", true}}},
		{"alias", "x", "!./bin/a", []settingProgram{{"./bin/a", true}}},
		{"alias", "lg", "log ./x y", []settingProgram{{"./x", false}}},
	} {
		e := gitEntry{Section: c.section, Subsection: "s", Key: c.key, Value: c.value, HasValue: true}
		if c.section == "core" || c.section == "alias" {
			e.Subsection = ""
		}
		if got := settingPrograms(e, "/home/p"); !reflect.DeepEqual(got, c.want) {
			t.Errorf("settingPrograms(%s.%s = %q) = %+v, want %+v", c.section, c.key, c.value, got, c.want)
		}
	}
}

func TestRunsProgram(t *testing.T) {
	for _, c := range []struct {
		section, sub, key string
		want              bool
	}{
		{"filter", "strip", "clean", true},
		{"filter", "strip", "required", false},
		{"filter", "", "clean", false},
		{"diff", "nb", "textconv", true},
		{"diff", "", "external", true},
		{"diff", "", "algorithm", false},
		{"merge", "ours", "driver", true},
		{"core", "", "fsmonitor", true},
		{"core", "", "hookspath", false}, // a folder: settingNameMount's
		{"core", "", "autocrlf", false},
		{"alias", "", "lg", true},
		{"credential", "https://example.com", "helper", true},
		{"gpg", "ssh", "program", true},
		{"remote", "origin", "uploadpack", true},
		{"remote", "origin", "url", false},
		{"user", "", "name", false},
	} {
		e := gitEntry{Section: c.section, Subsection: c.sub, Key: c.key, Value: "x", HasValue: true}
		if got := runsProgram(e); got != c.want {
			t.Errorf("runsProgram(%s.%s.%s) = %v, want %v", c.section, c.sub, c.key, got, c.want)
		}
	}
}

// The settings reader keeps what program settings name, the last
// maxSettingPrograms of them, from the repository's config and what it
// includes.
func TestSettingsKeepProgramPaths(t *testing.T) {
	dir := t.TempDir()
	inc := filepath.Join(dir, "shared.gitconfig")
	if err := os.WriteFile(inc, []byte("[diff \"nb\"]\n\ttextconv = python3 tools/nbconv.py\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("[include]\n\tpath = " + inc + "\n[filter \"strip\"]\n\tclean = ./tools/strip.sh\n[core]\n\tpager = less -R\n")
	for i := range maxSettingPrograms + 5 {
		b.WriteString("[alias]\n\tx" + strings.Repeat("y", i) + " = !./bin/a" + strings.Repeat("b", i) + "\n")
	}
	cfg := filepath.Join(dir, "config")
	if err := os.WriteFile(cfg, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s := readGitSettings(dir, cfg)
	if len(s.programs) != maxSettingPrograms {
		t.Fatalf("kept %d program paths, want the last %d", len(s.programs), maxSettingPrograms)
	}
	if last := s.programs[len(s.programs)-1]; last.path != "./bin/a"+strings.Repeat("b", maxSettingPrograms+4) || !last.first {
		t.Errorf("last program path %+v", last)
	}
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("[include]\n\tpath = "+inc+"\n[filter \"strip\"]\n\tclean = ./tools/strip.sh\n[core]\n\tpager = less -R\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := []settingProgram{{"tools/nbconv.py", false}, {"./tools/strip.sh", true}}
	if got := readGitSettings(dir, small).programs; !reflect.DeepEqual(got, want) {
		t.Errorf("program paths %+v, want %+v (the included file's textconv, then the filter)", got, want)
	}
}

func FuzzProgramWords(f *testing.F) {
	for _, s := range []string{"./x", "!sh a/b", "env -C t exec ./x", `sh -c "cd t && node x"`, "python3 -m a.b", "env -S 'env -S \"./x\"'", `"q/x" 'y/z'`, "~/bin/x --a=b/c", "a;b|c&d(e)f<g>h/i", "cd t && ./x", `a\ b "c\"d" 'e`, "(cd a; (cd b) ./c) ./d # e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, value string) {
		words := programWords(value)
		// Each word names at most a dozen files an interpreter may run
		// for it.
		if len(words) > 16*len(value) {
			t.Fatalf("programWords(%q) gave %d words", value, len(words))
		}
		for _, w := range words {
			if w.path == "" || strings.HasPrefix(w.path, "-") || strings.Contains(w.path, "://") ||
				w.first && (filepath.Base(w.path) == "." || filepath.Base(w.path) == ".." || strings.HasSuffix(w.path, "/")) {
				t.Fatalf("programWords(%q) gave %+v", value, w)
			}
		}
		// A value of plain words and spaces splits as strings.Fields
		// does, command words without a slash left out.
		if strings.Trim(value, "abc./ ") == "" {
			var want []string
			for i, w := range strings.Fields(value) {
				if i > 0 || strings.Contains(w, "/") {
					want = append(want, w)
				}
			}
			var got []string
			for _, w := range words {
				got = append(got, w.path)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("programWords(%q) gave %q, want %q", value, got, want)
			}
		}
	})
}
