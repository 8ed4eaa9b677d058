//go:build linux

package sandbox_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// a42: programWords pinned a word of a program setting's value only
// where the word itself named an existing file; the program it runs may
// turn that word into another file, or take a whole command line as one
// word:
//
//   - `node tools/strip`: node runs tools/strip.js (it adds .js);
//   - `python3 -m tools.strip`: python runs tools/strip.py from the
//     working folder (the work tree's top, where git runs filters);
//   - `sh -c "cd tools && ./strip.sh"`: the quoted string is one word
//     ("cd tools && ./strip.sh", no such file); sh runs tools/strip.sh;
//   - `env -C tools ./strip.sh`: env's -C moves to tools as cd does, but
//     ./strip.sh was taken at the work tree's top (no such file there).
//
// In each, the person's own settings name a work-tree script that stayed
// writable to a sandboxed command, and the person's next `git add` ran
// what the command wrote there, unconfined. programWords now names the
// files node and python run for a script's name or module, takes sh -c's
// command line as the shell does, and env -C as a cd: the script is
// read-only to the command.
func TestA42SettingScriptResolvedByItsProgram(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	for _, c := range []struct {
		name, need string
		files      map[string]string
		clean      string
		attack     string
	}{{
		name:   "node adds .js",
		need:   "node",
		files:  map[string]string{"tools/strip.js": "process.stdin.pipe(process.stdout)\n"},
		clean:  "node tools/strip",
		attack: `printf 'require("fs").writeFileSync("%M","x");process.stdin.pipe(process.stdout)\n' > tools/strip.js`,
	}, {
		name:   "python3 -m tools.strip",
		need:   "python3",
		files:  map[string]string{"tools/strip.py": "import sys\nsys.stdout.write(sys.stdin.read())\n"},
		clean:  "python3 -m tools.strip",
		attack: `printf 'open("%M","w")\nimport sys\nsys.stdout.write(sys.stdin.read())\n' > tools/strip.py`,
	}, {
		name:   "sh -c with a cd",
		need:   "sh",
		files:  map[string]string{"tools/strip.sh": "#!/bin/sh\ncat\n"},
		clean:  `sh -c "cd tools && ./strip.sh"`,
		attack: `printf '#!/bin/sh\ntouch %M\ncat\n' > tools/strip.sh`,
	}, {
		name:   "env -C tools ./strip.sh",
		need:   "env",
		files:  map[string]string{"tools/strip.sh": "#!/bin/sh\ncat\n"},
		clean:  `env -C tools ./strip.sh`,
		attack: `printf '#!/bin/sh\ntouch %M\ncat\n' > tools/strip.sh`,
	}} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := exec.LookPath(c.need); err != nil {
				t.Skip("no " + c.need)
			}
			f := newFixture(t)
			app := newRepo(t, filepath.Join(f.granted, "app"))
			marker := filepath.Join(f.outside, "ran-unconfined")
			for name, body := range c.files {
				p := filepath.Join(app, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			git(t, app, "config", "filter.strip.clean", c.clean)
			if err := os.WriteFile(filepath.Join(app, ".gitattributes"), []byte("*.txt filter=strip\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			git(t, app, "add", "-A")
			git(t, app, "commit", "-q", "-m", "setup")
			if _, err := os.Stat(marker); err == nil {
				t.Fatal("the marker is there before the command")
			}
			out, ok := runIn(t, f.commandPolicy(), app, strings.ReplaceAll(c.attack, "%M", marker)+" && echo A42-WROTE", nil)
			t.Logf("command: %s", out)
			if strings.Contains(out, "no mount namespace") {
				t.Fatalf("no mount namespace: %s", out)
			}
			if !ok || !strings.Contains(out, "A42-WROTE") {
				t.Logf("the command could not rewrite the script (held): %s", out)
			}
			if err := os.WriteFile(filepath.Join(app, "x.txt"), []byte("x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			got := gitOK(app, "add", "x.txt")
			if _, err := os.Stat(marker); err == nil {
				t.Errorf("%s: the person's git add ran %q, a script the command rewrote, unconfined: command: %s\nperson's git: %s", c.name, c.clean, out, got)
			}
		})
	}
}
