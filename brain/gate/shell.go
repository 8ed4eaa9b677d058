package gate

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// ShellTool is the tool whose "command" argument is a shell command line:
// the gate reads it as the shell would (AnalyzeShell).
const ShellTool = "shell_exec"

// maxShellDepth bounds how deep `sh -c '…'` strings are parsed in turn.
const maxShellDepth = 4

// SimpleCommand is one command a command line would run: its program and
// arguments with quotes and escapes removed, as the program receives them.
// Words that are computed at run time keep their shell spelling ($HOME).
type SimpleCommand struct {
	Program string
	Args    []string
	// Expanded are the program and its arguments as the shell will see
	// them where that is knowable: ~, $HOME, ${HOME}, ${HOME:?} and the
	// like expanded to the home folder, ${X:-default} to its default, and
	// variables the line set earlier (f=/proc/1/e; cat ${f}nviron) to
	// their value. Words it cannot know keep their spelling.
	Expanded []string
	// Assigns are the NAME=value words before the program (its
	// environment), expanded.
	Assigns []string
	// Via is the wrapper or shell the command was found behind (xargs,
	// sh -c …); "" when the line runs it itself.
	Via string
}

// Line is the command as one line of text, for the danger patterns.
func (c SimpleCommand) Line() string {
	return strings.Join(append([]string{c.Program}, c.Args...), " ")
}

// ExpandedLine is Expanded as one line of text.
func (c SimpleCommand) ExpandedLine() string { return strings.Join(c.Expanded, " ") }

// PathUse is a word of a command line that names a file or folder: an
// argument, an option's value (--file=x) or a redirection's target.
type PathUse struct {
	// Word is the word as the program receives it.
	Word string
	// Path is the word expanded (see SimpleCommand.Expanded) and, when
	// the working folder is known, made absolute and clean.
	Path string
	// Glob is true when the word holds an unquoted *, ? or [ the shell
	// expands to the names that match.
	Glob bool
	// Recursive is true when the program reads everything beneath it
	// (grep -r, tar, cp -r, find …).
	Recursive bool
	// Program is the program it is given to ("" for a redirection).
	Program string
}

// ShellInfo is what a command line would run.
type ShellInfo struct {
	// Commands are every simple command, in order: inside pipelines,
	// lists, subshells, functions and command substitutions, and, for a
	// wrapper (sudo, env, nice, xargs, busybox, find -exec …) or a shell
	// given a literal -c string, the command it runs as well.
	Commands []SimpleCommand
	// Dynamic explains, one reason each, why what the line runs is only
	// known at run time: $(…) or a variable where a program goes, eval,
	// data piped or redirected into a shell or an interpreter, code given
	// to an interpreter on its command line, a line that does not parse.
	Dynamic []string
	// Always explains, one reason each, why approving the line for the
	// conversation would cover more than the person saw: a shell or an
	// interpreter, a program that runs what its options or input say
	// (env, xargs, find -exec, git -c, tar --to-command, awk system(),
	// sed e …), a variable assignment that changes what runs (LD_PRELOAD,
	// GIT_*, PATH …), a recursive delete. Such a line asks every time and
	// no allowed-command pattern matches it.
	Always []string
	// Key identifies the parsed line (the same programs, arguments,
	// variable assignments and redirections): what approving it for the
	// conversation covers. Empty when it does not parse.
	Key string
	// Plain is true when the line assigns no variable and redirects
	// nothing but to /dev/null or another descriptor: only a plain line
	// can match an allowed-command pattern.
	Plain bool
	// Hosts are the network hosts its network programs name (curl, wget,
	// nc, ssh, scp, rsync to a remote, git push/fetch/clone/pull to an
	// address …).
	Hosts []Host
	// Paths are the words that may name files or folders.
	Paths []PathUse
	// Deletes are the targets of its recursive deletes (rm -r).
	Deletes []PathUse
}

