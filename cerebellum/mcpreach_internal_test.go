package cerebellum

import (
	"slices"
	"strings"
	"testing"
)

// The manifests' path dependencies (a39 A4): what each format writes.
func TestParseManifestPaths(t *testing.T) {
	cases := []struct {
		name, base, src string
		want            []string
	}{
		{"cargo inline table", "Cargo.toml", "[package]\nname = \"srv\"\n\n[dependencies]\nshared = { path = \"../shared\" }\nserde = \"1\"\n", []string{"../shared"}},
		{"cargo dependency table, single quotes", "Cargo.toml", "[dependencies.shared]\nversion = '0.1'\npath = '../shared'\n", []string{"../shared"}},
		{"cargo build, dev, target, patch", "Cargo.toml", "[build-dependencies]\nb = {version=\"1\",path=\"../b\"}\n[dev-dependencies]\nd = { path = \"../d\" }\n[target.'cfg(unix)'.dependencies]\nu = { path = \"/abs/u\" }\n[patch.crates-io]\nserde = { path = \"../serde\" }\n", []string{"../b", "../d", "../serde", "/abs/u"}},
		{"cargo lib path is inside the project", "Cargo.toml", "[lib]\npath = \"src/lib.rs\"\n", []string{"src/lib.rs"}},
		{"cargo: no path, a key ending in path", "Cargo.toml", "[dependencies]\nserde = \"1\"\n[package.metadata]\nrpath = \"../x\"\nmy_path = \"../y\"\n", nil},
		{"uv sources", "pyproject.toml", "[project]\nname = \"srv\"\ndependencies = [\"shared\"]\n\n[tool.uv.sources]\nshared = { path = \"../shared\", editable = true }\n", []string{"../shared"}},
		{"poetry path dependency", "pyproject.toml", "[tool.poetry.dependencies]\nlib = {path = \"../lib\", develop = true}\n", []string{"../lib"}},
		{"pdm file url", "pyproject.toml", "[project]\ndependencies = [\"lib @ file:///${PROJECT_ROOT}/../lib\"]\n", []string{"../lib"}},
		{"go.mod replace, one line", "go.mod", "module x\n\ngo 1.22\n\nreplace example.com/lib => ../lib\nreplace example.com/v v1.2.3 => example.com/fork v1.2.4\n", []string{"../lib"}},
		{"go.mod replace block, comments", "go.mod", "module x\nreplace (\n\texample.com/a => ./a // local\n\texample.com/b v1.0.0 => /abs/b\n\t// example.com/c => ../c\n\texample.com/d => example.com/d2 v1.0.0\n)\n", []string{"./a", "/abs/b"}},
		{"go.work use", "go.work", "go 1.22\n\nuse ./srv\nuse (\n\t../shared\n\t./tools // tools\n)\n", []string{"./srv", "../shared", "./tools"}},
		{"not a manifest", "package.json", "{\"path\": \"../x\"}", nil},
	}
	for _, tc := range cases {
		if got := parseManifestPaths(tc.base, tc.src); !slices.Equal(got, tc.want) {
			t.Errorf("%s: parseManifestPaths(%s) = %q; want %q", tc.name, tc.base, got, tc.want)
		}
	}
}

// The paths an editable install's finder maps (a39 A3).
func TestParseEditablePaths(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"setuptools finder", "import sys\nfrom importlib.machinery import ModuleSpec\nMAPPING: dict[str, str] = {'tracker': '/home/p/code/tracker/tracker'}\nNAMESPACES: dict[str, list[str]] = {'ns': ['/home/p/code/tracker/ns']}\nPATH_PLACEHOLDER = '__editable__.tracker-0.1.finder' + \".__path_hook__\"\n",
			[]string{"/home/p/code/tracker/tracker", "/home/p/code/tracker/ns"}},
		{"older setuptools finder", "MAPPING = {\"a\": \"/src/a\", \"b\": \"/src/b\"}\nNAMESPACES = {}\n", []string{"/src/a", "/src/b"}},
		{"editables (hatchling)", "from editables.redirector import RedirectingFinder as F\nF.install()\nF.map_module('tracker', '/home/p/code/tracker/src/tracker/__init__.py')\n",
			[]string{"/home/p/code/tracker/src/tracker/__init__.py"}},
		{"windows path", "MAPPING = {'a': 'C:\\\\Users\\\\p\\\\a'}\n", []string{`C:\Users\p\a`}},
		{"no paths", "import os\nx = 'relative/path'\n", nil},
	}
	for _, tc := range cases {
		if got := parseEditablePaths(tc.src); !slices.Equal(got, tc.want) {
			t.Errorf("%s: parseEditablePaths = %q; want %q", tc.name, got, tc.want)
		}
	}
	for name, want := range map[string]bool{"__editable___tracker_0_1_finder.py": true, "_editable_impl_tracker.py": true,
		"_tracker_editable_loader.py": true, "_tracker_editable.py": true, "__editable__.tracker-0.1.pth": false, "editable.py": false, "tracker.py": false} {
		if got := editableFinder(name); got != want {
			t.Errorf("editableFinder(%q) = %v; want %v", name, got, want)
		}
	}
}

