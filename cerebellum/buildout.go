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
	switch strings.TrimSuffix(filepath.Base(command), ".exe") {
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
		return BuildOutput{}
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
