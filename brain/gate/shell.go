package gate

import (
	"path"
	"slices"
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
	// Computed is true when a word of it is known only when it runs (a
	// variable the line does not set, a for loop's variable): no allowed
	// command pattern matches it.
	Computed bool
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
	// Unknown is true when part of it is known only when the command
	// runs ($x the line does not set, $(…), ~name of a user the checker
	// cannot look up, a relative path after cd to such a place): it may
	// name any file, so it asks every time.
	Unknown bool
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
		"su", "parallel", "at", "batch", "tsp", "dbus-launch", "xvfb-run", "ssh-agent", "entr", "chpst", "setpriv", "with-contenv",
		"rlwrap", "dbus-run-session", "daemonize", "start-stop-daemon", "sem", "ts", "tini", "dumb-init", "catatonit")
	// withValue are wrapper options that take a separate value.
	withValue = setOf("-n", "-u", "-g", "-c", "-C", "-s", "-k", "-p", "-t", "-I", "-L", "-P", "-d", "-E", "-o", "-i", "-e", "-w",
		"--signal", "--kill-after", "--user", "--group", "--chdir", "--unset", "-a", "--arg-file", "-D", "--delimiter",
		"--max-args", "--max-procs", "--max-lines", "-l", "--replace")
	// textArgs take text, not file names: their arguments name nothing.
	textArgs = setOf("echo", "printf", "true", "false", ":", "printenv", "basename", "dirname", "seq", "expr", "yes", "sleep",
		"date", "cal", "whoami", "id", "uname", "hostname", "which", "type", "hash", "test", "[", "[[", "git", "jj", "hg", "svn",
		"read", "getopts", "unset", "export", "readonly", "local", "declare", "typeset", "set", "shift", "exit", "return",
		"wait", "mapfile", "readarray")
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

// AnalyzeShell parses a command line as /bin/sh and bash read it and
// lists what it would run, with nothing known about the computer: ~ and
// $HOME stay as written and relative paths stay relative.
func AnalyzeShell(command string) ShellInfo {
	return AnalyzeShellIn(command, Env{}, "")
}

