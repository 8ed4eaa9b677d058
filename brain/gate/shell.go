package gate

import (
	"path"
	"sort"
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
}

// Line is the command as one line of text, for the danger patterns.
func (c SimpleCommand) Line() string {
	return strings.Join(append([]string{c.Program}, c.Args...), " ")
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
	// Such a line always asks, and approving it for the conversation
	// covers nothing else.
	Dynamic []string
	// Scope are the "program subcommand" pairs the line runs (git status,
	// npm test, ls), sorted: what approving it for the conversation covers.
	Scope []string
}

// shells read commands from stdin when given no script; interpreters read
// code from stdin the same way, or from -c/-e.
var (
	shells       = setOf("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "rbash", "busybox-sh")
	interpreters = setOf("python", "python2", "python3", "perl", "ruby", "node", "nodejs", "deno", "bun", "php", "lua",
		"luajit", "tclsh", "wish", "pwsh", "powershell", "osascript", "Rscript", "julia", "irb", "jshell", "groovy", "scala")
	codeFlags = setOf("-c", "-e", "-E", "-r", "-p", "--eval", "--command", "--exec", "-Command", "-EncodedCommand")
	// wrappers run the command that follows their options.
	wrappers = setOf("sudo", "doas", "env", "nice", "nohup", "time", "timeout", "stdbuf", "ionice", "chrt", "taskset",
		"command", "builtin", "exec", "xargs", "setsid", "unbuffer", "strace", "ltrace", "watch", "flock", "chroot",
		"runuser", "pkexec", "caffeinate", "script", "proxychains", "torsocks", "firejail", "systemd-run")
	// withValue are wrapper options that take a separate value.
	withValue = setOf("-n", "-u", "-g", "-c", "-C", "-s", "-k", "-p", "-t", "-I", "-L", "-P", "-d", "-E", "-o", "-i", "-e", "-w",
		"--signal", "--kill-after", "--user", "--group", "--chdir", "--unset")
	// subcommandPrograms are keyed by program and first word.
	subcommandPrograms = setOf("git", "npm", "pnpm", "yarn", "bun", "go", "cargo", "docker", "podman", "kubectl", "make",
		"pip", "pip3", "uv", "poetry", "apt", "apt-get", "brew", "dnf", "yum", "pacman", "systemctl", "gh", "npx", "dotnet",
		"mvn", "gradle", "helm", "terraform", "rustup", "conda", "composer", "bundle", "rake", "rails", "mix", "deno", "node",
		"python", "python3", "just", "task", "hugo", "zig", "swift", "flutter", "dart", "jj", "hg", "svn", "snap", "flatpak")
)

func setOf(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// AnalyzeShell parses a POSIX/bash command line with a real shell parser
// and lists what it would run.
func AnalyzeShell(command string) ShellInfo {
	a := &analyzer{scope: map[string]bool{}}
	a.script(command, 0)
	info := ShellInfo{Commands: a.cmds, Dynamic: a.dynamic}
	for s := range a.scope {
		info.Scope = append(info.Scope, s)
	}
	sort.Strings(info.Scope)
	return info
}

type analyzer struct {
	cmds    []SimpleCommand
	dynamic []string
	scope   map[string]bool
}

func (a *analyzer) why(reason string) {
	for _, r := range a.dynamic {
		if r == reason {
			return
		}
	}
	a.dynamic = append(a.dynamic, reason)
}

func (a *analyzer) script(src string, depth int) {
	if depth > maxShellDepth {
		a.why("it nests shells too deeply to check")
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		a.why("it is not a command line the checker can parse")
		return
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
			// declare/local/export with $(…) are caught above.
		case *syntax.Stmt:
			if n.Cmd != nil {
				a.stdinOf(n)
			}
		}
		return true
	})
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

// call records one simple command (and what a wrapper around it runs).
func (a *analyzer) call(c *syntax.CallExpr, depth int) {
	if len(c.Args) == 0 {
		return // only assignments
	}
	prog, lit := word(c.Args[0])
	if !lit {
		a.why("the program it runs (" + prog + ") is computed at run time")
	}
	a.run(prog, words(c.Args[1:]), depth, 0)
}

// run records prog with args and looks through wrappers and shells.
func (a *analyzer) run(prog string, args []string, depth, hops int) {
	a.cmds = append(a.cmds, SimpleCommand{Program: prog, Args: args})
	base := path.Base(prog)
	if hops > 8 {
		return
	}
	key := base
	if subcommandPrograms[base] {
		for _, x := range args {
			if !strings.HasPrefix(x, "-") {
				key += " " + x
				break
			}
		}
	}
	a.scope[key] = true
	switch {
	case base == "eval":
		a.why("it runs text as code with eval")
		return
	case base == "busybox" && len(args) > 0:
		a.run(args[0], args[1:], depth, hops+1)
		return
	case base == "find":
		for i := 0; i < len(args); i++ {
			if args[i] == "-exec" || args[i] == "-execdir" || args[i] == "-ok" || args[i] == "-okdir" {
				j := i + 1
				for j < len(args) && args[j] != ";" && args[j] != "+" {
					j++
				}
				if j > i+1 {
					a.run(args[i+1], args[i+2:j], depth, hops+1)
				}
				i = j
			}
		}
		return
	case wrappers[base]:
		if inner, rest, ok := unwrap(base, args); ok {
			a.run(inner, rest, depth, hops+1)
		}
		return
	case shells[base]:
		a.shell(base, args, depth)
		return
	}
	if runsStdin(base, args) || interpreterCode(base, args) {
		a.why(base + " runs code given on its command line or piped into it")
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
// (python -c, perl -e or -ne, node -e, ruby -e, php -r, pwsh -Command).
func interpreterCode(base string, args []string) bool {
	if !isInterpreter(base) {
		return false
	}
	perl := strings.HasPrefix(base, "perl")
	for _, x := range args {
		if codeFlags[x] || (perl && strings.HasPrefix(x, "-") && !strings.HasPrefix(x, "--") && strings.ContainsAny(x, "eE")) {
			return true
		}
		if !strings.HasPrefix(x, "-") {
			return false
		}
	}
	return false
}

func isInterpreter(base string) bool {
	if interpreters[base] {
		return true
	}
	// python3.12, perl5.36, php8.2, lua5.4
	for _, p := range []string{"python", "perl", "php", "lua", "ruby", "node"} {
		if strings.HasPrefix(base, p) && strings.Trim(base[len(p):], "0123456789.") == "" {
			return true
		}
	}
	return false
}

// unwrap finds the command a wrapper runs: the first argument that is not
// one of its options (or their values) or a NAME=value of env.
func unwrap(base string, args []string) (string, []string, bool) {
	i := 0
	for i < len(args) {
		x := args[i]
		switch {
		case x == "--":
			i++
			if i < len(args) {
				return args[i], args[i+1:], true
			}
			return "", nil, false
		case strings.HasPrefix(x, "-") && len(x) > 1:
			if withValue[x] && base != "nohup" && base != "time" {
				i++
			}
			i++
		case base == "env" && strings.Contains(x, "="):
			i++
		case base == "timeout" && i == firstPositional(args) && looksDuration(x):
			i++
		case (base == "flock" || base == "chroot" || base == "taskset" || base == "chrt") && i == firstPositional(args):
			i++ // the lock file, new root, CPU mask or priority
		default:
			return x, args[i+1:], true
		}
	}
	return "", nil, false
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
		var sb strings.Builder
		if err := syntax.NewPrinter().Print(&sb, p.(syntax.Node)); err != nil {
			sb.WriteString("$?")
		}
		b.WriteString(sb.String())
		return false
	}
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
