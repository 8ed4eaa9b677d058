package cerebellum

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// The person approves what an mcp: block runs (CapState.Launch), and a
// command line names files whose content is the code that runs: the
// program, a script (server.sh, dist/index.js). A file changed after the
// approval (the model rewrote a script in a granted folder) is not what
// was approved, so the approval covers their content too: ApprovalKey is
// the block's LaunchKey and a hash of those files, taken when the person
// approves and compared by the MCP client at every start of the server
// (never at each scan: the program may be a 100 MB binary).

// approvalSep separates the two parts of an ApprovalKey.
const approvalSep = "+"

// scriptExts are the extensions of files an interpreter runs: an argument
// naming one is part of what the server runs, while a database or a data
// file it names (which the server itself changes) is not.
var scriptExts = []string{".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx", ".py", ".pyc", ".pyz", ".pyw",
	".sh", ".bash", ".zsh", ".fish", ".rb", ".pl", ".pm", ".php", ".lua", ".tcl", ".r", ".jl", ".jar", ".war", ".wasm",
	".exe", ".dll", ".ps1", ".bat", ".cmd", ".go", ".swift", ".kts", ".groovy", ".scala", ".clj", ".ex", ".exs", ".dart"}

// ApprovalKey identifies what enabling an mcp: block approves: its
// LaunchKey and the content of the files its command line runs (LaunchFiles)
// that the person's account can change. dir is the capability's folder.
func ApprovalKey(s *skillmd.MCPServer, dir string) string {
	if s == nil {
		return ""
	}
	return LaunchKey(s) + approvalSep + FilesKey(LaunchFiles(s, dir), nil)
}

// ApprovalKey is the ApprovalKey of an MCP capability's block as it is
// now on disk ("" for other kinds).
func (c *Capability) ApprovalKey() string {
	if c.Manifest == nil || c.Manifest.MCP == nil {
		return ""
	}
	return ApprovalKey(c.Manifest.MCP, c.Dir)
}

// SplitApproval parses an ApprovalKey (or a CapState.Launch stored before
// files were part of it: files is then "" and hashed false).
func SplitApproval(key string) (launch, files string, hashed bool) {
	launch, files, hashed = strings.Cut(key, approvalSep)
	return launch, files, hashed
}

// MCPWorkDir is the working folder of an mcp: block's server: its cwd (with
// ~/ for the home folder, relative to the capability's folder dir), else
// dir itself.
func MCPWorkDir(s *skillmd.MCPServer, dir string) string {
	if s == nil || s.Cwd == "" {
		return dir
	}
	cwd := s.Cwd
	if strings.HasPrefix(cwd, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			cwd = filepath.Join(home, cwd[2:])
		}
	}
	if !filepath.IsAbs(cwd) && dir != "" {
		cwd = filepath.Join(dir, cwd)
	}
	return cwd
}