// AnalyzeShellIn is AnalyzeShell knowing the home folder (env.Home) and
// the folder the command starts in (cwd, absolute; "" when unknown), so
// that paths read as the shell will read them.
func AnalyzeShellIn(command string, env Env, cwd string) ShellInfo {
	a := &analyzer{home: strings.TrimSuffix(env.Home, "/"), vars: map[string]expansion{}, plain: true}
	if env.Home == "/" {
		a.home = "/"
	}
	if c := cleanAbs(cwd); c != "" {
		a.cwds = []string{c}
	}
	if c, ok := controlChar(command); ok {
		a.ask("the checker cannot read it: it holds the control character " + c +
			", which the shell reads differently from the checker, so no one can tell from the line what it runs")
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
	home string
	// cwds are the folders the command may be in at this point of the
	// line: the one it starts in, then where cd takes it (several after
	// a cd the line may or may not run). Empty when it started somewhere
	// unknown; cwdLost is true when the line itself went somewhere the
	// checker cannot know (cd -, cd "$x").
	cwds    []string
	cwdLost bool
	// vars are the variables the line set so far, as the shell will see
	// them.
	vars    map[string]expansion
	via     string
	scopes  []scope
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

func (a *analyzer) why(reason string) { a.dynamic = addReason(a.dynamic, reason) }
func (a *analyzer) ask(reason string) { a.always = addReason(a.always, reason) }

// state is what the line has set so far: variables and working folders.
type state struct {
	vars map[string]expansion
	cwds []string
	lost bool
}

func (a *analyzer) save() state {
	vars := make(map[string]expansion, len(a.vars))
	for k, v := range a.vars {
		vars[k] = v
	}
	return state{vars: vars, cwds: append([]string(nil), a.cwds...), lost: a.cwdLost}
}

func (a *analyzer) restore(s state) {
	a.vars, a.cwds, a.cwdLost = s.vars, s.cwds, s.lost
}

// merge leaves each variable and the working folder either as they were
// before (s) or as they are now: after a part of the line that may or
// may not run (a branch, a loop, a function).
func (a *analyzer) merge(s state) {
	for k, v := range a.vars {
		old, ok := s.vars[k]
		switch {
		case !ok:
			a.vars[k] = union(v, expansion{vals: []string{"$" + k}, unknown: true})
		case !old.equal(v):
			a.vars[k] = union(old, v)
		}
	}
	for k, old := range s.vars {
		if _, ok := a.vars[k]; !ok {
			a.vars[k] = union(old, expansion{vals: []string{"$" + k}, unknown: true})
		}
	}
	a.cwdLost = a.cwdLost || s.lost
	for _, c := range s.cwds {
		if !slices.Contains(a.cwds, c) {
			a.cwds = append(a.cwds, c)
		}
	}
	if len(s.cwds) == 0 && len(a.cwds) > 0 && !s.lost {
		a.cwdLost = true // either where it started (unknown) or here
	}
	if len(a.cwds) > maxAlts {
		a.cwdLost = true
	}
}

// scope is a node of the line being walked; at its end the variables and
// working folder it set are undone (a subshell, a pipeline's part, $(…))
// or kept only as one possibility (a branch, a loop, a function).
type scope struct {
	kind  scopeKind
	saved state
}

type scopeKind int

const (
	scopeNone scopeKind = iota
	scopeIsolated
	scopeMaybe
)

// script reads src as both shells that may run it read it: /bin/sh,
// which is dash on Debian and Ubuntu and bash elsewhere. Where they read
// it differently, or the line uses what only one of them has, the line
// asks every time, and what either reading runs is checked.
func (a *analyzer) script(src string, depth int) {
	if depth > maxShellDepth {
		a.why("it nests shells too deeply to check")
		return
	}
	posix, perr := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader(src), "")
	bash, berr := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	var files []*syntax.File
	switch {
	case perr != nil && berr != nil:
		a.why("it is not a command line the checker can parse")
		return
	case perr != nil:
		a.ask("it uses what only bash reads (" + grammarDetail(perr) + "), while commands run with /bin/sh, which is dash on many systems")
		for _, r := range bashOnly(bash) {
			a.ask(r)
		}
		files = []*syntax.File{bash}
	case berr != nil:
		a.ask(differently)
		files = []*syntax.File{posix}
	default:
		files = []*syntax.File{posix}
		only := bashOnly(bash)
		for _, r := range only {
			a.ask(r)
		}
		if p, b := printed(posix), printed(bash); p != b || len(only) > 0 {
			if p != b {
				a.ask(differently)
			}
			files = append(files, bash)
		}
	}
	if depth == 0 {
		var b strings.Builder
		if syntax.NewPrinter().Print(&b, files[0]) != nil {
			a.why("it is not a command line the checker can read back")
		} else {
			a.key = strings.TrimSpace(b.String())
		}
	}
	start := a.save()
	for i, f := range files {
		if i > 0 {
			a.restore(start) // the other reading starts afresh
		}
		a.walk(f, depth)
	}
}

// differently is why a line sh and bash parse differently asks.
const differently = "sh (dash) and bash read it differently, so the checker cannot tell what it runs"

// bashOnly says why each thing of f that bash reads and sh (dash) reads
// otherwise makes the line ask: the POSIX parser reads these words the
// same, as plain words and commands, but the shell running the line may
// be either.
func bashOnly(f *syntax.File) []string {
	var out []string
	add := func(r string) { out = addReason(out, r) }
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ArithmCmd, *syntax.LetClause:
			add(arithmeticReason)
		case *syntax.ForClause:
			if _, ok := n.Loop.(*syntax.CStyleLoop); ok {
				add(arithmeticReason)
			}
		case *syntax.TestClause:
			add("[[ … ]] is bash's test, which sh (dash) reads as a command named [[ and runs what follows && or || in it")
		case *syntax.SglQuoted:
			if n.Dollar {
				add("$'…' is text with escapes to bash and a $ followed by quoted text to sh (dash)")
			}
		case *syntax.DblQuoted:
			if n.Dollar {
				add("$\"…\" is translated text to bash and a $ followed by quoted text to sh (dash)")
			}
		case *syntax.CoprocClause:
			add("coproc runs a command in the background in bash and is a command named coproc to sh (dash)")
		case *syntax.DeclClause:
			if v := n.Variant.Value; v != "export" && v != "local" && v != "readonly" {
				add(v + " is bash's, where its options change how a variable's value is read; sh (dash) runs a command named " + v)
			}
		case *syntax.Word:
			w := *n
			if syntax.SplitBraces(&w) && slices.ContainsFunc(w.Parts, func(p syntax.WordPart) bool { _, ok := p.(*syntax.BraceExp); return ok }) {
				add("bash expands {a,b} and {1..3} into several words, sh (dash) does not")
			}
		case *syntax.Assign:
			if n.Append {
				add("x+=… adds to a variable in bash and is a command named x+=… to sh (dash)")
			}
		}
		return true
	})
	return out
}

// grammarDetail is the parser's word for what bash alone reads.
func grammarDetail(err error) string {
	msg := err.Error()
	if _, rest, ok := strings.Cut(msg, ": "); ok {
		msg = rest
	}
	msg = strings.TrimSuffix(msg, "; tried parsing as posix")
	return OneLineVisible(msg, 80)
}

// walk reads every command of f, following the variables and working
// folder the line sets through its subshells, branches and loops.
func (a *analyzer) walk(f *syntax.File, depth int) {
	var stack []syntax.Node
	base := len(a.scopes)
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			top := a.scopes[len(a.scopes)-1]
			a.scopes = a.scopes[:len(a.scopes)-1]
			stack = stack[:len(stack)-1]
			switch top.kind {
			case scopeIsolated:
				a.restore(top.saved)
			case scopeMaybe:
				a.merge(top.saved)
			}
			return true
		}
		var parent syntax.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		kind := scopeKindOf(n, parent)
		sc := scope{kind: kind}
		if kind != scopeNone {
			sc.saved = a.save()
		}
		a.scopes = append(a.scopes, sc)
		stack = append(stack, n)
		a.node(n, depth)
		return true
	})
	a.scopes = a.scopes[:base]
}