// shells read commands from stdin when given no script; interpreters read
// code from stdin the same way, or from -c/-e.
var (
	shells       = setOf("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "rbash", "busybox-sh", "pdksh", "oksh", "elvish", "nu", "xonsh")
	interpreters = setOf("python", "python2", "python3", "perl", "ruby", "node", "nodejs", "deno", "bun", "php", "lua",
		"luajit", "tclsh", "wish", "pwsh", "powershell", "osascript", "Rscript", "julia", "irb", "jshell", "groovy", "scala",
		"expect", "pypy", "pypy3", "awk-script", "jrunscript", "jjs", "guile", "racket", "sbcl", "clisp", "gawk-script")
	codeFlags = setOf("-c", "-e", "-E", "-r", "-p", "--eval", "--command", "--exec", "-Command", "-EncodedCommand", "--print")
	// wrappers run the command that follows their options.
	wrappers = setOf("sudo", "doas", "env", "nice", "nohup", "time", "timeout", "stdbuf", "ionice", "chrt", "taskset",
		"command", "builtin", "exec", "xargs", "setsid", "unbuffer", "strace", "ltrace", "watch", "flock", "chroot",
		"runuser", "pkexec", "caffeinate", "script", "proxychains", "proxychains4", "torsocks", "firejail", "systemd-run",
		"unshare", "nsenter", "cgexec", "numactl", "prlimit", "faketime", "fakeroot", "catchsegv", "valgrind", "sg",
		"su", "parallel", "at", "batch", "tsp", "dbus-launch", "xvfb-run", "ssh-agent", "entr", "chpst", "setpriv", "with-contenv")
	// withValue are wrapper options that take a separate value.
	withValue = setOf("-n", "-u", "-g", "-c", "-C", "-s", "-k", "-p", "-t", "-I", "-L", "-P", "-d", "-E", "-o", "-i", "-e", "-w",
		"--signal", "--kill-after", "--user", "--group", "--chdir", "--unset", "-a", "--arg-file", "-D", "--delimiter",
		"--max-args", "--max-procs", "--max-lines", "-l", "--replace")
	// textArgs take text, not file names: their arguments name nothing.
	textArgs = setOf("echo", "printf", "true", "false", ":", "printenv", "basename", "dirname", "seq", "expr", "yes", "sleep",
		"date", "cal", "whoami", "id", "uname", "hostname", "which", "type", "hash", "test", "[", "[[", "git", "jj", "hg", "svn")
	// patternFirst take a pattern or a program text first, then files.
	patternFirst = setOf("grep", "egrep", "fgrep", "rg", "ag", "ack", "awk", "gawk", "mawk", "nawk", "sed", "gsed", "jq", "yq",
		"gojq", "perl", "zgrep", "xzgrep", "bzgrep", "zstdgrep", "pcregrep", "sd", "tr")
)

func setOf(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// AnalyzeShell parses a POSIX/bash command line with a real shell parser
// and lists what it would run, with nothing known about the computer:
// ~ and $HOME stay as written and relative paths stay relative.
func AnalyzeShell(command string) ShellInfo {
	return AnalyzeShellIn(command, Env{}, "")
}

// AnalyzeShellIn is AnalyzeShell knowing the home folder (env.Home) and
// the folder the command starts in (cwd, absolute; "" when unknown), so
// that paths read as the shell will read them.
func AnalyzeShellIn(command string, env Env, cwd string) ShellInfo {
	a := &analyzer{home: strings.TrimSuffix(env.Home, "/"), cwd: cleanAbs(cwd), vars: map[string]string{}, plain: true}
	if env.Home == "/" {
		a.home = "/"
	}
	a.script(command, 0)
	if a.key == "" && len(a.cmds) > 0 {
		// The printer dropped what the parser read (a NUL byte, say).
		a.why("it is not a command line the checker can read back")
	}
	return ShellInfo{Commands: a.cmds, Dynamic: a.dynamic, Always: a.always, Key: a.key, Plain: a.plain && len(a.dynamic) == 0,
		Hosts: dedupeHosts(a.hosts), Paths: a.paths, Deletes: a.deletes}
}

// cleanAbs is p cleaned when it is absolute, else "".
func cleanAbs(p string) string {
	if !strings.HasPrefix(p, "/") {
		return ""
	}
	return path.Clean(p)
}

type analyzer struct {
	home    string
	cwd     string
	vars    map[string]string
	via     string
	cmds    []SimpleCommand
	dynamic []string
	always  []string
	key     string
	plain   bool
	hosts   []Host
	paths   []PathUse
	deletes []PathUse
}

func addReason(list []string, reason string) []string {
	for _, r := range list {
		if r == reason {
			return list
		}
	}
	return append(list, reason)
}

func (a *analyzer) why(reason string)      { a.dynamic = addReason(a.dynamic, reason) }
func (a *analyzer) ask(reason string)      { a.always = addReason(a.always, reason) }
func (a *analyzer) addHosts(hs ...Host)    { a.hosts = append(a.hosts, hs...) }
func (a *analyzer) parser() *syntax.Parser { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }

func (a *analyzer) script(src string, depth int) {
	if depth > maxShellDepth {
		a.why("it nests shells too deeply to check")
		return
	}
	f, err := a.parser().Parse(strings.NewReader(src), "")
	if err != nil {
		a.why("it is not a command line the checker can parse")
		return
	}
	if depth == 0 {
		var b strings.Builder
		if syntax.NewPrinter().Print(&b, f) != nil {
			a.why("it is not a command line the checker can read back")
		} else {
			a.key = strings.TrimSpace(b.String())
		}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			a.why("it runs a command substitution $(…) whose output becomes part of the command")
		case *syntax.ProcSubst:
			a.why("it runs a process substitution <(…)")
		case *syntax.CallExpr:
			a.call(n, depth)
		case *syntax.DeclClause:
			a.decl(n)
		case *syntax.Stmt:
			a.redirects(n)
			if n.Cmd != nil {
				a.stdinOf(n)
			}
		}
		return true
	})
}

