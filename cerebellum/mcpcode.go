package cerebellum

import (
	"bufio"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// What an approved command line can load. A server's approval covers the
// files its command line names and the code those can reach (LaunchFiles):
// a file a script sources, a module beside it, a package's dependencies,
// code named by the block's environment (PYTHONPATH, NODE_OPTIONS), by a
// runner's flag (uv --directory) or inside a shell string. The reach is
// found from the command line, never by running it, so it is broad: every
// existing path the block names in a place that says "code" gives the
// project around it (ProjectOf), whose code files and the files that say
// what runs (package.json, .npmrc, pyproject.toml, lock files, .env…) are
// hashed. Whatever cannot be looked through whole (too many entries, a
// folder that cannot be listed) stands as one Unchecked entry, which no
// start accepts.

// interpreters run a folder given as their first argument (node DIR runs
// DIR/index.js or its package.json's main; python DIR runs
// DIR/__main__.py), and code from their working folder with -m, -c or -e.
var interpreters = []string{"node", "nodejs", "bun", "deno", "tsx", "ts-node", "python", "python3", "pypy", "pypy3",
	"ruby", "perl", "php", "lua", "Rscript", "julia", "java"}

// cwdRunners run code from their working folder: a package's scripts
// (npm start, uv run, go run) or a module found there.
var cwdRunners = []string{"npm", "pnpm", "yarn", "uv", "poetry", "pipenv", "hatch", "pdm", "go", "cargo", "bun", "deno",
	"make", "just", "rye", "dotnet", "java", "mvn", "gradle", "gradlew"}

// packageRunners run a package named by their first argument, which may
// be a folder (npx ./checkout, uvx --from DIR).
var packageRunners = []string{"npx", "pnpx", "bunx", "uvx", "pipx"}

// localPackageRunners are the packageRunners that run a package the
// working folder's project installed (node_modules/.bin) before looking
// in the registry.
var localPackageRunners = []string{"npx", "pnpx", "bunx"}

// shells run a command string given after -c.
var shells = []string{"sh", "bash", "dash", "zsh", "ksh", "mksh", "fish"}

// pathFlags take a path whose code the command runs: a project folder
// (uv --directory, uvx --from, pnpm --dir, npm --prefix), a file to
// preload (node --require), an environment file that may set
// NODE_OPTIONS, a makefile, a class path, a folder mounted into a
// container (docker -v HOST:/app: its host side).
var pathFlags = []string{"--directory", "--dir", "--project", "--from", "--with", "--with-editable", "--spec", "--package",
	"--prefix", "-C", "--cwd", "--manifest-path", "--env-file", "--env-file-if-exists", "-r", "--require", "--import",
	"--loader", "--experimental-loader", "--preload", "-f", "--file", "--makefile", "--justfile", "-cp", "-classpath",
	"--class-path", "-jar", "-v", "--volume", "--mount"}

// codePathVars are environment variables whose values name code or where
// code is looked up: path lists, option strings with paths, preloads, and
// files a shell or interpreter runs at start.
var codePathVars = []string{"PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PYTHONUSERBASE", "NODE_PATH", "NODE_OPTIONS",
	"PERL5LIB", "PERLLIB", "PERL5OPT", "RUBYLIB", "RUBYOPT", "GEM_HOME", "GEM_PATH", "LD_PRELOAD", "LD_LIBRARY_PATH",
	"BASH_ENV", "ENV", "CLASSPATH", "LUA_PATH", "LUA_CPATH", "DENO_DIR", "BUN_INSTALL", "VIRTUAL_ENV", "CONDA_PREFIX",
	"UV_PROJECT", "UV_PROJECT_ENVIRONMENT", "npm_config_prefix", "NPM_CONFIG_PREFIX", "NPM_CONFIG_USERCONFIG", "npm_config_userconfig",
	"JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "JAVA_HOME", "DOTNET_ROOT", "DOTNET_STARTUP_HOOKS",
	"CARGO_HOME", "RUSTC_WRAPPER", "CARGO_BUILD_RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER",
	"CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER", "RUSTC", "CARGO_BUILD_RUSTC", "GOFLAGS", "MAKEFILES",
	"UV_ENV_FILE"}

// isCodePathVar reports whether the environment variable k names code
// (codePathVars), cargo's per-target programs too: the runner `cargo run`
// starts the built program through and the linker it builds with
// (CARGO_TARGET_<TRIPLE>_RUNNER, CARGO_TARGET_<TRIPLE>_LINKER, the
// environment forms of target.<triple>.runner and .linker, a43).
func isCodePathVar(k string) bool {
	if slices.Contains(codePathVars, k) {
		return true
	}
	// Every dynamic loader variable (LD_AUDIT loads a library as
	// LD_PRELOAD does), OpenSSL's configuration (a provider module line
	// loads a library at start), glibc's converters, .NET's profilers,
	// and npm's settings in any case (npm_config_node_options becomes the
	// scripts' NODE_OPTIONS, Npm_Config_Userconfig another .npmrc): a45.
	for _, prefix := range []string{"LD_", "DYLD_", "CORECLR_", "COMPLUS_"} {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	if slices.Contains([]string{"OPENSSL_CONF", "OPENSSL_MODULES", "OPENSSL_ENGINES", "GCONV_PATH", "LOCPATH"}, k) ||
		strings.HasPrefix(strings.ToLower(k), "npm_config_") {
		return true
	}
	if t, ok := strings.CutPrefix(k, "CARGO_TARGET_"); ok {
		return strings.HasSuffix(t, "_RUNNER") || strings.HasSuffix(t, "_LINKER")
	}
	return false
}

// codeRoots are the folders whose code s's command line can load, and
// named, files it names as code outside what those hold by their kind (a
// preloaded notes.txt): the project (ProjectOf) of each script in scripts,
// of every existing path given where code goes (a shell string, a path
// flag's value, a package runner's or interpreter's first argument, a
// code variable of the block's env), and of the working folder cwd when
// the command runs from it. Sorted, nested roots folded into the outer
// one; the home folder or one holding it is never a root (a script
// directly in the home folder counts alone), nor is anything in shelf
// (shelfOf).
func codeRoots(s *skillmd.MCPServer, shelf, cwd string, scripts []string, home string) (roots, named []string) {
	addRoot := func(dir string) {
		real, err := filepath.EvalSymlinks(dir)
		if err != nil || systemFolder(real) || shelf != "" && within(shelf, real) {
			return
		}
		p := ProjectOf(real, home)
		if p != "" && shelf != "" && within(shelf, p) {
			p = real // a capability's own folder, not the workspace above it
		}
		if p != "" {
			roots = append(roots, p)
		}
	}
	// addPath takes an existing path named as code: a folder's project, or
	// a file with the project of its folder.
	var addPath func(p string)
	addPath = func(p string) {
		if p == "" {
			return
		}
		if ps, ok := fileURLPaths(p); ok {
			// The package's folder (a43); p itself below too, in case a
			// folder is so named.
			for _, q := range ps {
				if q != p {
					addPath(q)
				}
			}
		}
		if strings.HasPrefix(p, "~/") && home != "" {
			p = filepath.Join(home, p[2:])
		}
		if !filepath.IsAbs(p) {
			if cwd == "" {
				return
			}
			p = filepath.Join(cwd, p)
		}
		fi, err := os.Stat(p)
		switch {
		case err != nil:
		case fi.IsDir():
			addRoot(p)
		case fi.Mode().IsRegular():
			if real, err := filepath.EvalSymlinks(p); err == nil {
				named = append(named, real)
			}
			addRoot(filepath.Dir(p))
		default:
			// A named pipe or device named as code: its folder is walked,
			// and codeFiles refuses what it cannot hash.
			addRoot(filepath.Dir(p))
		}
	}
	// addShellWord takes a word of a shell string: a folder (cd DIR) or a
	// script, not every file the string reads (a token it cats, a log).
	addShellWord := func(w string) {
		p := w
		if !filepath.IsAbs(p) && cwd != "" {
			p = filepath.Join(cwd, p)
		}
		if fi, err := os.Stat(p); err == nil && (fi.IsDir() || fi.Mode().IsRegular() && isScript(p, fi.Mode())) {
			addPath(w)
		}
	}
	for _, sc := range scripts {
		addRoot(filepath.Dir(sc))
	}
	// A wrapper (env VAR=x npm start, timeout 60 node …) runs what follows
	// its own flags, settings and positional arguments (unwrap); one whose
	// command cannot be told is refused by LaunchFiles.
	blockCwd := cwd
	u, _ := unwrap(s.Command, s.Args, cwd)
	command, args := u.command, u.args
	for _, d := range u.dirs {
		addRoot(d) // env -C DIR: the command runs from DIR
	}
	if len(u.dirs) > 0 {
		cwd = u.dirs[len(u.dirs)-1]
	}
	for _, f := range u.files {
		addPath(f) // dotenv -e FILE: settings that may name code
	}
	for _, p := range u.programs {
		addPath(p) // a program the wrapper runs by its path
	}
	base := strings.TrimSuffix(filepath.Base(command), ".exe")
	isInterp := slices.Contains(interpreters, base) || strings.HasPrefix(base, "python3.")
	isShell := slices.Contains(shells, base)
	isPackageRunner := slices.Contains(packageRunners, base)
	// npx, pnpx and bunx run a package the working folder's project has
	// in node_modules/.bin before the registry's: that project counts
	// when the block names the folder (without one it is the capability's
	// own folder, which no sandbox writes).
	if (slices.Contains(cwdRunners, base) || slices.Contains(localPackageRunners, base) && s.Cwd != "") && cwd != "" {
		addRoot(cwd)
	}
	positional := false // the first argument that is no flag has been seen
	for i := 0; i < len(args); i++ {
		a := args[i]
		if flag, value, hasValue := strings.Cut(a, "="); strings.HasPrefix(a, "-") && slices.Contains(pathFlags, flag) {
			if !hasValue && i+1 < len(args) {
				i++
				value = args[i]
			}
			switch flag {
			case "-v", "--volume":
				value, _, _ = strings.Cut(value, ":") // HOST:/app[:ro]
			case "--mount":
				for _, kv := range strings.Split(value, ",") {
					if k, v, ok := strings.Cut(kv, "="); ok && (k == "src" || k == "source") {
						value = v
					}
				}
			case "-cp", "-classpath", "--class-path":
				for _, part := range filepath.SplitList(value) {
					addPath(part)
				}
				continue
			}
			addPath(value)
			continue
		}
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && isShell && strings.Contains(a, "c") {
			// sh -c STRING (also -lc, -ec): every path the string names.
			if i+1 < len(args) {
				i++
				for _, tok := range shellWords(args[i]) {
					addShellWord(tok)
				}
			}
			if cwd != "" {
				addRoot(cwd)
			}
			continue
		}
		if strings.HasPrefix(a, "-") {
			if isInterp && (a == "-m" || a == "-c" || a == "-e" || a == "--eval" || a == "-p" || a == "--print") && cwd != "" {
				addRoot(cwd) // a module or code string finds its imports in the working folder first
			}
			continue
		}
		if !positional && (isInterp || isPackageRunner || isShell) {
			addPath(a) // what runs: a folder, a package's checkout, a script
		}
		positional = true
	}
	env := withSettings(s.Env, s.Command, s.Args, cwd)
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	vars := make([]envVar, 0, len(keys))
	for _, k := range keys {
		vars = append(vars, envVar{k, env[k]})
	}
	// The variables of an environment file the command line names count
	// as the block's own (a43).
	vars = append(vars, envFileVars(s, blockCwd)...)
	for _, kv := range vars {
		if !isCodePathVar(kv.key) {
			continue
		}
		for _, tok := range codeVarWords(kv.value) {
			for _, v := range optionValues(tok) {
				// A relative entry too: python and node resolve one
				// against the working folder (PYTHONPATH=../shared), as
				// addPath does (a42).
				addPath(v)
			}
		}
	}
	slices.Sort(named)
	return foldRoots(roots), slices.Compact(named)
}

// shelfOf is the folder that holds the capabilities' folders (the
// workspace's brain/cerebellum), links resolved, for the capability folder
// capDir; "" when there is none. It and what holds it are Wrasse's own:
// its settings, caches and every other capability change all day, and no
// sandbox writes them, so a project never reaches above a capability's
// folder (codeRoots, ancestorSettings).
func shelfOf(capDir string) string {
	if capDir == "" {
		return ""
	}
	real, err := filepath.EvalSymlinks(filepath.Dir(capDir))
	if err != nil {
		return ""
	}
	return real
}

// systemFolders hold what the operating system installed: no account but
// root's changes them, no sandbox can, and a program there (/bin/sh) is
// not a project to look through.
var systemFolders = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/boot", "/proc", "/sys",
	"/dev", "/run", "/snap", "/nix/store", "/System", "/Library", "/Applications", "/opt/homebrew/Cellar"}

// systemFolder reports whether p lies in one of systemFolders.
func systemFolder(p string) bool {
	return slices.ContainsFunc(systemFolders, func(s string) bool { return within(p, s) })
}

// ancestorNames are settings runners look for in the working folder and
// every folder above it, beyond a project: cargo's runner and
// rustc-wrapper, a Go workspace's replace, yarn's yarnPath, deno's import
// map, the interpreter and environment an asdf or mise shim picks.
var ancestorNames = []string{".cargo/config.toml", ".cargo/config", "go.work", "go.work.sum", ".yarnrc", ".yarnrc.yml",
	".pnpmfile.cjs", "deno.json", "deno.jsonc", ".tool-versions", "mise.toml", ".mise.toml", "mise.local.toml",
	".mise.local.toml", ".mise/config.toml", ".config/mise.toml", "uv.toml", ".python-version", "bunfig.toml", ".npmrc",
	".nvmrc", ".node-version"}

// ancestorSettings are those of ancestorNames that exist in the folders
// above each of dirs, up to the home folder (the person's own settings
// there stay theirs), a system folder or the folder holding the
// capabilities' folders (shelf): a command can plant one in a granted parent of
// a project (a38), and one that appears changes the list, and so the
// approval.
func ancestorSettings(dirs []string, shelf, home string) []string {
	var out []string
	foldersAbove(dirs, shelf, home, func(dir string) {
		for _, n := range ancestorNames {
			p := filepath.Join(dir, n)
			if fi, err := os.Lstat(p); err == nil && !fi.IsDir() {
				out = append(out, p)
			}
		}
	})
	return out
}

// foldersAbove calls visit for each of dirs (links resolved) and every
// folder above it, each folder once, up to the home folder (the person's
// own settings there stay theirs), a system folder or shelf (the folder
// holding the capabilities' folders), none of those included.
func foldersAbove(dirs []string, shelf, home string, visit func(dir string)) {
	seen := map[string]bool{}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		real, err := filepath.EvalSymlinks(d)
		if err != nil {
			continue
		}
		for dir := real; !HoldsHome(dir, home) && !systemFolder(dir) && (shelf == "" || !within(shelf, dir)); dir = filepath.Dir(dir) {
			if seen[dir] {
				break
			}
			seen[dir] = true
			visit(dir)
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
}

// shellWords are the words of a shell command string, quotes taken off
// and split at the shell's operators: candidates for paths, no more.
func shellWords(cmd string) []string {
	return strings.FieldsFunc(cmd, func(r rune) bool {
		return strings.ContainsRune(" \t\n;&|()<>'\"`$=", r)
	})
}

// foldRoots sorts roots, drops repeats and those inside another.
func foldRoots(roots []string) []string {
	slices.Sort(roots)
	roots = slices.Compact(roots)
	var out []string
	for _, r := range roots {
		if len(out) > 0 && within(r, out[len(out)-1]) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// within reports whether p is dir or lies in it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// maxCodeEntries bounds the entries LaunchFiles looks at in a server's code
// folders: a start looks at each (a project with its node_modules or a
// virtual environment of large libraries holds tens of thousands).
const maxCodeEntries = 250_000

// UncheckedPrefix begins the LaunchFiles entry that stands for a code
// folder that could not be looked through whole (more than maxCodeEntries
// entries, or a folder in it that cannot be listed): what it loads cannot
// be checked, so no start accepts it (the MCP client says so).
const UncheckedPrefix = "unchecked:"

// dataExts are extensions of files no runtime loads as code unless a
// file that is hashed names them so: a server's own database and logs,
// which it may keep in its project and change at every start.
var dataExts = []string{".db", ".sqlite", ".sqlite3", ".db-journal", ".db-wal", ".db-shm", ".sqlite-wal", ".sqlite-shm",
	".log"}

// codeFiles are the files in roots, walked in lexical order: every file
// and symbolic link (hashed by what it leads to) but a server's data
// (dataExts). Which files a runtime loads is not known from their names (a
// make reads GNUmakefile first, node runs a required notes.txt, hatch.toml
// overrides pyproject.toml, a Rust or C# project builds what it holds), so
// all count. A link leading outside the roots (to a folder, or to a file
// whose folder then holds more code), and a folder a .pth file names, are
// walked too, as roots of their own. Version-control folders are
// skipped. Past limit entries, or at a folder that cannot be listed, it
// stops with an Unchecked entry.
func codeFiles(roots []string, home string, limit int) []string {
	var out []string
	n := 0
	walked := map[string]bool{}
	queue := slices.Clone(roots)
	for len(queue) > 0 {
		root := queue[0]
		queue = queue[1:]
		if walked[root] || slices.ContainsFunc(roots, func(r string) bool { return r != root && within(root, r) && walked[r] }) {
			continue
		}
		walked[root] = true
		cut := false
		// more are folders found on the way (links, .pth lines) outside
		// every root so far.
		var more []string
		follow := func(target string) {
			real, err := filepath.EvalSymlinks(target)
			if err != nil {
				return
			}
			fi, err := os.Stat(real)
			if err != nil {
				return
			}
			dir := real
			if !fi.IsDir() {
				// Node loads a linked file's own requires from its real
				// folder: that folder's project counts.
				dir = ProjectOf(filepath.Dir(real), home)
			}
			if dir != "" && !HoldsHome(dir, home) && !systemFolder(dir) && !slices.ContainsFunc(roots, func(r string) bool { return within(dir, r) }) {
				more = append(more, dir)
			}
		}
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == root && os.IsNotExist(err) {
					return nil
				}
				// What cannot be listed cannot be checked; the server, as the
				// same account, may still load it by name.
				cut = true
				return filepath.SkipAll
			}
			if n++; n > limit {
				cut = true
				return filepath.SkipAll
			}
			name := d.Name()
			if d.IsDir() {
				if p != root && (name == ".git" || name == ".hg" || name == ".svn") {
					return filepath.SkipDir
				}
				return nil
			}
			ext := strings.ToLower(filepath.Ext(name))
			switch {
			case d.Type()&fs.ModeSymlink != 0:
				if pp := linkThroughProc(p); pp != "" {
					out = append(out, RefusedPrefix+procLinkReason(p, pp))
					break
				}
				if fi, err := os.Stat(p); err == nil && !fi.IsDir() && !fi.Mode().IsRegular() && fi.Mode()&fs.ModeSocket == 0 {
					// A link to a named pipe: hashing it would block, and
					// it reads as whatever is written into it.
					out = append(out, RefusedPrefix+nonRegularReason(p, fi.Mode()))
					break
				}
				out = append(out, p)
				follow(p)
			case d.Type()&fs.ModeSocket != 0:
				// A socket cannot be opened as a file: no runtime reads
				// code from it, and a server may keep its own here.
			case !d.Type().IsRegular():
				// A named pipe or a device reads as whatever a process
				// writes into it at that moment (node requires a pipe
				// lib.js, python reads a pipe .pth): no hash says what it
				// holds, and opening one to try would block.
				out = append(out, RefusedPrefix+nonRegularReason(p, d.Type()))
			case slices.Contains(dataExts, ext):
			default:
				out = append(out, p)
				if ext == ".pth" || ext == ".egg-link" {
					for _, line := range pthFolders(p) {
						follow(line)
					}
				}
				if editableFinder(name) {
					for _, target := range editablePaths(p) {
						follow(target)
					}
				}
			}
			return nil
		})
		if cut {
			return append(out, UncheckedPrefix+root)
		}
		slices.Sort(more)
		for _, m := range slices.Compact(more) {
			roots = append(roots, m)
			queue = append(queue, m)
		}
	}
	return out
}

// pthFolders are the absolute folders a .pth (or .egg-link) file names,
// one per line: Python adds each to its module path.
func pthFolders(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(out) < 64 {
		line := strings.TrimRight(sc.Text(), " \t\r")
		switch {
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "import ") || strings.HasPrefix(line, "import\t"):
		case filepath.IsAbs(line):
			out = append(out, line)
		default:
			// site.addpackage joins a relative line to the .pth's own
			// folder (site-packages) and adds it when it exists (a41).
			if p := filepath.Join(filepath.Dir(path), line); dirExists(p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// dirExists reports whether p is a folder.
func dirExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// fileURLPaths are the paths a package spec names as a file: URL, the
// form a package runner takes for a local package (a43): uvx --from
// file:///p or a PEP 508 direct reference "pkg @ file:///p" (also with
// git+, a marker after ';', a #fragment or ?query), npm's file:/p,
// file:../p and pkg@file:p. Both the path as written and percent-decoded,
// since addPath keeps only those that exist. ok is false when spec is
// no such URL.
func fileURLPaths(spec string) (paths []string, ok bool) {
	s := strings.TrimSpace(spec)
	i := strings.Index(s, "file:")
	if i < 0 {
		return nil, false
	}
	if pre := strings.TrimSuffix(strings.TrimSpace(s[:i]), "git+"); pre != "" {
		// NAME @ file:…, NAME@file:…, @scope/name@file:…, NAME @ git+file:…
		at := strings.LastIndexByte(pre, '@')
		if name := strings.TrimSpace(pre[:max(at, 0)]); at < 0 || strings.TrimSpace(pre[at+1:]) != "" || name == "" || strings.ContainsAny(name, " \t:=;") {
			return nil, false
		}
	}
	u := s[i+len("file:"):]
	if v, cut := strings.CutPrefix(u, "//"); cut {
		// file://HOST/path: an empty host or localhost.
		if j := strings.IndexByte(v, '/'); j >= 0 {
			u = v[j:]
		} else {
			u = "/" + v
		}
	}
	var out []string
	add := func(p string) {
		if p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, c := range []string{u, cutAny(u, ";"), cutAny(u, "#?"), cutAny(cutAny(u, ";"), "#?")} {
		c = strings.TrimSpace(c)
		add(c)
		if d, err := url.PathUnescape(c); err == nil {
			add(d)
		}
	}
	return out, true
}

// cutAny is s up to the first of chars in it.
func cutAny(s, chars string) string {
	if i := strings.IndexAny(s, chars); i >= 0 {
		return s[:i]
	}
	return s
}

// codeVarWords are the words of a code variable's value, read every way
// a runtime reads one (a43): a path list split at ':' and ';' (a folder
// may hold a space), words split at those and blanks, and an option
// string split as node splits NODE_OPTIONS (blanks, double quotes with
// backslash escapes in them: --require "/a b/hook.js"). Candidates, no
// more: addPath keeps those that exist.
func codeVarWords(v string) []string {
	var out []string
	out = append(out, strings.FieldsFunc(v, func(r rune) bool { return r == ':' || r == ';' })...)
	out = append(out, strings.FieldsFunc(v, func(r rune) bool { return r == ':' || r == ' ' || r == '\t' || r == ';' })...)
	out = append(out, optionWords(v)...)
	slices.Sort(out)
	return slices.Compact(out)
}

// optionWords splits an option string as node's ParseNodeOptionsEnvVar
// does: at blanks outside double quotes; in them a backslash escapes the
// next character, and the quotes are taken off.
func optionWords(v string) []string {
	var out []string
	var w strings.Builder
	inQuote, inWord := false, false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case inQuote && c == '\\' && i+1 < len(v):
			i++
			w.WriteByte(v[i])
		case c == '"':
			inQuote = !inQuote
			inWord = true
		case !inQuote && (c == ' ' || c == '\t' || c == '\n'):
			if inWord {
				out = append(out, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, w.String())
	}
	return out
}

// optionValues are the paths a word of a code variable may name: the
// word itself unless it is a flag, the value after '=' (--require=FILE,
// --import=FILE), and the value joined to a short switch (perl's and
// ruby's -I/path, -r./hook.rb, -MModule; node's -r./hook.js), a43.
func optionValues(tok string) []string {
	var out []string
	add := func(v string) {
		if v != "" && !strings.HasPrefix(v, "-") && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	add(tok)
	if _, v, ok := strings.Cut(tok, "="); ok {
		add(v)
	}
	if len(tok) > 2 && tok[0] == '-' && tok[1] != '-' {
		add(strings.TrimPrefix(tok[2:], "="))
	}
	// perl's -Mlib=/a,/b adds each folder (a45).
	if (strings.HasPrefix(tok, "-M") || strings.HasPrefix(tok, "-m")) && strings.Contains(tok, "=") {
		_, v, _ := strings.Cut(tok, "=")
		add(v)
		for _, part := range strings.Split(v, ",") {
			add(part)
		}
		// A folder whose own name holds a comma: perl splits it too, but
		// an absolute path after a comma is still tried whole.
		for i := range len(v) - 1 {
			if v[i] == ',' && v[i+1] == '/' {
				add(v[i+1:])
				add(v[:i])
			}
		}
	}
	// java's -javaagent:JAR=OPTIONS and -agentpath:LIB=OPTIONS load the
	// path before the '=' (a45).
	for _, agent := range []string{"-javaagent:", "-agentpath:"} {
		if rest, ok := strings.CutPrefix(tok, agent); ok {
			// The JVM cuts at the first '='; each '=' is tried, as
			// candidates only.
			for i := range len(rest) {
				if rest[i] == '=' {
					add(rest[:i])
				}
			}
			add(rest)
		}
	}
	return out
}