// scopeKindOf says how what n sets reaches the rest of the line: not at all
// (a subshell, a part of a pipeline, a command substitution, a
// background job) or maybe (a branch, a loop, a function, the right of
// && and ||).
func scopeKindOf(n, parent syntax.Node) scopeKind {
	switch n := n.(type) {
	case *syntax.Subshell, *syntax.CmdSubst, *syntax.ProcSubst, *syntax.CoprocClause:
		return scopeIsolated
	case *syntax.IfClause, *syntax.WhileClause, *syntax.ForClause, *syntax.CaseClause, *syntax.FuncDecl:
		return scopeMaybe
	case *syntax.Stmt:
		if n.Background || n.Coprocess {
			return scopeIsolated
		}
		if b, ok := parent.(*syntax.BinaryCmd); ok {
			switch {
			case b.Op == syntax.Pipe || b.Op == syntax.PipeAll:
				return scopeIsolated
			case b.Y == n:
				return scopeMaybe
			}
		}
	}
	return scopeNone
}

// node reads one node of the line.
func (a *analyzer) node(n syntax.Node, depth int) {
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
	case *syntax.ForClause:
		a.forLoop(n)
	case *syntax.ArithmExp:
		if arithmVars(n.X) {
			a.ask("it evaluates $((…)) with a variable, whose value bash evaluates as arithmetic again, where an array index can run a command")
		}
	}
}

// arithmeticReason is why ((…)) and let ask every time.
const arithmeticReason = "((…)) and let are arithmetic to bash, where an array index can run a command, and ((…)) is two nested subshells to sh (dash), which runs what is inside"

// arithmVars reports an arithmetic expression that reads a variable.
func arithmVars(x syntax.ArithmExpr) bool {
	found := false
	syntax.Walk(x, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ParamExp:
			found = true
		case *syntax.Lit:
			if n.Value != "" && !(n.Value[0] >= '0' && n.Value[0] <= '9') {
				found = true
			}
		}
		return !found
	})
	return found
}

// forLoop binds a for loop's variable to every value it takes; a loop
// assigns a variable, so the line is not plain.
func (a *analyzer) forLoop(f *syntax.ForClause) {
	a.plain = false
	switch l := f.Loop.(type) {
	case *syntax.WordIter:
		if l.Name == nil {
			return
		}
		if !l.InPos.IsValid() {
			// for x; do …: the script's arguments.
			a.vars[l.Name.Value] = expansion{vals: []string{"$" + l.Name.Value}, unknown: true}
			return
		}
		var e expansion
		for _, w := range l.Items {
			x := a.expand(w)
			if len(e.vals) == 0 {
				e = x
				continue
			}
			e = union(e, x)
		}
		if len(e.vals) == 0 {
			e = known("")
		}
		a.vars[l.Name.Value] = e
	}
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
		e := a.expand(r.Word)
		if e.text() == "/dev/null" && len(e.vals) == 1 && !e.unknown {
			continue
		}
		a.plain = false
		uses := a.pathUses(raw, e, false, "")
		if r.Op != syntax.RdrIn {
			a.gitWrites(uses)
		}
		a.paths = append(a.paths, uses...)
	}
}

// writers are programs that write the files their arguments name (sed
// and perl with -i).
var writers = setOf("cp", "mv", "tee", "install", "ln", "dd", "rsync", "truncate", "touch", "patch", "gcp", "gmv", "ed", "ex",
	"sponge", "tar", "gtar", "bsdtar", "unzip", "7z", "7za", "cpio", "ditto")

// gitWrites asks every time for a write into a repository's
// configuration or hooks (.git/config, .git/hooks/*): what it writes
// runs under later git commands (core.fsmonitor, core.pager, a hook) or
// sends them elsewhere (url.<x>.insteadOf), as git config that sets
// does, which always asks.
func (a *analyzer) gitWrites(uses []PathUse) {
	for _, u := range uses {
		if gitInternal(u.Path) || gitInternal(u.Word) {
			a.ask("it writes " + OneLineVisible(u.Word, 80) + ", a repository's configuration or hooks, which later git commands run")
		}
	}
}

// inPlace reports sed's or perl's -i (edit the files in place).
func inPlace(args []string) bool {
	for _, x := range args {
		if x == "--" {
			return false
		}
		if x == "--in-place" || strings.HasPrefix(x, "--in-place=") || strings.HasPrefix(x, "-") && !strings.HasPrefix(x, "--") && strings.Contains(x, "i") {
			return true
		}
	}
	return false
}

// gitInternal reports a path into a repository's configuration or hooks:
// .git/config, .git/hooks/…, also a submodule's under .git/modules; the
// files that tell git where its repository is (.git/commondir, a
// worktree's gitdir); or .git itself, replaced as a whole folder (mv
// evil .git) or as a file whose gitdir: line points git at another
// repository, whose config then runs. In any case: on macOS and Windows
// .GIT is .git.
func gitInternal(p string) bool {
	p = strings.TrimRight(strings.ReplaceAll(p, "\\", "/"), "/")
	c := strings.Split(strings.ToLower(p), "/")
	for i := 0; i < len(c); i++ {
		if c[i] != ".git" {
			continue
		}
		if i == len(c)-1 {
			return true
		}
		for _, x := range c[i+1:] {
			if x == "config" || x == "hooks" || strings.HasPrefix(x, "config.") || x == "commondir" || x == "gitdir" {
				return true
			}
		}
	}
	return false
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
			} else if stdinCommands(path.Base(prog), words(call.Args[1:])) {
				a.ask("it redirects a file into " + path.Base(prog) + ", which runs the commands it holds, and they can run programs")
			}
		}
	}
}