// redirects records the files a statement's redirections name; any
// redirection but to /dev/null, another descriptor or a here-document
// makes the line not plain.
func (a *analyzer) redirects(s *syntax.Stmt) {
	for _, r := range s.Redirs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			continue // input text, not a file
		case syntax.DplIn, syntax.DplOut:
			if w, _ := word(r.Word); w == "-" || strings.Trim(w, "0123456789") == "" {
				continue // 2>&1, >&-
			}
		}
		if r.Word == nil {
			continue
		}
		raw, _ := word(r.Word)
		exp, glob := a.expand(r.Word)
		if exp == "/dev/null" {
			continue
		}
		a.plain = false
		a.paths = append(a.paths, a.pathUse(raw, exp, glob, false, ""))
	}
}

// stdinOf notes a shell or an interpreter whose input is redirected from
// a file or a here-document: it runs that data as code.
func (a *analyzer) stdinOf(s *syntax.Stmt) {
	call, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return
	}
	for _, r := range s.Redirs {
		switch r.Op {
		case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			prog, _ := word(call.Args[0])
			if runsStdin(path.Base(prog), words(call.Args[1:])) {
				a.why("it redirects data into " + path.Base(prog) + ", which runs it as code")
			}
		}
	}
}

// decl handles export, declare, local, readonly and typeset: their
// assignments are tracked like plain ones, and make the line not plain.
func (a *analyzer) decl(d *syntax.DeclClause) {
	a.plain = false
	for _, as := range d.Args {
		a.assign(as, true)
	}
}

// assign tracks NAME=value for the words that follow and notes an
// assignment that changes what runs. standalone is false for the
// environment of one command (X=1 cmd), which the command's own words do
// not see.
func (a *analyzer) assign(as *syntax.Assign, standalone bool) string {
	if as.Name == nil {
		return ""
	}
	name := as.Name.Value
	val := ""
	if as.Value != nil {
		val, _ = a.expand(as.Value)
	}
	if r := dangerousAssign(name, val); r != "" {
		a.ask(r)
	}
	if standalone {
		if as.Naked || as.Array != nil || as.Index != nil {
			delete(a.vars, name)
		} else if as.Append {
			a.vars[name] += val
		} else {
			a.vars[name] = val
		}
	}
	return name + "=" + val
}