// LaunchFiles are the files an mcp: block's command line runs, with
// symbolic links resolved, sorted: its program as found on PATH (the
// block's own PATH, else Wrasse's) or relative to its working folder, and
// each argument (or the value after '=' in one) naming an existing script
// (executable, or with a script's extension), absolute or relative to the
// working folder. dir is the capability's folder.
//
// They also hold the code those can load (codeRoots): every code file in
// the project of each script named, of a folder an interpreter is given to
// run (node DIR), and of the working folder where the command runs a
// module or package from it (python -m, npm start). A script sources a
// file beside it, imports a module the folder shadows (json.py beside
// server.py), or runs a folder's index.js: each is code the approval
// covers, where a command in a granted folder could otherwise change what
// an approved server runs, with its secrets. A project past
// maxCodeEntries entries stands as one Unchecked entry, which no start
// accepts.
func LaunchFiles(s *skillmd.MCPServer, dir string) []string {
	if s == nil || s.URL != "" || s.Command == "" {
		return nil
	}
	l := launchOf(s, dir)
	out := append(l.files, codeFiles(l.roots, l.home, maxCodeEntries)...)
	// Cargo reads .cargo/config.toml in its working folder and every
	// folder above: the [patch] and paths it names are built and run too
	// (a42), so those above the project are read for path dependencies.
	out = append(out, slices.DeleteFunc(ancestorSettings(append(slices.Clone(l.roots), l.cwd), l.shelf, l.home), func(f string) bool { return !cargoConfig(f) })...)
	out, roots := withPathDependencies(out, l.roots, dir, l.home)
	if _, err := unwrap(s.Command, s.Args, l.cwd); err != nil {
		out = append(out, RefusedPrefix+err.Error())
	}
	if why := perProcessPathIn(s, l.cwd); why != "" {
		out = append(out, RefusedPrefix+why)
	}
	if why := buildFolderRefusal(s, l.cwd, l.shelf, l.home); why != "" {
		out = append(out, RefusedPrefix+why)
	}
	for _, kv := range envFileVars(s, l.cwd) {
		if isCodePathVar(kv.key) && strings.Contains(kv.value, "$") {
			// dotenv-cli (dotenv-expand) and uv (dotenvy) put other
			// variables' values in; node does not: what the runtime reads
			// cannot be known here (a45).
			out = append(out, RefusedPrefix+"an environment file its command line names sets "+kv.key+" from another variable ("+kv.value+"), which some runtimes expand and others do not, so the code it names cannot be checked; write the path itself in that file and enable it again")
			break
		}
		if kv.key == pycachePrefixVar || kv.key == "CARGO_TARGET_DIR" || kv.key == "ArtifactsPath" {
			// The MCP client moves these to the server's own cache
			// (BuildOutputOf) through the environment, which an
			// environment file may override (a43).
			out = append(out, RefusedPrefix+"an environment file its command line names sets "+kv.key+", a build or bytecode folder outside the server's own cache that other commands can write; remove it from that file and enable it again")
			break
		}
	}
	if u, _ := unwrap(s.Command, s.Args, l.cwd); BuildOutputVar(u.command) != pycachePrefixVar && withSettings(s.Env, s.Command, s.Args, l.cwd)[pycachePrefixVar] != "" {
		// A runner whose own build folder the MCP client moves
		// (BuildOutputOf) cannot have Python's bytecode cache moved too
		// (a43).
		out = append(out, RefusedPrefix+"it sets "+pycachePrefixVar+", a bytecode cache outside the project that other commands can write, whose code Python runs in place of the sources your approval covers; remove it from its mcp: block and enable it again")
	}
	above := append(slices.Clone(roots), l.cwd)
	out = append(out, ancestorSettings(above, l.shelf, l.home)...)
	out = append(out, moreAncestorSettings(above, l.shelf, l.home)...)
	out = append(out, pathFolderEntries(l.path, l.cwd, l.home)...)
	if wrapped := withSettings(s.Env, s.Command, s.Args, l.cwd)["PATH"]; wrapped != "" && wrapped != s.Env["PATH"] && !strings.Contains(wrapped, "${") {
		// The PATH a wrapper sets for the command it runs (env PATH=… npx).
		out = append(out, pathFolderEntries(wrapped, l.cwd, l.home)...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// launch is what LaunchFiles finds from an mcp: block before looking
// through folders: the files it names (program, scripts, named code) and
// the code roots whose files count.
type launch struct {
	cwd, home, shelf string
	// path is the PATH the command is looked up on (the block's, else
	// Wrasse's).
	path         string
	files, roots []string
}

// launchOf finds the files s names and its code roots; dir is the
// capability's folder.
func launchOf(s *skillmd.MCPServer, dir string) launch {
	cwd := MCPWorkDir(s, dir)
	var out, scripts []string
	add := func(p string) string {
		if pp := linkThroughProc(p); pp != "" {
			out = append(out, RefusedPrefix+procLinkReason(p, pp))
			return ""
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			return ""
		}
		out = append(out, real)
		return real
	}
	path := s.Env["PATH"]
	if path == "" || strings.Contains(path, "${") {
		path = os.Getenv("PATH")
	}
	prog := findProgram(s.Command, path, cwd)
	var linked string
	if prog != "" {
		real := add(prog)
		switch {
		case real == "":
		case strings.ContainsRune(s.Command, '/'):
			// A program named by its path (./server, bin/run.sh) is the
			// project's own, not an installed runtime; by the path as
			// named too, which a virtual environment's python leads
			// away from (VENV/bin/python → /usr/bin/python3).
			scripts = append(scripts, real, prog)
		case filepath.Dir(real) != filepath.Dir(prog) && changeable(real):
			// Found on PATH as a link into a package (npm link, a
			// package's bin): that package's code runs.
			linked = real
		}
		if venv := filepath.Dir(filepath.Dir(prog)); fileExists(filepath.Join(venv, "pyvenv.cfg")) {
			// Found on PATH in a virtual environment's bin: the
			// environment's packages run.
			scripts = append(scripts, filepath.Join(venv, "pyvenv.cfg"))
		}
	}
	for _, a := range s.Args {
		for _, v := range []string{a, valueAfterEquals(a)} {
			if v == "" || strings.HasPrefix(v, "-") {
				continue
			}
			if !filepath.IsAbs(v) {
				if cwd == "" {
					continue
				}
				v = filepath.Join(cwd, v)
			}
			if fi, err := os.Stat(v); err == nil && fi.Mode().IsRegular() && isScript(v, fi.Mode()) {
				if real := add(v); real != "" {
					scripts = append(scripts, real)
				}
			}
		}
	}
	home, _ := os.UserHomeDir()
	// Computed once: both the roots and the settings above them stop there.
	shelf := shelfOf(dir)
	roots, named := codeRoots(s, shelf, cwd, scripts, home)
	if linked != "" {
		// The package itself, not the installation holding it (npx links
		// into nvm's npm package: the project around that is all of ~/.nvm).
		if p := PackageOf(filepath.Dir(linked), home); p != "" && !systemFolder(p) {
			roots = foldRoots(append(roots, p))
		}
	}
	for _, f := range named {
		add(f)
	}
	for _, f := range envFilesOf(s, cwd) {
		// An environment file sets code variables (a43): by its path
		// even while it does not exist, so that one written later
		// changes the approval.
		if real, err := filepath.EvalSymlinks(f); err == nil {
			out = append(out, real)
		} else if filepath.IsAbs(f) {
			out = append(out, existingReal(f))
		}
	}
	return launch{cwd: cwd, home: home, shelf: shelf, path: path, files: out, roots: roots}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// findProgram finds command as the server's start will: a path with a
// separator relative to dir, else the first executable file of that name
// in an absolute folder of path. "" when there is none.
func findProgram(command, path, dir string) string {
	if strings.ContainsRune(command, '/') || strings.ContainsRune(command, filepath.Separator) {
		if !filepath.IsAbs(command) {
			if dir == "" {
				return ""
			}
			command = filepath.Join(dir, command)
		}
		return command
	}
	for _, d := range filepath.SplitList(path) {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		p := filepath.Join(d, command)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

func isScript(p string, mode os.FileMode) bool {
	return mode&0o111 != 0 || slices.Contains(scriptExts, strings.ToLower(filepath.Ext(p)))
}

func valueAfterEquals(a string) string {
	if _, v, ok := strings.Cut(a, "="); ok {
		return v
	}
	return ""
}

// FilesKey hashes files (absolute, links resolved) for an ApprovalKey:
// each path, and the content of those the person's account can change
// (the file or its folder is writable). A system program (root's
// /usr/bin/node) counts by its path only, so a package upgrade does not
// undo every approval, while a script in a granted folder or a tool in
// ~/.local/bin counts by what it holds. sum hashes one file's content
// (nil: read it whole); the MCP client passes one that remembers. ""
// when files is empty.
func FilesKey(files []string, sum func(path string) (string, error)) string {
	if len(files) == 0 {
		return ""
	}
	if sum == nil {
		sum = SumFile
	}
	h := sha256.New()
	for _, f := range files {
		content := "-"
		if changeable(f) {
			var err error
			if content, err = sum(f); err != nil {
				// Unreadable now: that state is what is approved; a file
				// that becomes readable (and runs) is another.
				content = "unreadable"
			}
		}
		h.Write([]byte(f + "\x00" + content + "\x00"))
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// SumFile is the SHA-256 of a file's content, in hex.
func SumFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// perProcessPathIn says why s cannot be checked when its command line,
// working folder or environment names a path through a folder that is
// another one to each process (a43): /proc/self/cwd is the server's
// working folder to the server and Wrasse's own to Wrasse, which hashes
// what lies there (python3 /proc/self/cwd/server.py ran a script no
// approval covered); so are /proc/thread-self, /proc/PID and /dev/fd.
// The server's standard streams (/proc/self/fd/1, /dev/fd/2) name no
// code and are allowed. "" when it names none.
func perProcessPathIn(s *skillmd.MCPServer, cwd string) string {
	words := append([]string{s.Command, s.Cwd}, s.Args...)
	env := withSettings(s.Env, s.Command, s.Args, cwd)
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		words = append(words, env[k])
	}
	for _, w := range words {
		if p := perProcessPath(w); p != "" {
			return fmt.Sprintf("it names %s, a path that leads to one folder for the server and another for Wrasse (%s is each process's own), so the code it runs there cannot be checked; name the file by its own path (the server's working folder is its cwd:) and enable it again", p, p)
		}
		if p, pp := linkToProcIn(w, cwd); p != "" {
			return procLinkReason(p, pp)
		}
	}
	if u, _ := unwrap(s.Command, s.Args, cwd); javaLike(u.command) {
		for _, a := range u.args {
			if strings.HasPrefix(a, "@") {
				return "java reads more options from " + a + ", a file the approval cannot read as java does; put those options in the block's args and enable it again"
			}
		}
	}
	for _, k := range []string{"JDK_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS"} {
		for _, f := range strings.Fields(env[k]) {
			if strings.HasPrefix(f, "@") {
				return "its " + k + " reads more options from " + f + ", a file the approval cannot read as java does; put those options in the variable itself and enable it again"
			}
		}
	}
	return ""
}

// javaLike: command is java or javaw.
func javaLike(command string) bool {
	b := strings.ToLower(filepath.Base(command))
	return b == "java" || b == "javaw" || b == "java.exe"
}

// linkToProcIn is the first path in word w (split at blanks, ':', '='
// and ',', relative ones joined to cwd) with a link on the way that
// leads into /proc or /dev (G/me -> /proc/self: python3 G/me/cwd/x.py is
// the server's own folder to python and Wrasse's to Wrasse, a45), and
// where it leads; "" when none.
func linkToProcIn(w, cwd string) (string, string) {
	toks := append([]string{w}, strings.FieldsFunc(w, func(r rune) bool { return strings.ContainsRune(" \t:=,;'\"", r) })...)
	for _, tok := range toks {
		if !strings.Contains(tok, "/") || strings.HasPrefix(tok, "/proc") || strings.HasPrefix(tok, "/dev") {
			continue // no path, or perProcessPath's to judge
		}
		if !filepath.IsAbs(tok) {
			if cwd == "" {
				continue
			}
			tok = cwd + "/" + tok
		}
		for i := 1; i <= len(tok); i++ {
			if i < len(tok) && tok[i] != '/' {
				continue
			}
			prefix := tok[:i]
			fi, err := os.Lstat(prefix)
			if err != nil {
				break
			}
			if fi.Mode()&os.ModeSymlink == 0 || slices.Contains([]string{"/dev/stdin", "/dev/stdout", "/dev/stderr"}, prefix) {
				continue // the server's own standard streams name no code
			}
			real, err := filepath.EvalSymlinks(prefix)
			if err != nil {
				break
			}
			for _, top := range []string{"/proc", "/dev"} {
				if real == top || strings.HasPrefix(real, top+"/") {
					return prefix, top
				}
			}
		}
	}
	return "", ""
}

// perProcessPath is the first path in w through /proc/self,
// /proc/thread-self, /proc/PID or /dev/fd (but a standard stream: fd 0,
// 1 or 2), up to that folder; "" when there is none.
func perProcessPath(w string) string {
	for i := 0; i < len(w); i++ {
		rest := w[i:]
		var head string
		switch {
		case strings.HasPrefix(rest, "/proc/"):
			j := len("/proc/")
			k := j
			for k < len(rest) && rest[k] != '/' && rest[k] != ':' && rest[k] != ' ' && rest[k] != ';' && rest[k] != '"' && rest[k] != '\'' {
				k++
			}
			name := rest[j:k]
			if name == "" {
				// /proc/ alone, then a name from elsewhere (a45).
				head = "/proc"
				break
			}
			if name != "self" && name != "thread-self" && strings.Trim(name, "0123456789") != "" {
				continue
			}
			head = rest[:k]
		case rest == "/proc" || strings.HasPrefix(rest, "/proc") && len(rest) > 5 && strings.ContainsRune(" :;,='\"", rune(rest[5])):
			head = "/proc"
		case strings.HasPrefix(rest, "/dev/fd") && (len(rest) == len("/dev/fd") || rest[len("/dev/fd")] == '/'):
			head = "/dev/fd"
		default:
			continue
		}
		if (head == "/dev/fd" || head == "/proc/self" || head == "/proc/thread-self") && standardStream(rest[len(head):], head == "/dev/fd") {
			continue
		}
		return head
	}
	return ""
}

// standardStream reports whether tail, what follows /proc/self (fd is
// false) or /dev/fd (fd true) in a word, names the server's stdin,
// stdout or stderr and nothing below it: /fd/1, /1.
func standardStream(tail string, fd bool) bool {
	if !fd {
		var ok bool
		if tail, ok = strings.CutPrefix(tail, "/fd"); !ok {
			return false
		}
	}
	if len(tail) < 2 || tail[0] != '/' || tail[1] < '0' || tail[1] > '2' {
		return false
	}
	return len(tail) == 2 || !strings.ContainsRune("/0123456789", rune(tail[2]))
}

// linkThroughProc is the per-process path (perProcessPath) a chain of
// links starting at p leads through, "" when none: Wrasse resolves such
// a link to its own folder, the server to its own (a43).
func linkThroughProc(p string) string {
	for range 40 {
		target, err := os.Readlink(p)
		if err != nil {
			return ""
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		if pp := perProcessPath(target); pp != "" {
			return pp
		}
		p = target
	}
	return ""
}

// procLinkReason says why a link at p leading through the per-process
// folder pp cannot be checked.
func procLinkReason(p, pp string) string {
	return fmt.Sprintf("%s is a link through %s, which leads to one folder for the server and another for Wrasse, so what it runs there cannot be checked; make it a link to the file's own path and enable it again", p, pp)
}