// decl handles export, declare, local, readonly and typeset: their
// assignments are tracked like plain ones, and make the line not plain.
// declare, typeset and nameref are bash's alone.
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
	val := known("")
	if as.Value != nil {
		val = a.expand(as.Value)
	}
	for _, v := range val.vals {
		if r := dangerousAssign(name, v); r != "" {
			a.ask(r)
		}
	}
	if standalone {
		switch {
		case as.Naked || as.Array != nil || as.Index != nil:
			a.vars[name] = expansion{vals: []string{"$" + name}, unknown: true}
		case as.Append:
			old, ok := a.vars[name]
			if !ok {
				old = expansion{vals: []string{"$" + name}, unknown: true}
			}
			old.vals = append([]string(nil), old.vals...)
			old.add(val.vals...)
			old.glob, old.unknown = old.glob || val.glob, old.unknown || val.unknown
			a.vars[name] = old
		default:
			a.vars[name] = val
		}
	}
	return name + "=" + val.text()
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
	exp := make([]expansion, len(c.Args))
	for i, w := range c.Args {
		exp[i] = a.expand(w)
	}
	a.run(cmdWords{prog: prog, args: words(c.Args[1:]), exp: exp, env: env}, depth, 0)
}

// cmdWords is one command's words as written and expanded.
type cmdWords struct {
	prog string
	args []string
	exp  []expansion // program and args expanded
	env  []string
}

// sub is the command a wrapper runs: words from index i of the args on.
func (w cmdWords) sub(i int) cmdWords {
	if i < 0 || i >= len(w.args) {
		return cmdWords{}
	}
	return cmdWords{prog: w.args[i], args: w.args[i+1:], exp: w.exp[i+1:]}
}

// texts are the first value of each word.
func texts(es []expansion) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.text()
	}
	return out
}

// variants are the words with each value they take at least once: the
// first of every word, then the second of those with several, and so on.
func variants(es []expansion) [][]string {
	n := 1
	for _, e := range es {
		n = max(n, len(e.vals))
	}
	out := make([][]string, n)
	for i := range out {
		out[i] = make([]string, len(es))
		for j, e := range es {
			if len(e.vals) > 0 {
				out[i][j] = e.vals[i%len(e.vals)]
			}
		}
	}
	return out
}

// run records a command and looks through wrappers and shells.
func (a *analyzer) run(w cmdWords, depth, hops int) {
	if len(w.exp) == 0 {
		return
	}
	computed := false
	for _, e := range w.exp {
		computed = computed || e.unknown || len(e.vals) > 1
	}
	a.cmds = append(a.cmds, SimpleCommand{Program: w.prog, Args: w.args, Expanded: texts(w.exp), Assigns: w.env, Via: a.via, Computed: computed})
	base := path.Base(w.prog)
	if hops > 8 {
		a.why("it nests wrappers too deeply to check")
		return
	}
	args, exp := w.args, w.exp[1:]
	for _, v := range variants(exp) {
		hs, unreadable := networkHosts(base, v)
		a.hosts = append(a.hosts, hs...)
		if unreadable != "" {
			a.ask(unreadable)
		}
		if r := optionsRun(base, v); r != "" {
			a.ask(r)
		}
	}
	if r := optionsRun(base, args); r != "" { // as written, too
		a.ask(r)
	}
	before := len(a.paths)
	a.pathWords(base, args, exp) // cd's folder too, from where it starts
	if writers[base] || (base == "sed" || base == "gsed" || base == "perl") && inPlace(args) {
		a.gitWrites(a.paths[before:])
		// Destinations the path words miss: dd's of=, cp's -tDIR and
		// unzip's -dDIR attached.
		for _, x := range args {
			var d string
			switch {
			case strings.HasPrefix(x, "of="):
				d = x[3:]
			case strings.HasPrefix(x, "--target-directory="):
				d = x[len("--target-directory="):]
			case len(x) > 2 && (strings.HasPrefix(x, "-t") || strings.HasPrefix(x, "-d") || strings.HasPrefix(x, "-C")):
				d = x[2:]
			default:
				continue
			}
			a.gitWrites(a.pathUses(d, known(d), false, base))
		}
	}
	a.setsVars(base, args)
	if r := builtinLoads(base, args); r != "" {
		a.ask(r)
	}
	if declaring[base] && a.via == "" {
		a.declares(base, exp)
	}
	if a.via == "" && hops == 0 {
		switch base {
		case "cd", "pushd":
			a.cd(exp)
		case "popd":
			a.cwdLost = true
		}
	}
	switch {
	case base == "eval":
		a.why("it runs text as code with eval")
		return
	case base == "source" || base == ".":
		a.ask("it runs a script in the shell itself (" + base + "), so what it does is whatever that file says")
	case base == "awk" || base == "gawk" || base == "mawk" || base == "nawk":
		// print > "file" writes as a shell redirection does.
		for _, f := range awkWrites(args) {
			a.plain = false
			uses := a.pathUses(f, known(f), false, base)
			a.gitWrites(uses)
			a.paths = append(a.paths, uses...)
		}
		for _, f := range awkReads(args) {
			a.plain = false
			a.paths = append(a.paths, a.pathUses(f, known(f), false, base)...)
		}
		if r := awkUnknownFile(args); r != "" {
			a.plain = false
			a.ask(r)
		}
	case base == "ln" || base == "gln":
		a.linkTargets(args, exp, before)
	case base == "trap" || base == "alias":
		a.bodies(base, args, depth)
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
		a.nested(base, func() {
			saved := a.save() // a new shell: what it sets stays there
			a.shell(base, args, depth)
			a.restore(saved)
		})
		return
	case base == "rm" && recursiveFlag(args):
		a.ask("recursive delete") // the words of the shell's confirm pattern
		for i, x := range exp {
			if !strings.HasPrefix(args[i], "-") {
				a.deletes = append(a.deletes, a.pathUses(args[i], x, true, "rm")...)
			}
		}
	}
	if runsStdin(base, args) || interpreterCode(base, args) {
		a.why(base + " runs code given on its command line or piped into it")
	} else if script := interpreterScript(base, args); script != "" {
		a.ask("it runs " + base + " with the script " + script + ", so what it does is whatever that file says, as with a shell")
	} else if r := codeRunner(base, args); r != "" {
		a.ask(r)
	}
}

