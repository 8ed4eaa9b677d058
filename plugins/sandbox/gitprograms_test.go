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
		{`"/opt/my tools/x" -v`, []programWord{{"/opt/my", true}, {"tools/x", false}}},
		{"!f() { ./bin/lint; }; f", []programWord{{"./bin/lint", false}}},
		{"!./scripts/cred-helper get", []programWord{{"./scripts/cred-helper", true}}},
		{"~/bin/textconv", []programWord{{"~/bin/textconv", true}}},
		{"less -R", nil},
		{"log --graph --format=%h/%s", nil},
		{"sed s/a/b/ | $HOME/bin/x && curl https://example.com/x", []programWord{{"s/a/b/", false}}},
		{"cat a/*.txt", nil},
		{"", nil},
	} {
		if got := programWords(c.value); !reflect.DeepEqual(got, c.want) {
			t.Errorf("programWords(%q) = %v, want %v", c.value, got, c.want)
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
	for _, s := range []string{"./x", "!sh a/b", `"q/x" 'y/z'`, "~/bin/x --a=b/c", "a;b|c&d(e)f<g>h/i"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, value string) {
		for _, w := range programWords(value) {
			if w.path == "" || !strings.Contains(w.path, "/") && !strings.HasPrefix(w.path, "~") || strings.ContainsAny(w.path, " \t\n$`") {
				t.Fatalf("programWords(%q) gave %q", value, w.path)
			}
		}
	})
}
