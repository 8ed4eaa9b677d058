package cerebellum

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A project too large to look through at each start stands as one
// Unchecked entry (which the MCP client refuses to start), in place of
// what lies past the bound; one within it is listed whole.
func TestCodeFilesBound(t *testing.T) {
	dir := t.TempDir()
	for i := range 30 {
		if err := os.WriteFile(filepath.Join(dir, "m"+string(rune('a'+i%26))+string(rune('a'+i/26))+".py"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name      string
		limit     int
		files     int
		unchecked bool
	}{
		{"within the bound", 100, 30, false},
		{"exactly at it (the folder and its 30 files)", 31, 30, false},
		{"past it", 20, 19, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := codeFiles([]string{dir}, "", tc.limit)
			unchecked := slices.Contains(got, UncheckedPrefix+dir)
			n := len(got)
			if unchecked {
				n--
			}
			if n != tc.files || unchecked != tc.unchecked {
				t.Errorf("codeFiles = %d files, unchecked %v; want %d, %v", n, unchecked, tc.files, tc.unchecked)
			}
		})
	}
}

func TestFileURLPaths(t *testing.T) {
	for _, c := range []struct {
		spec string
		want string // one of the paths
		ok   bool
	}{
		{"file:///g/pkg", "/g/pkg", true},
		{"file://localhost/g/pkg", "/g/pkg", true},
		{"pkg @ file:///g/pkg", "/g/pkg", true},
		{"pkg[cli] @ file:///g/p%20kg ; python_version>'3'", "/g/p kg", true},
		{"pkg@file:../pkg", "../pkg", true},
		{"@scope/pkg@file:/g/pkg", "/g/pkg", true},
		{"git+file:///g/pkg#egg=pkg", "/g/pkg", true},
		{"pkg @ git+file:///g/pkg", "/g/pkg", true},
		{"./profile:x", "", false},
		{"/g/pkg", "", false},
		{"a b@file:/x", "", false},
	} {
		got, ok := fileURLPaths(c.spec)
		if ok != c.ok || ok && !slices.Contains(got, c.want) {
			t.Errorf("fileURLPaths(%q) = %q, %v; want %q among them, %v", c.spec, got, ok, c.want, c.ok)
		}
	}
}

func TestCodeVariableWords(t *testing.T) {
	for _, c := range []struct {
		v    string
		want []string
	}{
		{`--require "/a b/hook.js" -r ./x.js`, []string{"/a b/hook.js", "./x.js"}},
		{`--require "/a \"q\"\\b.js"`, []string{`/a "q"\b.js`}},
		{`-I/p/lib -MHelper`, []string{"/p/lib", "Helper"}},
		{`-I/p/lib -rhelper`, []string{"/p/lib", "helper"}},
		{`--import=/p/hook.mjs`, []string{"/p/hook.mjs"}},
		{`/a b:/c;rel`, []string{"/a b", "/c", "rel"}},
	} {
		var got []string
		for _, w := range codeVarWords(c.v) {
			got = append(got, optionValues(w)...)
		}
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("the paths of %q are %q, without %q", c.v, got, w)
			}
		}
	}
}