// pythonRunners are Python modules that run a script, a module or their
// argument as code (python -m pdb x.py, -m timeit 'code').
var pythonRunners = setOf("runpy", "pdb", "trace", "cProfile", "profile", "timeit", "code", "doctest", "idlelib", "IPython",
	"pyclbr", "unittest", "pytest_runner", "ensurepip", "pip", "venv", "http.server")

// scriptRunners run the source file they are given (tsx x.ts).
var scriptRunners = setOf("tsx", "ts-node", "ts-node-esm", "ts-node-script", "esno", "esrun", "swc-node", "vite-node",
	"babel-node", "coffee", "runghc", "runhaskell", "kotlinc", "scala-cli", "dotnet-script", "gorun", "yaegi")

// projectRunners run the command their arguments name inside a project's
// environment (uv run python x.py), as a wrapper does.
var projectRunners = setOf("uv", "poetry", "pdm", "hatch", "pipenv", "rye", "conda", "mamba", "micromamba", "pixi")

// npxTools are the well-known development tools a project installs and
// runs with npx (npx tsc --noEmit): the same packages whether local or
// fetched.
var npxTools = setOf("tsc", "eslint", "prettier", "jest", "vitest", "vite", "next", "webpack", "rollup", "esbuild", "mocha",
	"playwright", "cypress", "tailwindcss", "postcss", "babel", "lerna", "nx", "turbo", "astro",
	"svelte-kit", "nuxi", "ng", "storybook", "stylelint", "rimraf", "wrangler", "prisma", "knip")

// npxCodeOptions are npx's options that give it code or a command line to
// run, or change where it fetches from: whatever tool follows, the card
// cannot read what runs (npx --call="…", --node-options="--require …").
var npxCodeOptions = []string{"-c", "--call", "--node-options", "--registry", "--userconfig", "--prefix"}

// npxCodeOption reports whether args hold one of npxCodeOptions, alone or
// as --opt=value.
func npxCodeOption(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		for _, o := range npxCodeOptions {
			if a == o || strings.HasPrefix(a, o+"=") {
				return true
			}
		}
	}
	return false
}

// packageRunners download and run a package no one has seen.
var packageRunners = setOf("bunx", "uvx", "pnpx")

// codeRunner says why a command runs code or a script the line does not
// show in a way interpreterCode and interpreterScript do not read: a
// Python module that runs its argument, deno eval, go run, java of a
// source file, TypeScript runners, project and package runners; "" when
// it does not.
func codeRunner(base string, args []string) string {
	cmd, at := firstWord(args)
	switch {
	case interpreterFamily(base) == "python":
		for i, x := range args {
			mod := ""
			switch {
			case x == "-m" && i+1 < len(args):
				mod = args[i+1]
			case strings.HasPrefix(x, "-m") && len(x) > 2 && !strings.HasPrefix(x, "--"):
				mod = x[2:]
			}
			if mod != "" {
				if pythonRunners[mod] && mod != "pip" && mod != "venv" && mod != "ensurepip" && mod != "http.server" && mod != "unittest" {
					return "python -m " + mod + " runs the script or code its arguments give, so what it does is whatever that says"
				}
				return ""
			}
		}
	case base == "deno" && (cmd == "eval" || cmd == "repl"):
		return "deno " + cmd + " runs the code its arguments give"
	case base == "go" && cmd == "run":
		// go run ./cmd/tool runs a program of the project, as ./build.sh
		// does; a file (x.go) is a script, and pkg@version is downloaded.
		for _, x := range args[at+1:] {
			if x == "--" {
				break
			}
			if strings.HasSuffix(x, ".go") || strings.Contains(x, "@") {
				return "go run builds and runs the file or downloaded module it names, so what it does is whatever that code says"
			}
		}
	case base == "java":
		for _, x := range args[at:] {
			if strings.HasSuffix(x, ".java") || x == "-jar" {
				return "java runs the source file or archive it names, so what it does is whatever that file says"
			}
		}
	case scriptRunners[base] && hasPositional(args):
		return base + " runs the script it names, so what it does is whatever that file says"
	case projectRunners[base] && (cmd == "run" || cmd == "exec"):
		return base + " " + cmd + " runs the command its arguments name"
	case base == "npx":
		// npm exec assumes --yes when its input is not a terminal, as
		// under shell_exec: any name not installed is fetched and run.
		// A project's well-known tools (npx tsc) are the ordinary ask
		// they were; any other name always asks.
		if name, _ := firstWord(args); name != "" && !npxTools[name] || npxCodeOption(args) || hasOption(args, "-y", "--yes", "-p", "--package") ||
			strings.LastIndexByte(name, '@') > 0 {
			return "npx downloads and runs the package it names when it is not installed, whose code no one here has seen"
		}
	case base == "npm" && (cmd == "x" || cmd == "create" || cmd == "init" && hasPositional(args[at+1:])),
		base == "pnpm" && cmd == "create", base == "yarn" && cmd == "create", base == "bun" && cmd == "create":
		// npm init NAME is npm exec create-NAME.
		return base + " " + cmd + " downloads and runs the package it names, whose code no one here has seen"
	case base == "uv" && cmd == "tool" && at+1 < len(args) && (args[at+1] == "run" || args[at+1] == "install"):
		return "uv tool " + args[at+1] + " downloads and runs the package it names, whose code no one here has seen"
	case base == "corepack" && cmd != "" && cmd != "enable" && cmd != "disable" && cmd != "prepare" && cmd != "install" &&
		cmd != "use" && cmd != "up" && cmd != "pack":
		// corepack pnpm@9 dlx evil: the package manager it runs, with
		// the rest of the line.
		pm, _, _ := strings.Cut(cmd, "@")
		if r := codeRunner(pm, args[at+1:]); r != "" {
			return r
		}
		return "corepack runs the package manager " + cmd + " with the command its arguments give"
	case packageRunners[base] && hasPositional(args):
		return base + " downloads and runs the package it names, whose code no one here has seen"
	case (base == "pnpm" || base == "yarn" || base == "bun") && (cmd == "dlx" || cmd == "x"):
		return base + " " + cmd + " downloads and runs the package it names, whose code no one here has seen"
	case (base == "npm" || base == "pnpm") && cmd == "exec":
		return base + " exec runs the package command it names, downloading it when it is not installed"
	case base == "pipx" && cmd == "run":
		return "pipx run downloads and runs the package it names, whose code no one here has seen"
	}
	return ""
}

