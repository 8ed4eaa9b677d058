package cerebellum

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// A build-and-run runner (cargo run, dotnet run) builds the project it runs
// into that project (target/, bin/ and obj/) at its first start. The
// approval covers every file of the project (LaunchFiles), so its own build
// output would undo it: the next start would be refused for thousands of
// files nobody but the approved runner wrote, and people would learn to
// approve blindly (a38). The MCP client points that output at a folder of
// the server's own outside the project, through the runner's own setting
// (BuildOutputOf says which); build output left inside the project from
// before still counts, since a build script's output there is code the
// runner may load. A folder the block itself names is never kept, outside
// the project either (a42): cargo runs the program it finds built there
// whenever the fingerprints beside it say fresh, never checking its
// content, and the approval hashes none of it, so a command that can
// write it (a target folder shared in a granted folder) would replace what
// the next start runs. Named in env it is replaced; on the command line,
// which no variable overrides, the server does not start (Refused).

// BuildOutput is where an mcp: block's build-and-run runner writes what it
// builds.
type BuildOutput struct {
	// Var is the environment variable that moves the runner's build output
	// (cargo's CARGO_TARGET_DIR, MSBuild's ArtifactsPath); "" when the
	// command is no such runner.
	Var string
	// Set is the folder the block itself names for it, absolute: in its
	// env, as an env wrapper's VAR=value, or with the runner's flag (cargo
	// --target-dir, dotnet --artifacts-path). "" when it names none.
	Set string
	// Flag reports that Set is on the command line (a flag, or a wrapper's
	// setting), which no variable of the environment overrides.
	Flag bool
	// Inside reports that Set lies in the working folder or a folder whose
	// code the approval covers: the runner's first build would change it.
	// Either way Set is not kept; Inside only says why.
	Inside bool
}

// Refused reports that the block names the build folder where the MCP
// client cannot replace it with the server's own (on the command line):
// the server does not start until the setting is removed. A folder named
// in env is replaced instead.
func (b BuildOutput) Refused() bool {
	return b.Var != "" && b.Set != "" && b.Flag
}

// BuildOutputOf is where s's build-and-run runner writes what it builds,
// from the block as written (after any wrapper in front); dir is the
// capability's folder. Its Var is "" for other commands.
func BuildOutputOf(s *skillmd.MCPServer, dir string) BuildOutput {
	if s == nil || s.URL != "" || s.Command == "" {
		return BuildOutput{}
	}
	// A wrapper whose command cannot be told is refused by LaunchFiles.
	u, _ := unwrap(s.Command, s.Args, MCPWorkDir(s, dir))
	command, args, settings := u.command, u.args, u.settings
	var b BuildOutput
	var flag string
	base := strings.TrimSuffix(filepath.Base(command), ".exe")
	switch base {
	case "cargo":
		// The variable beats build.target-dir of a .cargo/config.toml;
		// --target-dir beats the variable.
		b.Var, flag = "CARGO_TARGET_DIR", "--target-dir"
	case "dotnet":
		// MSBuild reads every environment variable as a property:
		// ArtifactsPath turns on the artifacts layout (.NET 8 and later),
		// each project's bin/ and obj/ below it, apart.
		b.Var, flag = "ArtifactsPath", "--artifacts-path"
	default:
		// Python's bytecode cache moved out of the project (a43): python
		// loads DIR/<source path>/NAME.pyc in place of NAME.py whenever
		// its header (the source's mtime and size) matches, never checking
		// its code, and the approval hashes no such folder. Named in env
		// (for whatever command: uv run, a script, all pass it on) it is
		// replaced by the server's own cache, where nothing is written
		// (PYTHONDONTWRITEBYTECODE); on an interpreter's command line
		// (-X pycache_prefix=DIR) the server does not start.
		b.Var = pycachePrefixVar
		if isPython(base) {
			if v, ok := pycachePrefixFlag(args); ok {
				b.Set, b.Flag = v, true
			}
		}
		if b.Set == "" {
			if v := s.Env[b.Var]; v != "" {
				b.Set = v
			}
			for _, kv := range settings {
				if k, v, _ := strings.Cut(kv, "="); k == b.Var {
					b.Set, b.Flag = v, true
				}
			}
		}
		if b.Set == "" {
			return BuildOutput{}
		}
		return b.located(s, dir)
	}
	if v := s.Env[b.Var]; v != "" {
		b.Set = v
	}
	for _, kv := range settings {
		if k, v, _ := strings.Cut(kv, "="); k == b.Var {
			b.Set, b.Flag = v, true
		}
	}
	for i, a := range args {
		if a == "--" {
			break // the program's own arguments (cargo run -- ARGS)
		}
		if v, ok := strings.CutPrefix(a, flag+"="); ok {
			b.Set, b.Flag = v, true
		} else if a == flag && i+1 < len(args) {
			b.Set, b.Flag = args[i+1], true
		}
	}
	if b.Set == "" {
		return b
	}
	return b.located(s, dir)
}

