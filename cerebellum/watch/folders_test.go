package watch

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestFolders(t *testing.T) {
	dir := filepath.Join(string(filepath.Separator)+"ws", "brain", "cerebellum")
	in := func(p ...string) string { return filepath.Join(append([]string{dir}, p...)...) }
	for _, tc := range []struct {
		name  string
		paths []string
		want  string // "<all>" for nil
	}{
		{"overflow", nil, "<all>"},
		{"one file", []string{in("notes", "SKILL.md")}, "notes"},
		{"deep and repeated", []string{in("notes", "plugin", "main.go"), in("notes", "SKILL.md"), in("alpha")}, "alpha,notes"},
		{"the folder itself", []string{dir}, "<all>"},
		{"outside", []string{in("notes", "SKILL.md"), filepath.Join(string(filepath.Separator)+"elsewhere", "x")}, "<all>"},
	} {
		got := Folders(dir, tc.paths)
		s := strings.Join(got, ",")
		if got == nil {
			s = "<all>"
		}
		if s != tc.want {
			t.Errorf("%s: Folders = %s, want %s", tc.name, s, tc.want)
		}
	}
}