// linkTargets adds the targets of ln -s as the link will read them: a
// relative target from the link's folder, not the working folder
// (from project/sub, ln -s ../.aws ../k makes project/k point to ~/.aws).
// When the link word may be a folder the link is made in, the target is
// read from there too.
// The target words pathWords read from the working folder (from index
// before of a.paths on) are dropped: the link does not read them there.
func (a *analyzer) linkTargets(args []string, exp []expansion, before int) {
	symbolic := false
	var pos []int
	for i := 0; i < len(args); i++ {
		x := args[i]
		switch {
		case x == "--":
			for j := i + 1; j < len(args); j++ {
				pos = append(pos, j)
			}
			i = len(args)
		case x == "--symbolic" || x == "--relative" || strings.HasPrefix(x, "-") && !strings.HasPrefix(x, "--") && strings.ContainsAny(x, "sr"):
			symbolic = true
		case x == "-t" || x == "-S" || x == "--suffix" || x == "--target-directory":
			i++
		case strings.HasPrefix(x, "-") && len(x) > 1:
		default:
			pos = append(pos, i)
		}
	}
	if !symbolic || len(pos) < 2 {
		return
	}
	last := pos[len(pos)-1]
	var dirs []string
	for _, u := range a.pathUses(args[last], exp[last], false, "ln") {
		if u.Unknown || !strings.HasPrefix(u.Path, "/") {
			continue
		}
		if len(pos) == 2 {
			dirs = append(dirs, path.Dir(u.Path))
		}
		dirs = append(dirs, u.Path)
	}
	relative := map[string]bool{}
	for _, i := range pos[:len(pos)-1] {
		if len(dirs) > 0 && !strings.HasPrefix(args[i], "/") && !strings.HasPrefix(args[i], "~") && !strings.HasPrefix(args[i], "$") {
			relative[args[i]] = true
		}
	}
	kept := a.paths[:before]
	for _, u := range a.paths[before:] {
		if !relative[u.Word] {
			kept = append(kept, u)
		}
	}
	a.paths = kept
	for _, i := range pos[:len(pos)-1] {
		for _, t := range exp[i].vals {
			if strings.HasPrefix(t, "/") || strings.HasPrefix(t, "~") {
				continue // read as any path already
			}
			for _, d := range dirs {
				a.paths = append(a.paths, PathUse{Word: args[i], Path: path.Join(d, t), Glob: exp[i].glob, Unknown: exp[i].unknown, Program: "ln"})
			}
		}
	}
}

// bodies reads trap's action and alias's values as the command lines
// the shell runs them as (on a signal or at exit; where the alias's name
// is used later). An alias makes a later word run something other than
// what it reads as, so it asks every time.
func (a *analyzer) bodies(base string, args []string, depth int) {
	var texts []string
	switch base {
	case "trap":
		i := 0
		if i < len(args) && args[i] == "--" {
			i++
		}
		if i < len(args) && args[i] != "-" && !strings.HasPrefix(args[i], "-") {
			texts = append(texts, args[i])
		}
	case "alias":
		for _, x := range args {
			if name, val, ok := strings.Cut(x, "="); ok && name != "" {
				a.ask("alias makes " + name + " run another command than its name says on the lines after it")
				texts = append(texts, val)
			}
		}
	}
	for _, t := range texts {
		if strings.ContainsAny(t, "$`") {
			a.why(base + " runs a command computed at run time")
		}
		a.nested(base, func() {
			saved := a.save()
			a.script(t, depth+1)
			a.restore(saved)
		})
	}
}

