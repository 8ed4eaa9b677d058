package cerebellum_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a43: Python's bytecode cache moved out of the project
// (PYTHONPYCACHEPREFIX in the block's env, or python -X
// pycache_prefix=DIR): python loads DIR/<source path>/NAME.cpython-3X.pyc
// instead of compiling NAME.py whenever the pyc's header (the source's
// mtime and size) matches, never checking the code in it. The approval
// hashes the project's own __pycache__ (inside the project), but DIR was
// no code root and PYTHONPYCACHEPREFIX no code variable, so a sandboxed
// command that writes a pyc there (the header copied from the one the
// server wrote, the code its own) chose what the next start ran with
// the server's secrets (checked with python 3.11: "EVIL from pyc" from a
// helper.py that prints "helper ok"). The build-folder case of a42, for
// python, and handled the same way (BuildOutputOf): named in env, the
// MCP client replaces it with the server's own cache, where nothing is
// written (PYTHONDONTWRITEBYTECODE); on the command line the server does
// not start (BuildOutput.Refused); beside cargo or dotnet, whose own
// build folder is the one moved, LaunchFiles refuses it.
func TestA43PycachePrefixOutsideProject(t *testing.T) {
	for _, c := range []struct {
		name    string
		block   func(g string) skillmd.MCPServer
		set     bool // BuildOutputOf names GRANTED/pycache
		refused bool // on the command line
	}{{
		name: "python3 server.py, env PYTHONPYCACHEPREFIX=GRANTED/pycache",
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "python3", Args: []string{"server.py"}, Cwd: filepath.Join(g, "app"),
				Env: map[string]string{"PYTHONPYCACHEPREFIX": filepath.Join(g, "pycache"), "TOKEN": "t"}}
		},
		set: true,
	}, {
		name: "uv run server.py, env PYTHONPYCACHEPREFIX=GRANTED/pycache",
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "uv", Args: []string{"run", "server.py"}, Cwd: filepath.Join(g, "app"),
				Env: map[string]string{"PYTHONPYCACHEPREFIX": filepath.Join(g, "pycache")}}
		},
		set: true,
	}, {
		name: "python3 -X pycache_prefix=GRANTED/pycache server.py",
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "python3", Args: []string{"-X", "pycache_prefix=" + filepath.Join(g, "pycache"), "server.py"}, Cwd: filepath.Join(g, "app"),
				Env: map[string]string{"TOKEN": "t"}}
		},
		set: true, refused: true,
	}, {
		name: "python3.12 -B -Xpycache_prefix=GRANTED/pycache -m server",
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "python3.12", Args: []string{"-B", "-Xpycache_prefix=" + filepath.Join(g, "pycache"), "-m", "server"}, Cwd: filepath.Join(g, "app")}
		},
		set: true, refused: true,
	}, {
		name: "env PYTHONPYCACHEPREFIX=GRANTED/pycache python3 server.py",
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "env", Args: []string{"PYTHONPYCACHEPREFIX=" + filepath.Join(g, "pycache"), "python3", "server.py"}, Cwd: filepath.Join(g, "app")}
		},
		set: true, refused: true,
	}, {
		name: "python3 server.py -X pycache_prefix=… (the script's own argument)",
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "python3", Args: []string{"server.py", "-X", "pycache_prefix=" + filepath.Join(g, "pycache")}, Cwd: filepath.Join(g, "app")}
		},
	}} {
		t.Run(c.name, func(t *testing.T) {
			g := filepath.Join(t.TempDir(), "granted")
			a35Write(t, g, map[string]string{
				"app/pyproject.toml": "[project]\nname = \"app\"\nversion = \"0.1.0\"\n",
				"app/server.py":      "import helper\n",
				"app/helper.py":      "print('helper ok')\n",
			})
			s := c.block(g)
			b := cerebellum.BuildOutputOf(&s, t.TempDir())
			want := filepath.Join(g, "pycache")
			switch {
			case c.set && (b.Var != "PYTHONPYCACHEPREFIX" || b.Set != want):
				t.Errorf("BuildOutputOf(%s %q, env %v) = %+v; want PYTHONPYCACHEPREFIX moved from %s", s.Command, s.Args, s.Env, b, want)
			case !c.set && b.Set != "":
				t.Errorf("BuildOutputOf(%s %q) = %+v; want nothing named", s.Command, s.Args, b)
			case b.Refused() != c.refused:
				t.Errorf("BuildOutputOf(%s %q, env %v).Refused() = %v; want %v", s.Command, s.Args, s.Env, b.Refused(), c.refused)
			}
		})
	}
	t.Run("cargo run, env PYTHONPYCACHEPREFIX", func(t *testing.T) {
		g := t.TempDir()
		s := skillmd.MCPServer{Command: "cargo", Args: []string{"run"}, Cwd: g, Env: map[string]string{"PYTHONPYCACHEPREFIX": filepath.Join(g, "pycache")}}
		for _, f := range cerebellum.LaunchFiles(&s, t.TempDir()) {
			if strings.HasPrefix(f, cerebellum.RefusedPrefix) && strings.Contains(f, "PYTHONPYCACHEPREFIX") {
				return
			}
		}
		t.Errorf("LaunchFiles of cargo run with PYTHONPYCACHEPREFIX holds no %s entry naming it", cerebellum.RefusedPrefix)
	})
}