// call records one simple command (and what a wrapper around it runs).
func (a *analyzer) call(c *syntax.CallExpr, depth int) {
	if len(c.Args) == 0 {
		// Only assignments: shell variables, seen by what follows.
		if len(c.Assigns) > 0 {
			a.plain = false
		}
		for _, as := range c.Assigns {
			a.assign(as, true)
		}
		return
	}
	var env []string
	for _, as := range c.Assigns {
		a.plain = false
		if s := a.assign(as, false); s != "" {
			env = append(env, s)
		}
	}
	prog, lit := word(c.Args[0])
	if !lit {
		a.why("the program it runs (" + prog + ") is computed at run time")
	}
	exp := make([]string, len(c.Args))
	globs := make([]bool, len(c.Args))
	for i, w := range c.Args {
		exp[i], globs[i] = a.expand(w)
	}
	a.run(cmdWords{prog: prog, args: words(c.Args[1:]), exp: exp, globs: globs, env: env}, depth, 0)
}

// cmdWords is one command's words as written and expanded.
type cmdWords struct {
	prog  string
	args  []string
	exp   []string // program and args expanded
	globs []bool   // per word of exp
	env   []string
}

// sub is the command a wrapper runs: words from index i of the args on.
func (w cmdWords) sub(i int) cmdWords {
	if i < 0 || i >= len(w.args) {
		return cmdWords{}
	}
	return cmdWords{prog: w.args[i], args: w.args[i+1:], exp: w.exp[i+1:], globs: w.globs[i+1:]}
}

// run records a command and looks through wrappers and shells.
func (a *analyzer) run(w cmdWords, depth, hops int) {
	if len(w.exp) == 0 {
		return
	}
	a.cmds = append(a.cmds, SimpleCommand{Program: w.prog, Args: w.args, Expanded: w.exp, Assigns: w.env, Via: a.via})
	base := path.Base(w.prog)
	if hops > 8 {
		a.why("it nests wrappers too deeply to check")
		return
	}
	args, exp := w.args, w.exp[1:]
	a.hosts = append(a.hosts, networkHosts(base, exp)...)
	if r := optionsRun(base, args); r != "" {
		a.ask(r)
	}
	a.pathWords(base, args, exp, w.globs[1:]) // cd's folder too, from where it starts
	if base == "cd" && a.via == "" && hops == 0 {
		a.cd(exp)
	}
	switch {
	case base == "eval":
		a.why("it runs text as code with eval")
		return
	case base == "source" || base == ".":
		a.ask("it runs a script in the shell itself (" + base + "), so what it does is whatever that file says")
	case base == "busybox" && len(args) > 0:
		a.ask("busybox runs the program its first argument names")
		a.nested("busybox", func() { a.run(w.sub(0), depth, hops+1) })
		return
	case base == "find":
		a.find(w, depth, hops)
		return
	case wrappers[base]:
		// The words match the shell's confirm patterns' reasons, so the
		// card says each once.
		admin := true
		switch base {
		case "sudo", "doas", "pkexec":
			a.ask("runs a command with administrator rights")
		case "su", "runuser":
			a.ask("switches to another user")
		default:
			admin = false
		}
		if i, ok := unwrap(base, args); ok {
			if !admin {
				a.ask(base + " runs another program (" + path.Base(args[i]) + ") that its arguments name")
			}
			a.nested(base, func() { a.run(w.sub(i), depth, hops+1) })
		} else if !admin && hasPositional(args) {
			// Options the reader does not know may hide the program.
			a.ask(base + " runs another program that its arguments name")
		}
		return
	case shells[base]:
		a.ask("it runs " + base + ", a shell, which runs whatever its script, its -c text or its input says")
		a.nested(base, func() { a.shell(base, args, depth) })
		return
	case base == "rm" && recursiveFlag(args):
		a.ask("recursive delete") // the words of the shell's confirm pattern
		for i, x := range exp {
			if !strings.HasPrefix(args[i], "-") {
				a.deletes = append(a.deletes, a.pathUse(args[i], x, w.globs[i+1], true, "rm"))
			}
		}
	}
	if runsStdin(base, args) || interpreterCode(base, args) {
		a.why(base + " runs code given on its command line or piped into it")
	}
}