// setsVars notes the variables a builtin sets from what only the run
// knows (read x, getopts o x, printf -v x, mapfile x) or unsets.
func (a *analyzer) setsVars(base string, args []string) {
	switch base {
	case "read", "getopts", "mapfile", "readarray", "unset", "printf", "wait":
	default:
		return
	}
	for _, x := range args {
		if isName(x) {
			a.vars[x] = expansion{vals: []string{"$" + x}, unknown: true}
			// The value is not known (read from a file or input): a
			// variable that can load code asks as NAME=… does, taking
			// the worst value (GOFLAGS=-toolexec…).
			if r := dangerousAssign(x, "-toolexec"); r != "" {
				a.ask(r)
			}
		}
	}
}

// builtinLoads says why a bash builtin makes a later word run other code
// (hash -p binds a command name to any file, enable -f loads a shared
// object into the shell), or "".
func builtinLoads(base string, args []string) string {
	var letter byte
	switch base {
	case "hash":
		letter = 'p'
	case "enable":
		letter = 'f'
	default:
		return ""
	}
	for _, x := range args {
		if x == "--" {
			break
		}
		if strings.HasPrefix(x, "-") && !strings.HasPrefix(x, "--") && strings.IndexByte(x, letter) >= 0 {
			if base == "hash" {
				return "it binds a command name to another file with hash -p, so a later command runs that file"
			}
			return "it loads a shared library into the shell with enable -f, which runs its code"
		}
	}
	return ""
}

// declaring are the builtins whose NAME=value arguments are assignments
// (read so by sh, where the parser sees a command, as by bash, where it
// sees a declaration).
var declaring = setOf("export", "readonly", "local", "declare", "typeset")

// declares tracks the assignments among a declaring builtin's arguments
// (export PATH=/tmp/evil), which make the line not plain.
func (a *analyzer) declares(base string, exp []expansion) {
	a.plain = false
	for _, e := range exp {
		name, _, ok := strings.Cut(e.text(), "=")
		if !ok || !isName(name) {
			continue
		}
		val := expansion{glob: e.glob, unknown: e.unknown}
		for _, v := range e.vals {
			_, x, _ := strings.Cut(v, "=")
			val.vals = append(val.vals, x)
			if r := dangerousAssign(name, x); r != "" {
				a.ask(r)
			}
		}
		a.vars[name] = val
	}
}

// isName reports a shell variable name.
func isName(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
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
				sub := cmdWords{prog: args[i+1], args: args[i+2 : j], exp: w.exp[i+2 : j+1]}
				a.nested("find", func() { a.run(sub, depth, hops+1) })
			}
			i = j
		}
	}
}

