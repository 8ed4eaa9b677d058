//go:build linux

package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// a40: the scripts a repository's settings run were made read-only by
// the words of the value that held a slash, split at spaces, and only the
// file itself. The person's repository app (there before the command, its
// settings read-only) runs a work-tree script from a filter's clean (git
// add) or a linked hook (git commit); the command must not be able to
// change what that script is: programWords splits the value as the shell
// does and keeps a word without a slash that names a file, follows a cd,
// and the folders above each mount are pinned (mountPlan).
func TestA40SettingScriptStillWritable(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	for _, c := range []struct {
		name string
		// files are the person's work-tree files (relative to app);
		// clean is filter.strip.clean, hook a link .git/hooks/pre-commit
		// leads to ("" for none).
		files map[string]string
		clean string
		hook  string
		// attack is the command, run in app; %M is the marker.
		attack string
		// uncovered says why the sandbox does not keep this case from
		// the command yet (docs/plugins.md, "Not covered yet").
		uncovered string
	}{{
		// An interpreter's argument with no slash is a file in the work
		// tree all the same: git runs the filter there.
		name:   "sh strip.sh",
		files:  map[string]string{"strip.sh": "cat\n"},
		clean:  "sh strip.sh",
		attack: "printf 'touch %M\\ncat\\n' > strip.sh",
	}, {
		name:   "python3 strip.py",
		files:  map[string]string{"strip.py": "import sys\nsys.stdout.write(sys.stdin.read())\n"},
		clean:  "python3 strip.py",
		attack: "printf 'open(\"%M\",\"w\")\\nimport sys\\nsys.stdout.write(sys.stdin.read())\\n' > strip.py",
	}, {
		// The shell joins a quoted word with a space.
		name:   "a quoted path with a space",
		files:  map[string]string{"my tools/strip.sh": "#!/bin/sh\ncat\n"},
		clean:  `"./my tools/strip.sh"`,
		attack: "printf '#!/bin/sh\\ntouch %M\\ncat\\n' > 'my tools/strip.sh'",
	}, {
		// A cd first: the script run is tools/strip.sh, not one beside
		// the work tree's top.
		name:   "a cd into tools first",
		files:  map[string]string{"tools/strip.sh": "#!/bin/sh\ncat\n"},
		clean:  "cd tools && ./strip.sh",
		attack: "printf '#!/bin/sh\\ntouch %M\\ncat\\n' > tools/strip.sh",
	}, {
		// The script is read-only; what it sources is not: the plan
		// does not read scripts.
		name:      "a script that sources another",
		files:     map[string]string{"tools/strip.sh": "#!/bin/sh\n. tools/lib.sh\ncat\n", "tools/lib.sh": ":\n"},
		clean:     "sh tools/strip.sh",
		attack:    "printf 'touch %M\\n' > tools/lib.sh",
		uncovered: "a file a setting's script sources is not kept from the command",
	}, {
		// The mount is on the file: the folder above it is the
		// command's to rename, and a new folder of the same name with a
		// script of the command's takes its place.
		name:   "./tools/strip.sh, its folder renamed",
		files:  map[string]string{"tools/strip.sh": "#!/bin/sh\ncat\n"},
		clean:  "./tools/strip.sh",
		attack: "mv tools tools.old && mkdir tools && printf '#!/bin/sh\\ntouch %M\\ncat\\n' > tools/strip.sh && chmod +x tools/strip.sh",
	}, {
		// The same for a hook linked in from the work tree
		// (TestA39HookFileLinkedIntoWorkTree).
		name:   "a linked hook, its folder renamed",
		files:  map[string]string{"tools/hooks/pre-commit": "#!/bin/sh\nexit 0\n"},
		hook:   "../../tools/hooks/pre-commit",
		attack: "mv tools tools.old && mkdir -p tools/hooks && printf '#!/bin/sh\\ntouch %M\\n' > tools/hooks/pre-commit && chmod +x tools/hooks/pre-commit",
	}} {
		t.Run(c.name, func(t *testing.T) {
			if c.uncovered != "" {
				t.Skip("not covered yet: " + c.uncovered)
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
			if c.clean != "" {
				git(t, app, "config", "filter.strip.clean", c.clean)
				if err := os.WriteFile(filepath.Join(app, ".gitattributes"), []byte("*.txt filter=strip\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if c.hook != "" {
				if err := os.Symlink(c.hook, filepath.Join(app, ".git", "hooks", "pre-commit")); err != nil {
					t.Fatal(err)
				}
			}
			git(t, app, "add", "-A")
			git(t, app, "commit", "-q", "-m", "setup")
			if _, err := os.Stat(marker); err == nil {
				t.Fatal("the marker is there before the command")
			}
			out, _ := runIn(t, f.commandPolicy(), app, strings.ReplaceAll(c.attack, "%M", marker), nil)
			t.Logf("command: %s", out)
			for name := range c.files {
				b, _ := os.ReadFile(filepath.Join(app, name))
				t.Logf("%s after the command: %q", name, b)
			}
			if strings.Contains(out, "no mount namespace") {
				t.Fatalf("no mount namespace: %s", out)
			}
			if err := os.WriteFile(filepath.Join(app, "x.txt"), []byte("x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			got := gitOK(app, "add", "x.txt")
			got += gitOK(app, "commit", "-q", "-m", "mine")
			if _, err := os.Stat(marker); err == nil {
				t.Errorf("%s: the person's git add/commit ran a script the command changed, unconfined: command: %s\nperson's git: %s", c.name, out, got)
			}
		})
	}
}