// nested runs f with the analyzer noting that commands found meanwhile
// run behind via.
func (a *analyzer) nested(via string, f func()) {
	old := a.via
	if a.via == "" {
		a.via = via
	}
	f()
	a.via = old
}

// find runs the commands of -exec, -execdir, -ok and -okdir; those and
// -fprint, -fprint0, -fprintf, -fls (which write the file they name) and
// -delete make it ask every time.
func (a *analyzer) find(w cmdWords, depth, hops int) {
	args := w.args
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			a.ask("find " + args[i] + " writes the file its option names")
		case "-delete":
			a.ask("find -delete removes every match")
		}
		if args[i] == "-exec" || args[i] == "-execdir" || args[i] == "-ok" || args[i] == "-okdir" {
			a.ask("find " + args[i] + " runs the program its option names for every match")
			j := i + 1
			for j < len(args) && args[j] != ";" && args[j] != "+" {
				j++
			}
			if j > i+1 {
				sub := cmdWords{prog: args[i+1], args: args[i+2 : j], exp: w.exp[i+2 : j+1], globs: w.globs[i+2 : j+1]}
				a.nested("find", func() { a.run(sub, depth, hops+1) })
			}
			i = j
		}
	}
}

// cd follows the working folder for the words after it.
func (a *analyzer) cd(exp []string) {
	var dir string
	for _, x := range exp {
		if !strings.HasPrefix(x, "-") || x == "-" {
			dir = x
			break
		}
	}
	switch {
	case dir == "":
		a.cwd = a.home
	case dir == "-" || strings.Contains(dir, "$"):
		a.cwd = ""
	case strings.HasPrefix(dir, "/"):
		a.cwd = path.Clean(dir)
	case a.cwd != "":
		a.cwd = path.Join(a.cwd, dir)
	}
}

// shell handles sh/bash…: a literal -c string is parsed in turn; no script
// at all means it runs what is piped or redirected into it.
func (a *analyzer) shell(base string, args []string, depth int) {
	for i, x := range args {
		if x == "-c" || (strings.HasPrefix(x, "-") && !strings.HasPrefix(x, "--") && strings.Contains(x, "c")) {
			if i+1 < len(args) {
				if strings.ContainsAny(args[i+1], "$`") {
					a.why(base + " -c runs a string computed at run time")
				}
				a.script(args[i+1], depth+1)
			}
			return
		}
		if x == "-s" || x == "-" {
			break
		}
		if !strings.HasPrefix(x, "-") && !strings.HasPrefix(x, "+") {
			return // a script file
		}
	}
	a.why("it pipes or redirects data into " + base + ", which runs it as code")
}

// runsStdin reports whether prog reads code from stdin given args.
func runsStdin(base string, args []string) bool {
	if base == "source" || base == "." {
		return len(args) == 0 || args[0] == "/dev/stdin" || args[0] == "-"
	}
	if !shells[base] && !isInterpreter(base) {
		return false
	}
	for _, x := range args {
		if x == "-" || x == "-s" || x == "/dev/stdin" {
			return true
		}
		if !strings.HasPrefix(x, "-") {
			return false
		}
		if isInterpreter(base) && (x == "-m" || codeFlags[x]) {
			return false // a module or inline code: handled elsewhere
		}
	}
	return true
}