// cd follows the working folder for the words after it: to each folder
// its word may be, or somewhere unknown.
func (a *analyzer) cd(exp []expansion) {
	var dir *expansion
	for i, x := range exp {
		if t := x.text(); !strings.HasPrefix(t, "-") || t == "-" || len(x.vals) > 1 {
			dir = &exp[i]
			break
		}
	}
	switch {
	case dir == nil:
		if a.home == "" {
			a.cwds, a.cwdLost = nil, true
		} else {
			a.cwds = []string{a.home}
		}
		return
	case dir.unknown || dir.glob || dir.text() == "-":
		a.cwds, a.cwdLost = nil, true
		return
	}
	var next []string
	for _, d := range dir.vals {
		if strings.HasPrefix(d, "~") {
			t, ok := a.tilde(d)
			if !ok {
				a.cwds, a.cwdLost = nil, true
				return
			}
			d = t
		}
		var ps []string
		switch {
		case strings.HasPrefix(d, "/"):
			ps = []string{d}
		case len(a.cwds) == 0:
			continue // relative to a start that is not known: still not known
		default:
			for _, c := range a.cwds {
				ps = append(ps, path.Join(c, d))
			}
		}
		for _, p := range ps {
			rs, unknown := a.resolve(p)
			if unknown {
				a.cwds, a.cwdLost = nil, true
				return
			}
			for _, r := range rs {
				if !slices.Contains(next, r) {
					next = append(next, r)
				}
			}
		}
	}
	if len(next) == 0 {
		return
	}
	if len(next) > maxAlts {
		a.cwds, a.cwdLost = nil, true
		return
	}
	a.cwds, a.cwdLost = next, false
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
	if len(args) == 1 && onlyPrintsVersion(base, args[0]) {
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

// onlyPrintsVersion reports the one option that makes a shell or an
// interpreter print its version or help and exit, reading no input:
// --version and --help, and python's -V and node's -v (bash's -v is
// verbose mode instead).
func onlyPrintsVersion(base, x string) bool {
	switch {
	case x == "--version" || x == "--help":
		return true
	case x == "-V":
		return strings.HasPrefix(base, "python")
	case x == "-v":
		return base == "node" || base == "nodejs"
	}
	return false
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

// interpreterValue are interpreters' options that take the next word as
// their value, by family.
var interpreterValue = map[string]map[string]bool{
	"python": setOf("-X", "-W", "--check-hash-based-pycs"),
	"node": setOf("-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions", "--input-type",
		"--env-file", "--title"),
	"ruby": setOf("-I", "-r", "-C", "-E", "-F"),
	"perl": setOf("-I"),
}

// interpreterFamily is the family of an interpreter's options.
func interpreterFamily(base string) string {
	for _, f := range []string{"python", "pypy", "node", "ruby", "perl"} {
		if strings.HasPrefix(base, f) {
			if f == "pypy" {
				return "python"
			}
			return f
		}
	}
	return ""
}

// interpreterScript is the script file an interpreter runs (python3
// build.py, node x.js, deno run x.ts, perl -I lib x.pl), or "": code
// from a module (python -m pytest), from its command line or its input
// (see interpreterCode and runsStdin), or none at all (node --version).
// Like a shell given a script, it runs whatever that file says, which
// the line does not show: it asks every time.
func interpreterScript(base string, args []string) string {
	if !isInterpreter(base) {
		return ""
	}
	family := interpreterFamily(base)
	toolchain := base == "deno" || base == "bun"
	afterRun := false
	for i := 0; i < len(args); i++ {
		x := args[i]
		switch {
		case x == "--":
			if i+1 < len(args) {
				return args[i+1]
			}
			return ""
		case family == "python" && (x == "-m" || strings.HasPrefix(x, "-m") && !strings.HasPrefix(x, "--")):
			return "" // a module, found like a program
		case strings.HasPrefix(x, "-") && len(x) > 1:
			if interpreterValue[family][x] {
				i++
			}
		case toolchain && !afterRun && (x == "run" || x == "x"):
			afterRun = true
		case toolchain && !strings.Contains(x, "/") && path.Ext(x) == "":
			return "" // deno test, bun install, bun run build: a subcommand or a package script
		default:
			return x
		}
	}
	return ""
}

// resolve is an absolute path as the kernel reads it where the gate can:
// /proc/self/root (and thread-self's, and a task's) is the root folder
// and /proc/self/cwd the working folder, whatever .. follows them; then
// cleaned. unknown is true when it goes through the working folder and
// that is not known.
func (a *analyzer) resolve(p string) (paths []string, unknown bool) {
	return resolveProc(p, a.cwds, a.cwdLost || len(a.cwds) == 0, 0)
}

func resolveProc(p string, cwds []string, cwdUnknown bool, depth int) ([]string, bool) {
	comps := strings.Split(p, "/")
	var stack []string
	for i, c := range comps {
		switch c {
		case "", ".":
			continue
		case "..":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			continue
		}
		stack = append(stack, c)
		link := procLink(stack)
		if link == "" || depth > 4 {
			continue
		}
		rest := strings.Join(comps[i+1:], "/")
		if link == "root" {
			return resolveProc("/"+rest, cwds, cwdUnknown, depth+1)
		}
		if cwdUnknown {
			return []string{path.Clean(p)}, true
		}
		var out []string
		for _, cwd := range cwds {
			rs, unknown := resolveProc(cwd+"/"+rest, cwds, cwdUnknown, depth+1)
			if unknown {
				return []string{path.Clean(p)}, true
			}
			out = append(out, rs...)
		}
		return out, false
	}
	return []string{"/" + strings.Join(stack, "/")}, false
}

// procLink is "root" or "cwd" when the components name the root or
// working folder link of this process or thread under /proc.
func procLink(c []string) string {
	if len(c) < 3 || c[0] != "proc" || c[1] != "self" && c[1] != "thread-self" {
		return ""
	}
	last := c[len(c)-1]
	if last != "root" && last != "cwd" {
		return ""
	}
	switch {
	case len(c) == 3:
		return last
	case len(c) == 5 && c[2] == "task" && c[3] != "" && strings.Trim(c[3], "0123456789") == "":
		return last
	}
	return ""
}

// pathUses are a word's PathUses, one for each value it takes and each
// folder the command may be in.
func (a *analyzer) pathUses(raw string, e expansion, recursive bool, prog string) []PathUse {
	var out []PathUse
	for _, v := range e.vals {
		out = append(out, a.pathUse(raw, v, e.glob, e.unknown, recursive, prog)...)
	}
	return out
}

// pathUse is the PathUses of one value of a word as written (raw): made
// absolute against each folder the command may be in when they are
// known.
func (a *analyzer) pathUse(raw, p string, glob, unknown, recursive bool, prog string) []PathUse {
	if strings.HasPrefix(p, "~") {
		// Also inside a word (f=@~/x), where the shell leaves it to the
		// program.
		if t, ok := a.tilde(p); ok {
			p = t
		} else {
			unknown = true
		}
	}
	mk := func(p string, unknown bool) PathUse {
		return PathUse{Word: raw, Path: p, Glob: glob, Recursive: recursive, Program: prog, Unknown: unknown}
	}
	var abs []string
	switch {
	case strings.HasPrefix(p, "/"):
		abs = []string{p}
	case unknown:
		return []PathUse{mk(p, true)}
	case a.cwdLost:
		return []PathUse{mk(p, true)}
	case len(a.cwds) == 0:
		return []PathUse{mk(p, false)}
	default:
		for _, c := range a.cwds {
			abs = append(abs, path.Join(c, p))
		}
	}
	var out []PathUse
	for _, x := range abs {
		rs, u := a.resolve(x)
		for _, r := range rs {
			out = append(out, mk(r, unknown || u))
		}
	}
	return out
}
