package cerebellum

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// The MCP client moves a build-and-run runner's build folder to the
// server's own cache through a variable (BuildOutputOf), and a folder the
// block names for it is replaced or refused (a42). Other spellings of the
// same setting beat that variable (a43): a cargo alias holding
// --target-dir (CARGO_ALIAS_NAME in env, [alias] in a .cargo/config.toml,
// --config alias.NAME=…), cargo --config build.target-dir=…, and MSBuild
// properties set on dotnet's command line (-p:ArtifactsPath=…) or by the
// project (a Directory.Build.props above it). buildFolderRefusal refuses
// them, as no hash covers the folder they name.

// cargoBuiltins are cargo's own subcommands: an alias never shadows one
// (cargo ignores it), while a built-in alias (b, r, t…) may be redefined.
var cargoBuiltins = []string{"add", "bench", "build", "check", "clean", "config", "doc", "fetch", "fix", "generate-lockfile",
	"help", "info", "init", "install", "locate-project", "login", "logout", "metadata", "new", "owner", "package", "pkgid",
	"publish", "read-manifest", "remove", "report", "run", "rustc", "rustdoc", "search", "test", "tree", "uninstall", "update",
	"vendor", "verify-project", "version", "yank"}

// cargoValueFlags are cargo's global flags that take a value.
var cargoValueFlags = []string{"--color", "--config", "-Z", "-C", "--explain"}

// msbuildOutputProps are MSBuild properties that say where a project
// builds; set by a project or on the command line they beat the
// environment's ArtifactsPath.
var msbuildOutputProps = []string{"artifactspath", "outputpath", "baseoutputpath", "baseintermediateoutputpath",
	"intermediateoutputpath", "outdir", "artifactspivots"}

// buildFolderRefusal says why s cannot start when it names its runner's
// build folder in a way the MCP client cannot replace (a43); "" when it
// does not. cwd is the block's working folder, shelf and home bound the
// folders above it that are read.
func buildFolderRefusal(s *skillmd.MCPServer, cwd, shelf, home string) string {
	u, _ := unwrap(s.Command, s.Args, cwd)
	if len(u.dirs) > 0 {
		cwd = u.dirs[len(u.dirs)-1]
	}
	switch strings.TrimSuffix(filepath.Base(u.command), ".exe") {
	case "cargo":
		return cargoRefusal(s, u, cwd, shelf, home)
	case "dotnet":
		return dotnetRefusal(u, cwd, shelf, home)
	}
	return ""
}

func cargoRefusal(s *skillmd.MCPServer, u unwrapped, cwd, shelf, home string) string {
	sub := ""
	for i := 0; i < len(u.args); i++ {
		a := u.args[i]
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "+") {
			continue // +toolchain
		}
		flag, value, hasValue := strings.Cut(a, "=")
		if strings.HasPrefix(a, "-") {
			isValue := slices.Contains(cargoValueFlags, flag) || len(a) > 2 && a[1] != '-' && (a[:2] == "-Z" || a[:2] == "-C")
			if !hasValue && slices.Contains(cargoValueFlags, a) && i+1 < len(u.args) {
				i++
				value = u.args[i]
			} else if len(a) > 2 && a[1] != '-' && (a[:2] == "-Z" || a[:2] == "-C") {
				flag, value = a[:2], a[2:]
			}
			if isValue && flag == "--config" {
				v := strings.ToLower(value)
				if !strings.Contains(v, "=") || strings.Contains(v, "target-dir") || strings.Contains(v, "target_dir") || strings.Contains(v, "alias") {
					return "its command line gives cargo --config " + value + ", which may name a build folder or an alias that beats the one Wrasse gives the server (its own cache), where the program cargo runs is not covered by your approval; remove it from its mcp: block and enable it again"
				}
			}
			continue
		}
		sub = a
		break
	}
	if sub == "" || slices.Contains(cargoBuiltins, sub) {
		return ""
	}
	// An alias of the subcommand may hold --target-dir: refused when
	// any alias is defined.
	env := withSettings(s.Env, s.Command, s.Args, cwd)
	for k := range env {
		if strings.HasPrefix(k, "CARGO_ALIAS_") {
			return cargoAliasReason(sub, k+" in its env")
		}
	}
	for _, kv := range envFileVars(s, cwd) {
		if strings.HasPrefix(kv.key, "CARGO_ALIAS_") {
			return cargoAliasReason(sub, kv.key+" in an environment file it names")
		}
	}
	var configs []string
	foldersAbove([]string{cwd}, shelf, home, func(dir string) {
		configs = append(configs, filepath.Join(dir, ".cargo", "config.toml"), filepath.Join(dir, ".cargo", "config"))
	})
	cargoHome := env["CARGO_HOME"]
	if cargoHome == "" && home != "" {
		cargoHome = filepath.Join(home, ".cargo")
	}
	if cargoHome != "" {
		configs = append(configs, filepath.Join(cargoHome, "config.toml"), filepath.Join(cargoHome, "config"))
	}
	for _, c := range configs {
		if strings.Contains(strings.ToLower(readSmall(c)), "alias") {
			return cargoAliasReason(sub, c)
		}
	}
	return ""
}