// interpreterCode reports an interpreter given code on its command line
// (python -c, perl -e or -ne, node -e, ruby -e, php -r, pwsh -Command),
// anywhere before its script: an option's value (python -X utf8 -c …)
// does not hide it. A word that reads as a script file (a/b, x.py) ends
// the options.
func interpreterCode(base string, args []string) bool {
	if !isInterpreter(base) {
		return false
	}
	perl := strings.HasPrefix(base, "perl")
	for _, x := range args {
		if x == "--" {
			return false
		}
		if codeFlags[x] || strings.HasPrefix(x, "--eval=") || strings.HasPrefix(x, "--print=") || codeCluster(x, perl) {
			return true
		}
		if !strings.HasPrefix(x, "-") && (strings.Contains(x, "/") || path.Ext(x) != "") {
			return false
		}
	}
	return false
}

// codeCluster reports short options run together that hold a code flag:
// perl -ne, node -pe, ruby -ne, python -Ic.
func codeCluster(x string, perl bool) bool {
	if len(x) < 3 || x[0] != '-' || x[1] == '-' {
		return false
	}
	for _, r := range x[1:] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || perl && r >= '0' && r <= '9') {
			return false
		}
	}
	if perl {
		return strings.ContainsAny(x, "eE")
	}
	return strings.ContainsAny(x[1:], "ce")
}

func isInterpreter(base string) bool {
	if interpreters[base] {
		return true
	}
	// python3.12, perl5.36, php8.2, lua5.4
	for _, p := range []string{"python", "perl", "php", "lua", "ruby", "node", "pypy"} {
		if strings.HasPrefix(base, p) && strings.Trim(base[len(p):], "0123456789.") == "" {
			return true
		}
	}
	return false
}

// unwrap finds the command a wrapper runs: the index in args of the first
// argument that is not one of its options (or their values) or a
// NAME=value of env.
func unwrap(base string, args []string) (int, bool) {
	i := 0
	if base == "command" || base == "builtin" || base == "type" {
		for _, x := range args {
			if x == "-v" || x == "-V" {
				return 0, false // prints where a program is; runs nothing
			}
		}
	}
	for i < len(args) {
		x := args[i]
		switch {
		case x == "--":
			i++
			if i < len(args) {
				return i, true
			}
			return 0, false
		case strings.HasPrefix(x, "-") && len(x) > 1:
			if takesValue(base, x) {
				i++
			}
			i++
		case base == "env" && strings.Contains(x, "="):
			i++
		case base == "timeout" && i == firstPositional(args) && looksDuration(x):
			i++
		case (base == "flock" || base == "chroot" || base == "taskset" || base == "chrt" || base == "sg" ||
			base == "faketime") && i == firstPositional(args):
			i++ // the lock file, new root, CPU mask, priority or group
		default:
			return i, true
		}
	}
	return 0, false
}

// takesValue reports whether a wrapper's option takes the next word as
// its value. env, command, exec, nice and nohup have their own few; the
// others share withValue.
func takesValue(base, opt string) bool {
	switch base {
	case "env":
		return opt == "-u" || opt == "--unset" || opt == "-C" || opt == "--chdir" || opt == "-S" || opt == "--split-string"
	case "command", "builtin", "nohup", "time", "setsid":
		return false
	case "exec":
		return opt == "-a"
	case "nice":
		return opt == "-n" || opt == "--adjustment"
	}
	return withValue[opt]
}

// hasPositional reports an argument that is not an option.
func hasPositional(args []string) bool {
	for _, x := range args {
		if !strings.HasPrefix(x, "-") {
			return true
		}
	}
	return false
}

func firstPositional(args []string) int {
	for i := 0; i < len(args); i++ {
		if !strings.HasPrefix(args[i], "-") {
			return i
		}
		if withValue[args[i]] {
			i++
		}
	}
	return len(args)
}

func looksDuration(s string) bool {
	return s != "" && strings.Trim(s, "0123456789.smhd") == ""
}

// recursiveFlag reports -r, -R or --recursive among rm's options.
func recursiveFlag(args []string) bool {
	for _, x := range args {
		if x == "--" {
			return false
		}
		if x == "--recursive" {
			return true
		}
		if strings.HasPrefix(x, "-") && !strings.HasPrefix(x, "--") && strings.ContainsAny(x, "rR") {
			return true
		}
	}
	return false
}