// located is b with Set made absolute and Inside found, for s whose
// capability folder is dir.
func (b BuildOutput) located(s *skillmd.MCPServer, dir string) BuildOutput {
	l := launchOf(s, dir)
	if !filepath.IsAbs(b.Set) {
		// Relative to the working folder, ~ included: no shell expands it.
		if l.cwd == "" {
			return b // a fresh temporary folder: no project
		}
		b.Set = filepath.Join(l.cwd, b.Set)
	}
	real := existingReal(b.Set)
	b.Inside = slices.ContainsFunc(append(l.roots, existingReal(l.cwd)), func(r string) bool { return r != "" && within(real, r) })
	return b
}

// existingReal is p with the links of its deepest existing folder
// resolved: a build folder not made yet still lies where its parent does.
func existingReal(p string) string {
	p = filepath.Clean(p)
	var tail []string
	for {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			slices.Reverse(tail)
			return filepath.Join(append([]string{real}, tail...)...)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Clean(filepath.Join(append([]string{p}, tail...)...))
		}
		tail = append(tail, filepath.Base(p))
		p = parent
	}
}

// pycachePrefixVar is the variable that moves Python's bytecode cache.
const pycachePrefixVar = "PYTHONPYCACHEPREFIX"

// isPython reports whether the program base (its file name) is a Python
// interpreter.
func isPython(base string) bool {
	return base == "python" || base == "python3" || base == "pypy" || base == "pypy3" ||
		strings.HasPrefix(base, "python3.") || strings.HasPrefix(base, "python2")
}

// pycachePrefixFlag is the folder a python command line's -X
// pycache_prefix=DIR names (-X pycache_prefix=DIR or -Xpycache_prefix=DIR),
// among the interpreter's own options: before the script, -m, -c or --.
func pycachePrefixFlag(args []string) (string, bool) {
	var dir string
	found := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		var x string
		switch {
		case a == "--" || a == "-" || !strings.HasPrefix(a, "-") || a == "-m" || a == "-c" || strings.HasPrefix(a, "-m") || strings.HasPrefix(a, "-c"):
			return dir, found
		case a == "-X" || a == "-W":
			if i+1 >= len(args) {
				return dir, found
			}
			i++
			if a == "-W" {
				continue
			}
			x = args[i]
		case strings.HasPrefix(a, "-X"):
			x = a[2:]
		default:
			continue
		}
		if v, ok := strings.CutPrefix(x, "pycache_prefix="); ok {
			dir, found = v, true
		}
	}
	return dir, found
}

// BuildOutputVar is the variable BuildOutputOf moves for a block whose
// command (after any wrapper) is command: a build-and-run runner's, else
// Python's bytecode cache's.
func BuildOutputVar(command string) string {
	switch strings.TrimSuffix(filepath.Base(command), ".exe") {
	case "cargo":
		return "CARGO_TARGET_DIR"
	case "dotnet":
		return "ArtifactsPath"
	}
	return pycachePrefixVar
}