func cargoAliasReason(sub, where string) string {
	return "it runs cargo " + sub + ", not one of cargo's own commands, while an alias is defined (" + where + "): an alias may name a build folder that beats the one Wrasse gives the server (its own cache), where the program cargo runs is not covered by your approval; write the command the alias stands for in its mcp: block (cargo run …) and enable it again"
}

func dotnetRefusal(u unwrapped, cwd, shelf, home string) string {
	dirs := []string{cwd}
	for i := 0; i < len(u.args); i++ {
		a := u.args[i]
		if a == "--" {
			break
		}
		l := strings.ToLower(a)
		if strings.HasPrefix(l, "@") {
			return "its command line gives dotnet the response file " + a + ", which may set where the project builds, beating the folder Wrasse gives the server (its own cache); write its settings in the mcp: block and enable it again"
		}
		var props string
		for _, p := range []string{"-p:", "/p:", "--property:", "-property:", "/property:"} {
			if v, ok := strings.CutPrefix(l, p); ok {
				props = v
			}
		}
		if (l == "--property" || l == "-property" || l == "/property") && i+1 < len(u.args) {
			i++
			props = strings.ToLower(u.args[i])
		}
		if (l == "--project" || l == "-p") && i+1 < len(u.args) {
			i++
			p := u.args[i]
			if !filepath.IsAbs(p) && cwd != "" {
				p = filepath.Join(cwd, p)
			}
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
				p = filepath.Dir(p)
			}
			dirs = append(dirs, p)
		}
		for _, kv := range strings.FieldsFunc(props, func(r rune) bool { return r == ';' || r == ',' }) {
			k, _, _ := strings.Cut(kv, "=")
			if slices.Contains(msbuildOutputProps, strings.TrimSpace(k)) {
				return "its command line sets the MSBuild property " + strings.TrimSpace(k) + " (" + a + "), which beats the build folder Wrasse gives the server (its own cache), where the program dotnet runs is not covered by your approval; remove it from its mcp: block and enable it again"
			}
		}
	}
	// A property the project or a Directory.Build.* above it sets beats
	// the environment's.
	var found string
	foldersAbove(dirs, shelf, home, func(dir string) {
		if found != "" {
			return
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			n := strings.ToLower(e.Name())
			own := slices.Contains(dirs, dir) || realIn(dir, dirs)
			if !strings.HasPrefix(n, "directory.build.") && !(own && (strings.HasSuffix(n, "proj") || strings.HasSuffix(n, ".props") || strings.HasSuffix(n, ".targets"))) {
				continue
			}
			text := strings.ToLower(readSmall(filepath.Join(dir, e.Name())))
			rsp := strings.HasSuffix(n, ".rsp")
			for _, p := range msbuildOutputProps {
				if strings.Contains(text, "<"+p+">") || strings.Contains(text, "<"+p+" ") || rsp && strings.Contains(text, p+"=") {
					found = filepath.Join(dir, e.Name()) + " sets " + p
					return
				}
			}
		}
	})
	if found != "" {
		return "its project's settings say where it builds (" + found + "), which beats the build folder Wrasse gives the server (its own cache), where the program dotnet runs is not covered by your approval; remove that property (Wrasse then builds into a folder of the server's own) and enable it again"
	}
	return ""
}

// realIn reports whether dir is one of dirs with links resolved.
func realIn(dir string, dirs []string) bool {
	for _, d := range dirs {
		if r, err := filepath.EvalSymlinks(d); err == nil && r == dir {
			return true
		}
	}
	return false
}

// readSmall is the first MB of the regular file p, "" when it cannot be
// read.
func readSmall(p string) string {
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	b, _ := io.ReadAll(io.LimitReader(f, 1<<20))
	return string(b)
}