// words renders each word as the program receives it.
func words(ws []*syntax.Word) []string {
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		s, _ := word(w)
		out = append(out, s)
	}
	return out
}

// word returns w with quotes and escapes removed, and whether it is fully
// literal. Expansions keep their shell spelling ($HOME, ${IFS}, $(…)).
func word(w *syntax.Word) (string, bool) {
	var b strings.Builder
	lit := true
	for _, p := range w.Parts {
		if !part(&b, p, false) {
			lit = false
		}
	}
	return b.String(), lit
}

func part(b *strings.Builder, p syntax.WordPart, quoted bool) bool {
	switch p := p.(type) {
	case *syntax.Lit:
		b.WriteString(unescape(p.Value, quoted))
		return true
	case *syntax.SglQuoted:
		b.WriteString(p.Value)
		return !p.Dollar || !strings.Contains(p.Value, `\`)
	case *syntax.DblQuoted:
		lit := true
		for _, q := range p.Parts {
			if !part(b, q, true) {
				lit = false
			}
		}
		return lit
	default:
		b.WriteString(printed(p.(syntax.Node)))
		return false
	}
}

// printed is a node as the shell spells it.
func printed(n syntax.Node) string {
	var sb strings.Builder
	if err := syntax.NewPrinter().Print(&sb, n); err != nil {
		return "$?"
	}
	return sb.String()
}

// expand is w as the shell will see it where that is knowable (see
// SimpleCommand.Expanded), and whether it holds an unquoted glob
// character.
func (a *analyzer) expand(w *syntax.Word) (string, bool) {
	var b strings.Builder
	glob := false
	for i, p := range w.Parts {
		a.expandPart(&b, p, false, i == 0, &glob)
	}
	return b.String(), glob
}

func (a *analyzer) expandPart(b *strings.Builder, p syntax.WordPart, quoted, first bool, glob *bool) {
	switch p := p.(type) {
	case *syntax.Lit:
		v := p.Value
		if !quoted && first && a.home != "" && (v == "~" || strings.HasPrefix(v, "~/")) {
			v = a.home + strings.TrimPrefix(v, "~")
			if a.home == "/" {
				v = "/" + strings.TrimPrefix(strings.TrimPrefix(p.Value, "~"), "/")
			}
		}
		if !quoted && hasGlob(v) {
			*glob = true
		}
		b.WriteString(unescape(v, quoted))
	case *syntax.SglQuoted:
		b.WriteString(p.Value)
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			a.expandPart(b, q, true, false, glob)
		}
	case *syntax.ParamExp:
		if v, ok := a.param(p); ok {
			b.WriteString(v)
			return
		}
		b.WriteString(printed(p))
	default:
		b.WriteString(printed(p.(syntax.Node)))
	}
}

// param is the value of $NAME, ${NAME}, ${NAME:?…}, ${NAME:-default} and
// the like when the gate can know it: HOME, or a variable set earlier on
// the line; an unknown one with a default gives the default.
func (a *analyzer) param(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Names != 0 ||
		p.NestedParam != nil || len(p.Modifiers) > 0 {
		return "", false
	}
	name := p.Param.Value
	val, known := a.vars[name]
	if !known && name == "HOME" && a.home != "" {
		val, known = a.home, true
	}
	if p.Exp == nil {
		return val, known
	}
	switch p.Exp.Op {
	case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
		return val, known
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
		if known && (val != "" || p.Exp.Op == syntax.DefaultUnset || p.Exp.Op == syntax.AssignUnset) {
			return val, true
		}
		if p.Exp.Word == nil {
			return "", true
		}
		d, _ := a.expand(p.Exp.Word)
		return d, true
	}
	return "", false
}

func hasGlob(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return true
		}
	}
	return false
}

// unescape removes the backslashes the shell removes: before any character
// outside quotes, before $ ` " \ and newline inside double quotes.
func unescape(s string, quoted bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			n := s[i+1]
			if !quoted || strings.IndexByte("$`\"\\\n", n) >= 0 {
				if n != '\n' {
					b.WriteByte(n)
				}
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
