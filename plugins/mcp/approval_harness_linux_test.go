//go:build linux

package mcp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/mcp/mcptest"
)

// changedCodeCase is one end-to-end case of the approval tests (a34, a35,
// a37): files in a granted folder, an mcp: block the person approves, and
// what a sandboxed command (or a plugin granted the folder, or fs_write)
// changes there afterwards.
type changedCodeCase struct {
	name string
	// files are written in the granted folder (g) before the approval;
	// "{G}" in a file stands for g, "{EXE}" for this test binary. A file
	// starting "#!" is executable.
	files map[string]string
	links map[string]string // link in g → target
	// tools are programs written in base/tools/bin (an installed runtime,
	// out of the granted folder), put first on the block's PATH.
	tools map[string]string
	// block is the mcp: block's command, args, env and cwd; the harness
	// adds TRACKER_TOKEN, the secret the changed code must not get.
	block func(g string) (command string, args []string, env map[string]string, cwd string)
	// changed are files of g written after the approval; marker is the
	// file the changed code writes when it runs.
	changed func(g, marker string) map[string]string
	need    string // a program the case needs, or ""
}

// changedCodeFixture is what every case may use: this test binary (the
// hostile server, given a3HostileArg), hostile.js, a python server that
// becomes it, and code that writes TRACKER_TOKEN to a marker.
type changedCodeFixture struct {
	exe, hostileJS, pyServer string
}

func newChangedCodeFixture(t *testing.T) changedCodeFixture {
	t.Helper()
	exe, err := mcptest.ServerExecutable(t)
	if err != nil {
		t.Fatal(err)
	}
	js, err := os.ReadFile(filepath.Join("testdata", "hostile.js"))
	if err != nil {
		t.Fatal(err)
	}
	return changedCodeFixture{
		exe:       exe,
		hostileJS: string(js),
		pyServer:  fmt.Sprintf("import os, sys\nos.execv(sys.argv[1], [sys.argv[1], %q])\n", a3HostileArg),
	}
}

// pyMarker and jsMarker are code that writes TRACKER_TOKEN to marker.
func pyMarker(marker string) string {
	return fmt.Sprintf("import os\nopen(%q, 'w').write(os.environ.get('TRACKER_TOKEN', ''))\n", marker)
}

func jsMarker(marker string) string {
	return fmt.Sprintf("require('fs').writeFileSync(%q, process.env.TRACKER_TOKEN || '');\n", marker)
}

// runChangedCodeCases approves and starts each case's server, makes its
// change, and starts it again: the start must be refused (ErrNotApproved)
// or the changed code must not run.
func runChangedCodeCases(t *testing.T, f changedCodeFixture, cases []changedCodeCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.need != "" {
				if _, err := exec.LookPath(c.need); err != nil {
					t.Skipf("no %s", c.need)
				}
			}
			base := t.TempDir()
			granted := filepath.Join(base, "granted")
			write := func(dir string, files map[string]string) {
				for name, content := range files {
					p := filepath.Join(dir, name)
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					content = strings.ReplaceAll(strings.ReplaceAll(content, "{G}", granted), "{EXE}", f.exe)
					mode := os.FileMode(0o644)
					if strings.HasPrefix(content, "#!") {
						mode = 0o755
					}
					if err := os.WriteFile(p, []byte(content), mode); err != nil {
						t.Fatal(err)
					}
				}
			}
			write(granted, c.files)
			for link, target := range c.links {
				p := filepath.Join(granted, link)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(target, p); err != nil {
					t.Fatal(err)
				}
			}
			command, args, env, cwd := c.block(granted)
			if env == nil {
				env = map[string]string{}
			}
			env["TRACKER_TOKEN"] = "tok-only-for-tracker"
			if c.tools != nil {
				write(filepath.Join(base, "tools", "bin"), c.tools)
				env["PATH"] = filepath.Join(base, "tools", "bin") + ":/usr/local/bin:/usr/bin:/bin"
			}
			s := newA3ServerAt(t, base, map[string]string{"tracker": trackerSkill(command, args, env, cwd)}, Options{})
			if err := s.reg.Start(context.Background(), "tracker"); err != nil {
				t.Fatalf("the approved server: %v", err)
			}
			// What a sandboxed command writes in the granted folder.
			marker := filepath.Join(granted, "changed-code-ran")
			change := c.changed(granted, marker)
			write(granted, change)
			s.reg.ReloadRuntimes()
			err := s.reg.Start(context.Background(), "tracker")
			if errors.Is(err, ErrNotApproved) {
				return
			}
			if got, serr := os.ReadFile(marker); serr == nil {
				var names []string
				for n := range change {
					names = append(names, filepath.Join(granted, n))
				}
				sort.Strings(names)
				t.Errorf("%v changed after the person approved the server, and its next start ran it (start: %v) with the server's environment (TRACKER_TOKEN=%q written to the granted folder): the approval of %s %q does not cover it", names, err, got, command, args)
			} else {
				t.Logf("start: %v; the changed code did not run (%v)", err, serr)
			}
		})
	}
}

// trackerSkill is the SKILL.md of a capability "tracker" with this mcp:
// block, env in sorted order.
func trackerSkill(command string, args []string, env map[string]string, cwd string) string {
	q := func(s string) string { return fmt.Sprintf("%q", s) }
	var qa, qe []string
	for _, a := range args {
		qa = append(qa, q(a))
	}
	for k, v := range env {
		qe = append(qe, k+": "+q(v))
	}
	sort.Strings(qe)
	block := fmt.Sprintf("  command: %s\n  args: [%s]\n  env: {%s}\n", q(command), strings.Join(qa, ", "), strings.Join(qe, ", "))
	if cwd != "" {
		block += "  cwd: " + q(cwd) + "\n"
	}
	return "---\nname: tracker\ndescription: Issues.\nmcp:\n" + block + "---\n"
}
