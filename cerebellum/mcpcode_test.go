package cerebellum_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// An approval covers the code an approved command line can load, not only
// the files it names: what a script sources or imports from its project, a
// folder an interpreter runs, the working folder a module or package runs
// from: every file there but a server's database and logs. Data folders
// and version-control folders are not code.
func TestLaunchFilesCoverLoadedCode(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"sh/server.sh":               ". ./lib.sh",
		"sh/lib.sh":                  ": v1",
		"sh/README.md":               "words",
		"py/server.py":               "import json",
		"py/helper.py":               "",
		"py/data/rows.db":            "1,2",
		"node/package.json":          `{"main": "dist/index.js"}`,
		"node/dist/index.js":         "",
		"node/node_modules/x/a.js":   "",
		"node/node_modules/x/b.node": "",
		"node/.git/hooks/pre-commit": "#!/bin/sh",
		"app/index.js":               "",
		"mod/pkg/__init__.py":        "",
		"mod/pkg/__main__.py":        "",
		"docs/notes.txt":             "",
		"docs/tool.py":               "",
	}
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in := func(names ...string) []string {
		var out []string
		for _, n := range names {
			out = append(out, filepath.Join(root, n))
		}
		return out
	}
	sh, py, node := "/bin/sh", "python3", "node"
	cases := []struct {
		name string
		s    skillmd.MCPServer
		// want are the files of root in LaunchFiles (the program found on
		// PATH is left out of the comparison).
		want []string
	}{
		{"a shell script and what lies beside it", skillmd.MCPServer{Command: sh, Args: []string{filepath.Join(root, "sh/server.sh")}},
			in("sh/README.md", "sh/lib.sh", "sh/server.sh")},
		{"a python script: its folder's modules, not its database", skillmd.MCPServer{Command: py, Args: []string{filepath.Join(root, "py/server.py"), "--data", filepath.Join(root, "py/data")}},
			in("py/helper.py", "py/server.py")},
		{"a built node script: its whole project, node_modules too, not .git", skillmd.MCPServer{Command: node, Args: []string{filepath.Join(root, "node/dist/index.js")}},
			in("node/dist/index.js", "node/node_modules/x/a.js", "node/node_modules/x/b.node", "node/package.json")},
		{"node given a folder", skillmd.MCPServer{Command: node, Args: []string{"--no-warnings", filepath.Join(root, "app")}},
			in("app/index.js")},
		{"python -m from the working folder", skillmd.MCPServer{Command: py, Args: []string{"-m", "pkg"}, Cwd: filepath.Join(root, "mod")},
			in("mod/pkg/__init__.py", "mod/pkg/__main__.py")},
		{"npm start in the working folder", skillmd.MCPServer{Command: "npm", Args: []string{"start"}, Cwd: filepath.Join(root, "node")},
			in("node/dist/index.js", "node/node_modules/x/a.js", "node/node_modules/x/b.node", "node/package.json")},
		{"a folder named as a package's data is not code", skillmd.MCPServer{Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", filepath.Join(root, "docs")}},
			nil},
		{"a folder named after the script is the script's data", skillmd.MCPServer{Command: node, Args: []string{filepath.Join(root, "app/index.js"), filepath.Join(root, "docs")}},
			in("app/index.js")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range cerebellum.LaunchFiles(&tc.s, root) {
				if strings.HasPrefix(f, root+string(filepath.Separator)) {
					got = append(got, f)
				}
			}
			want := slices.Sorted(slices.Values(tc.want))
			if !slices.Equal(got, want) {
				t.Errorf("LaunchFiles in the fixture = %q\nwant %q", got, want)
			}
		})
	}
}

// A planted module changes the approval; a data file changing does not.
func TestApprovalKeyCoversPlantedModule(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "server.py")
	if err := os.WriteFile(script, []byte("import json"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &skillmd.MCPServer{Command: "python3", Args: []string{script, filepath.Join(dir, "rows.db")}}
	before := cerebellum.ApprovalKey(s, dir)
	if err := os.WriteFile(filepath.Join(dir, "rows.db"), []byte("data"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := cerebellum.ApprovalKey(s, dir); got != before {
		t.Errorf("the server's data file changed its approval: %q → %q", before, got)
	}
	if err := os.WriteFile(filepath.Join(dir, "json.py"), []byte("import os"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := cerebellum.ApprovalKey(s, dir); got == before {
		t.Error("json.py planted beside the approved script left its approval as it was")
	}
}

// A server whose working folder is its capability's folder never has the
// workspace above it looked through: Wrasse's settings, caches and other
// capabilities change all day (each change would undo the approval), and
// a shell string's token file is read, not run.
func TestLaunchFilesStayInTheCapabilityFolder(t *testing.T) {
	ws := t.TempDir()
	capDir := filepath.Join(ws, "brain", "cerebellum", "probe")
	for name, content := range map[string]string{
		"package.json":                         "{}", // a marker above the capability
		"config.json":                          "{}",
		".cache/manifests.json":                "{}",
		"brain/cerebellum/other/SKILL.md":      "x",
		"brain/cerebellum/probe/SKILL.md":      "x",
		"brain/cerebellum/probe/run.sh":        "exec true",
		"token/secret.token":                   "t",
		"brain/cerebellum/probe/lib/helper.sh": ": v1",
	} {
		p := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := skillmd.MCPServer{Command: "/bin/sh", Args: []string{"-c", "cat " + filepath.Join(ws, "token/secret.token") + "; exec ./run.sh"}}
	real, _ := filepath.EvalSymlinks(capDir)
	for _, f := range cerebellum.LaunchFiles(&s, capDir) {
		if strings.HasPrefix(f, cerebellum.UncheckedPrefix) || strings.HasPrefix(f, cerebellum.PathEntryPrefix) || strings.HasPrefix(f, "/usr/") || strings.HasPrefix(f, "/bin/") {
			continue
		}
		if !strings.HasPrefix(f, real+string(filepath.Separator)) {
			t.Errorf("LaunchFiles holds %s, outside the capability's folder %s", f, real)
		}
	}
}
