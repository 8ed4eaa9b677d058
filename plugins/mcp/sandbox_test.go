package mcp

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestArgPaths(t *testing.T) {
	home := t.TempDir()
	project := filepath.Join(home, "projects", "srv")
	script := filepath.Join(project, "server.js")
	loose := filepath.Join(home, "server.py")
	built := filepath.Join(home, "projects", "app", "dist", "index.js")
	manifest := filepath.Join(home, "projects", "app", "package.json")
	for _, f := range []string{script, loose, built, manifest} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"a script and its folder", []string{script}, []string{script, project}},
		{"a built script and its project", []string{built}, []string{built, filepath.Join(home, "projects", "app")}},
		{"a folder", []string{"--directory", project}, []string{project}},
		{"after an equals sign", []string{"--directory=" + project}, []string{project}},
		{"a script in the home folder opens only itself", []string{loose}, []string{loose}},
		{"relative paths, flags and missing paths are no paths", []string{"server.js", "-y", filepath.Join(home, "missing")}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := argPaths(tc.args, home); !slices.Equal(got, tc.want) {
				t.Errorf("argPaths(%q) = %q; want %q", tc.args, got, tc.want)
			}
		})
	}
}

func TestLookPath(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "srv"), nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "data"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ command, path, cwd, want string }{
		{"srv", "relative:" + bin, "", filepath.Join(bin, "srv")},
		{"data", bin, "", ""},
		{"./run.sh", "", dir, filepath.Join(dir, "run.sh")},
		{"/usr/bin/env", "", "", "/usr/bin/env"},
		{"", bin, "", ""},
	}
	for _, tc := range cases {
		if got := lookPath(tc.command, tc.path, tc.cwd); got != tc.want {
			t.Errorf("lookPath(%q, %q, %q) = %q; want %q", tc.command, tc.path, tc.cwd, got, tc.want)
		}
	}
}

func TestNamesFolder(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "server.js")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{file, dir}, true},
		{[]string{"--root=" + dir}, true},
		{[]string{file}, false},
		{[]string{"-y", "@modelcontextprotocol/server-filesystem"}, false},
		{[]string{"relative/folder"}, false},
	} {
		if got := namesFolder(tc.args); got != tc.want {
			t.Errorf("namesFolder(%q) = %v; want %v", tc.args, got, tc.want)
		}
	}
}