// What a wrapper runs, and the wrappers whose command cannot be told
// (a39 A7).
func TestUnwrap(t *testing.T) {
	cases := []struct {
		line    string
		want    string // the command and its arguments; "" when refused
		wantDir string
	}{
		{"env NODE_ENV=production npm start", "npm start", ""},
		{"env -u DEBUG node /srv", "node /srv", ""},
		{"env --unset=DEBUG -i PATH=/bin node /srv", "node /srv", ""},
		{"env -uDEBUG node /srv", "node /srv", ""},
		{"env -C /g/srv npm start", "npm start", "/g/srv"},
		{"env --chdir=sub npm start", "npm start", "/cwd/sub"},
		{"env - PATH=/bin node x.js", "node x.js", ""},
		{"env -- node x.js", "node x.js", ""},
		{"timeout 60 node x.js", "node x.js", ""},
		{"timeout -s KILL -k 5s 1m node x.js", "node x.js", ""},
		{"timeout --signal=TERM 60 python3 -m srv", "python3 -m srv", ""},
		{"taskset 0x3 node x.js", "node x.js", ""},
		{"taskset -c 0-3 node x.js", "node x.js", ""},
		{"stdbuf -o L -eL node x.js", "node x.js", ""},
		{"nice -n 10 node x.js", "node x.js", ""},
		{"nice -10 node x.js", "node x.js", ""},
		{"ionice -c 3 node x.js", "node x.js", ""},
		{"ionice -c2 -n7 node x.js", "node x.js", ""},
		{"setsid -w node x.js", "node x.js", ""},
		{"chrt 10 node x.js", "node x.js", ""},
		{"chrt -r 10 node x.js", "node x.js", ""},
		{"nohup env -u X timeout 5 node x.js", "node x.js", ""},
		{"dotenv -e .env -- node x.js", "node x.js", ""},
		{"node x.js", "node x.js", ""},
		{"env -S 'node x.js'", "", ""},
		{"env --split-string=node x.js", "", ""},
		{"env -Z node x.js", "", ""},
		{"taskset -p 1234", "", ""},
		{"chrt -p 10 1234", "", ""},
		{"timeout 60", "", ""},
		{"env", "", ""},
		{"env -u", "", ""},
	}
	for _, tc := range cases {
		f := strings.Fields(tc.line)
		u, err := unwrap(f[0], f[1:], "/cwd")
		switch {
		case tc.want == "" && err == nil:
			t.Errorf("unwrap(%s) = %s %q; want it refused", tc.line, u.command, u.args)
		case tc.want != "" && err != nil:
			t.Errorf("unwrap(%s): %v; want %s", tc.line, err, tc.want)
		case tc.want != "" && strings.Join(append([]string{u.command}, u.args...), " ") != tc.want:
			t.Errorf("unwrap(%s) = %s %q; want %s", tc.line, u.command, u.args, tc.want)
		case tc.wantDir != "" && (len(u.dirs) == 0 || u.dirs[len(u.dirs)-1] != tc.wantDir):
			t.Errorf("unwrap(%s): working folders %q; want %s", tc.line, u.dirs, tc.wantDir)
		}
	}
	if _, err := unwrap("env", []string{"-S", "node x.js"}, ""); err == nil || !strings.Contains(err.Error(), "enable it again") {
		t.Errorf("a refused wrapper says what to do: %v", err)
	}
}

// The manifest and finder parsers read files a command may have
// written: they never panic, and what they give is a path as written.
func FuzzManifestPaths(f *testing.F) {
	for _, s := range []string{
		"[dependencies]\nshared.path = \"../shared\"\n",
		"[package]\nworkspace = \"../ws\"\n[patch.crates-io]\nserde = { path = '''../evil''' }\n",
		"module m\nreplace x => \"\\x2e./lib\"\nreplace (\n\ty v1 => ./y\n)\n",
		"go 1.22\nuse (\n\t./a\n\t../b\n)\n",
		"MAPPING = {'pkg': '/abs/src/pkg'}\n",
		"paths = [\"../o\"]\n[patch.crates-io]\nh = { path = \"../h\" }\n[source.v]\ndirectory = \"vendor\"\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, base := range manifestNames {
			for _, p := range parseManifestPaths(base, src) {
				if p == "" {
					t.Fatalf("%s: an empty path from %q", base, src)
				}
			}
		}
		for _, p := range parseCargoConfigPaths(src) {
			if p == "" {
				t.Fatalf(".cargo/config.toml: an empty path from %q", src)
			}
		}
		_ = parseEditablePaths(src)
	})
}

// parseEnvFile reads a file a command may have written: it never
// panics, and gives each key as written on its line.
func FuzzEnvFile(f *testing.F) {
	for _, s := range []string{
		"NODE_OPTIONS=\"--require /a b/hook.js\"\n",
		"export PYTHONPATH='/x\n/y'\nA=b # c\n",
		"K: v\r\nQ=\"unclosed\\\"\n",
		"`=`\nB=`x\ny`\n#=c\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, kv := range parseEnvFile(src) {
			if kv.key == "" || strings.ContainsAny(kv.key, " \t\n\"'`#=") {
				t.Fatalf("a key %q from %q", kv.key, src)
			}
		}
	})
}

func TestParseEnvFile(t *testing.T) {
	src := "# c\nexport NODE_OPTIONS=\"--require \\\"/a b/h.js\\\"\"\nPYTHONPATH = /p # shared\nRUBYOPT='-I/r\n-rx'\nPERL5OPT: -I/q\nnot a line\n"
	want := map[string]string{"NODE_OPTIONS": "--require \"/a b/h.js\"", "PYTHONPATH": "/p", "RUBYOPT": "-I/r\n-rx", "PERL5OPT": "-I/q"}
	got := map[string][]string{}
	for _, kv := range parseEnvFile(src) {
		got[kv.key] = append(got[kv.key], kv.value)
	}
	for k, v := range want {
		if !slices.Contains(got[k], v) {
			t.Errorf("parseEnvFile: %s = %q, want %q among them (all: %q)", k, got[k], v, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("parseEnvFile: keys %q, want those of %q", got, want)
	}
}
