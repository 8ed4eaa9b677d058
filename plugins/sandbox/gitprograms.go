package sandbox

import (
	"path/filepath"
	"slices"
	"strings"
)

// runsProgram says whether git runs e's value as a program or shell
// command: a work-tree script such a setting names (`filter.strip.clean
// = ./tools/strip.sh`, a relative core.fsmonitor) is a file a command
// could rewrite for the person's next git add or status to run (a39).
// Keys are in lower case, as parseGitConfig gives them.
func runsProgram(e gitEntry) bool {
	sub := e.Subsection != ""
	switch e.Section {
	case "core":
		return !sub && (e.Key == "fsmonitor" || e.Key == "editor" || e.Key == "pager" || e.Key == "sshcommand" ||
			e.Key == "askpass" || e.Key == "gitproxy" || e.Key == "alternaterefscommand")
	case "sequence":
		return e.Key == "editor"
	case "pager", "alias":
		return true
	case "diff":
		return !sub && e.Key == "external" || sub && (e.Key == "command" || e.Key == "textconv")
	case "merge":
		return sub && e.Key == "driver"
	case "filter":
		return sub && (e.Key == "clean" || e.Key == "smudge" || e.Key == "process")
	case "credential":
		return e.Key == "helper"
	case "gpg":
		return e.Key == "program"
	case "interactive":
		return e.Key == "difffilter"
	case "mergetool", "difftool", "browser", "man":
		return sub && (e.Key == "cmd" || e.Key == "path")
	case "sendemail":
		return e.Key == "tocmd" || e.Key == "cccmd" || e.Key == "smtpserver"
	case "remote":
		return sub && (e.Key == "uploadpack" || e.Key == "receivepack")
	case "uploadpack":
		return e.Key == "packobjectshook"
	case "trailer":
		return sub && (e.Key == "command" || e.Key == "cmd")
	}
	return false
}

// settingPrograms are the paths setting e (runsProgram) gives: the words
// of its value that may name a file (programWords), ~ expanded (home).
// An alias without "!" is git's own arguments: a word without a slash
// there runs nothing, and none is a program.
func settingPrograms(e gitEntry, home string) []settingProgram {
	gitArgs := e.Section == "alias" && !strings.HasPrefix(strings.TrimSpace(e.Value), "!")
	var out []settingProgram
	for _, w := range programWords(e.Value) {
		if gitArgs && !strings.Contains(w.path, "/") && !strings.HasPrefix(w.path, "~") {
			continue
		}
		if p, ok := expandGitPath(w.path, home); ok && gitCanOpen(p) {
			out = append(out, settingProgram{path: p, first: w.first && !gitArgs})
		}
	}
	return out
}

// programWord is a word of a setting's value that may name a file.
type programWord struct {
	path string
	// first: the program a simple command of the value runs, with a
	// slash (or ~), in a folder the value's cds on the way say: made
	// empty when missing (a bare command word is looked up in PATH).
	first bool
}

// maxShellDepth bounds the command lines taken inside others (sh -c
// "…", env -S "…"), each gone through again.
const maxShellDepth = 4

// programWords are the words of a program setting's value that may name
// a file, as the shell splits them (quotes and backslashes removed,
// operators separating): git runs the value through the shell when it
// holds shell syntax, so any word may be a script (`sh strip.sh`,
// `"./my tools/x"`). A word after `cd DIR` in the value is taken inside
// DIR, as the shell runs it (a `( … )` group's cd ends with it), and so
// are the words after `env -C DIR`. Each simple command's program is its
// first word past reserved words, assignments and the prefixes that run
// the rest (env, exec, command, nice, nohup, time, timeout, setsid,
// stdbuf, ionice, busybox, with their options): `exec ./x`, `LC_ALL=C
// ./x` run ./x (a42). The command line of `sh -c "…"` (bash, dash, zsh,
// ksh…) and the words of `env -S "…"` are taken as the shell and env
// take them, to maxShellDepth. A script an interpreter finds from its
// argument is named too: node's X.js, X.mjs, X.cjs, X.node, X/index.js
// and X/package.json (and TypeScript's for bun, tsx, ts-node), python's
// X/__main__.py, and for `python -m a.b` a/b.py, a/b/__main__.py and the
// packages' __init__.py (a42). Left out: a bare command word (the shell
// looks it up in PATH, not the work tree), cd's own arguments, options,
// words with expansions ($VAR, `…`) or unquoted globs, URLs. A "!"
// before an alias or credential helper is dropped. A word without a
// slash is kept too: only an existing file of that name counts
// (programMounts).
func programWords(value string) []programWord {
	var w wordsParser
	w.line(strings.TrimPrefix(strings.TrimSpace(value), "!"), "", true, 0)
	return w.out
}

// wordsParser gathers a value's words (programWords).
type wordsParser struct {
	out []programWord
}

// cmdWord is a word of a simple command; redirect: a redirection's
// file, none of the command's words.
type cmdWord struct {
	shellToken
	redirect bool
}

// line takes the words of command line s run in folder dir, relative to
// the work tree's top ("" for the top); known: dir is where the shell
// runs them (no cd on the way it could not follow).
func (w *wordsParser) line(s, dir string, known bool, depth int) {
	type group struct {
		dir   string
		known bool
	}
	var groups []group
	var cmd []cmdWord
	redirect := false
	end := func() {
		if len(cmd) > 0 {
			dir, known = w.command(cmd, dir, known, depth)
		}
		cmd = cmd[:0]
		redirect = false
	}
	for _, t := range shellTokens(s) {
		if t.op {
			switch t.text {
			case "<", ">":
				redirect = true
			case "(":
				end()
				groups = append(groups, group{dir, known})
			case ")":
				end()
				if n := len(groups); n > 0 {
					dir, known, groups = groups[n-1].dir, groups[n-1].known, groups[:n-1]
				}
			default:
				end()
			}
			continue
		}
		cmd = append(cmd, cmdWord{t, redirect})
		redirect = false
	}
	end()
}

// prefix is a command that runs the rest of its words as a command:
// value are its short options that take a value (the rest of the word,
// or the next word), long its long ones (the next word when no "="),
// operands the words past its options before the command (timeout's
// duration).
type prefix struct {
	value    string
	long     []string
	operands int
}

var prefixes = map[string]prefix{
	"env":     {value: "uCS", long: []string{"--unset", "--chdir", "--split-string"}},
	"exec":    {value: "a"},
	"command": {},
	"nice":    {value: "n", long: []string{"--adjustment"}},
	"nohup":   {},
	"time":    {value: "fo", long: []string{"--format", "--output"}},
	"timeout": {value: "sk", long: []string{"--signal", "--kill-after"}, operands: 1},
	"setsid":  {},
	"stdbuf":  {value: "ioe", long: []string{"--input", "--output", "--error"}},
	"ionice":  {value: "cn", long: []string{"--class", "--classdata"}},
	"busybox": {},
}

// command takes the words of one simple command run in folder dir
// (line), and gives the folder the commands after it run in: one a cd
// in it goes to.
func (w *wordsParser) command(cmd []cmdWord, dir string, known bool, depth int) (string, bool) {
	// pending are words an env -S gave, before cmd's.
	var pending []shellToken
	i := 0
	next := func() (shellToken, bool) {
		if len(pending) > 0 {
			t := pending[0]
			pending = pending[1:]
			return t, true
		}
		for i < len(cmd) {
			c := cmd[i]
			i++
			if c.redirect {
				// Opened by the shell, in its folder.
				w.add(c.shellToken, dir, false)
				continue
			}
			return c.shellToken, true
		}
		return shellToken{}, false
	}
	// run is the folder the program runs in: dir, or where env -C goes.
	run, runKnown := dir, known
	chdir := func(t shellToken) {
		switch {
		case !t.plain || t.text == "":
			runKnown = false
		case filepath.IsAbs(t.text) || strings.HasPrefix(t.text, "~"):
			run = t.text
		default:
			run = filepath.Join(run, t.text)
		}
	}
	splits := depth
	split := func(t shellToken) {
		if splits++; splits > maxShellDepth {
			return
		}
		var words []shellToken
		for _, s := range shellTokens(t.text) {
			if !s.op {
				s.plain = s.plain && t.plain
				words = append(words, s)
			}
		}
		pending = append(words, pending...)
	}
	var prog shellToken
	for {
		t, ok := next()
		if !ok {
			return dir, known
		}
		if t.plain && (shellReserved(t.text) || isAssignment(t.text)) {
			continue
		}
		// A prefix is looked up in PATH or named from /; a relative
		// name with a slash is a work-tree file, the program.
		pre, isPrefix := prefixes[filepath.Base(t.text)]
		if !t.plain || !isPrefix || strings.Contains(t.text, "/") && !filepath.IsAbs(t.text) {
			prog = t
			break
		}
		// The prefix's options, then its operands.
		for {
			o, ok := next()
			if !ok {
				return dir, known
			}
			if !strings.HasPrefix(o.text, "-") || o.text == "--" {
				if o.text != "--" {
					pending = append([]shellToken{o}, pending...)
				}
				break
			}
			if name, val, ok := strings.Cut(o.text, "="); ok && strings.HasPrefix(o.text, "--") {
				v := shellToken{text: val, plain: o.plain}
				switch name {
				case "--chdir":
					chdir(v)
				case "--split-string":
					split(v)
				}
				continue
			}
			if strings.HasPrefix(o.text, "--") {
				if slices.Contains(pre.long, o.text) {
					v, _ := next()
					switch o.text {
					case "--chdir":
						chdir(v)
					case "--split-string":
						split(v)
					}
				}
				continue
			}
			for j := 1; j < len(o.text); j++ {
				if strings.IndexByte(pre.value, o.text[j]) < 0 {
					continue
				}
				v := shellToken{text: o.text[j+1:], plain: o.plain}
				if v.text == "" {
					v, _ = next()
				}
				switch o.text[j] {
				case 'C':
					chdir(v)
				case 'S':
					split(v)
				}
				break
			}
		}
		for range pre.operands {
			next()
		}
	}
	if prog.plain && (prog.text == "cd" || prog.text == "pushd") {
		// `cd DIR` moves the commands after it; any other cd (`cd`, `cd
		// -`, `cd $X`) leaves them where no one can say.
		var args []shellToken
		for t, ok := next(); ok; t, ok = next() {
			args = append(args, t)
		}
		if len(args) == 1 && args[0].plain && args[0].text != "-" && args[0].text != "" {
			if filepath.IsAbs(args[0].text) || strings.HasPrefix(args[0].text, "~") {
				return args[0].text, known
			}
			return filepath.Join(dir, args[0].text), known
		}
		return dir, false
	}
	if strings.Contains(prog.text, "/") || strings.HasPrefix(prog.text, "~") {
		w.add(prog, run, runKnown)
	}
	name := ""
	if prog.plain {
		name = filepath.Base(prog.text)
	}
	rest := func() {
		for t, ok := next(); ok; t, ok = next() {
			w.add(t, run, false)
		}
	}
	switch {
	case isShell(name):
		// Options, then the command line with -c, else the script.
		c := false
		for {
			t, ok := next()
			if !ok {
				return dir, known
			}
			if t.text == "--" || t.text == "-" {
				break
			}
			if !strings.HasPrefix(t.text, "-") && !strings.HasPrefix(t.text, "+") {
				pending = append([]shellToken{t}, pending...)
				break
			}
			if t.text == "--rcfile" || t.text == "--init-file" {
				next()
				continue
			}
			if !strings.HasPrefix(t.text, "--") {
				c = c || strings.Contains(t.text, "c")
				if strings.ContainsAny(t.text[1:], "oO") {
					next()
				}
			}
		}
		if t, ok := next(); ok {
			if !c {
				w.add(t, run, false)
			} else if depth < maxShellDepth {
				w.line(t.text, run, runKnown && t.plain, depth+1)
			}
		}
		rest()
	case isNode(name) != nil:
		exts := isNode(name)
		for t, ok := next(); ok; t, ok = next() {
			switch {
			case t.text == "-e" || t.text == "-p" || t.text == "--eval" || t.text == "--print":
				next() // code, no file
			case strings.HasPrefix(t.text, "--require=") || strings.HasPrefix(t.text, "--import=") ||
				strings.HasPrefix(t.text, "--loader=") || strings.HasPrefix(t.text, "--experimental-loader="):
				_, v, _ := strings.Cut(t.text, "=")
				w.script(shellToken{text: v, plain: t.plain}, run, nodeFiles(v, exts))
			default:
				w.script(t, run, nodeFiles(t.text, exts))
			}
		}
	case isPython(name):
		for {
			t, ok := next()
			if !ok {
				return dir, known
			}
			if t.text == "--" || !strings.HasPrefix(t.text, "-") || t.text == "-" {
				if t.text != "--" {
					pending = append([]shellToken{t}, pending...)
				}
				if s, ok := next(); ok {
					var more []string
					if filepath.Ext(s.text) == "" {
						more = []string{filepath.Join(s.text, "__main__.py")}
					}
					w.script(s, run, more)
				}
				break
			}
			if strings.HasPrefix(t.text, "--") {
				continue
			}
			// A cluster of flags; -m, -c, -W and -X take the rest of it
			// or the next word.
			at := strings.IndexAny(t.text[1:], "mcWX")
			if at < 0 {
				continue
			}
			v := shellToken{text: t.text[at+2:], plain: t.plain}
			if v.text == "" {
				v, _ = next()
			}
			switch t.text[at+1] {
			case 'm':
				if v.plain {
					for _, f := range pythonModuleFiles(v.text) {
						w.add(shellToken{text: f, plain: true}, run, false)
					}
				}
			case 'c':
			default:
				continue
			}
			break
		}
		rest()
	default:
		rest()
	}
	return dir, known
}

// add keeps word t, taken in folder dir, when it may name a file; first:
// it is a program in a folder known (programWord).
func (w *wordsParser) add(t shellToken, dir string, first bool) {
	if !t.plain || t.text == "" || strings.HasPrefix(t.text, "-") || strings.Contains(t.text, "://") {
		return
	}
	p := t.text
	if dir != "" && !filepath.IsAbs(p) && !strings.HasPrefix(p, "~") {
		p = filepath.Join(dir, p)
	}
	// A name ending in a folder ("./", "..") is no program to make.
	base := filepath.Base(t.text)
	first = first && (strings.Contains(t.text, "/") || strings.HasPrefix(t.text, "~")) &&
		!strings.HasSuffix(t.text, "/") && base != "." && base != ".."
	w.out = append(w.out, programWord{path: p, first: first})
}

// script keeps word t, an interpreter's script taken in folder dir, and
// the files more the interpreter runs for it, named beside t.
func (w *wordsParser) script(t shellToken, dir string, more []string) {
	w.add(t, dir, false)
	if !t.plain || t.text == "" || strings.HasPrefix(t.text, "-") || strings.Contains(t.text, "://") {
		return
	}
	for _, m := range more {
		w.add(shellToken{text: m, plain: true}, dir, false)
	}
}

// isShell: a program named name runs `-c LINE` as a shell command line.
func isShell(name string) bool {
	switch name {
	case "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh":
		return true
	}
	return false
}

var (
	nodeExts = []string{".js", ".mjs", ".cjs", ".node"}
	tsExts   = []string{".js", ".mjs", ".cjs", ".node", ".ts", ".mts", ".cts", ".tsx", ".jsx"}
)

// isNode are the extensions a program named name adds to a script's name
// it does not find (nil: none, no node-like program).
func isNode(name string) []string {
	switch name {
	case "node", "nodejs":
		return nodeExts
	case "bun", "tsx", "ts-node", "ts-node-esm":
		return tsExts
	}
	return nil
}

// nodeFiles are the files node (extensions exts) runs for script word s
// besides s itself: s with each extension when s has none of them, a
// folder's index and its package.json (whose main names another file).
func nodeFiles(s string, exts []string) []string {
	if slices.Contains(exts, filepath.Ext(s)) || s == "" {
		return nil
	}
	var out []string
	for _, e := range exts {
		out = append(out, s+e)
	}
	return append(out, filepath.Join(s, "index.js"), filepath.Join(s, "index.node"), filepath.Join(s, "package.json"))
}

// isPython: a program named name is python (python3, python3.12, pypy3).
func isPython(name string) bool {
	rest, ok := strings.CutPrefix(name, "python")
	if !ok {
		rest, ok = strings.CutPrefix(name, "pypy")
	}
	return ok && strings.Trim(rest, "0123456789.") == ""
}

// pythonModuleFiles are the files `python -m mod` runs from the folder it
// starts in: each package's __init__.py on the way, and mod's .py, or
// its package's __init__.py and __main__.py.
func pythonModuleFiles(mod string) []string {
	parts := strings.Split(mod, ".")
	for _, p := range parts {
		if p == "" || strings.Trim(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != "" {
			return nil
		}
	}
	var out []string
	for i := 1; i < len(parts); i++ {
		out = append(out, filepath.Join(filepath.Join(parts[:i]...), "__init__.py"))
	}
	m := filepath.Join(parts...)
	return append(out, m+".py", filepath.Join(m, "__init__.py"), filepath.Join(m, "__main__.py"))
}

// shellReserved: the shell still looks for a command word after w.
func shellReserved(w string) bool {
	switch w {
	case "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "case", "esac",
		"{", "}", "!":
		return true
	}
	return false
}

// isAssignment: w is NAME=value, which the shell takes as a variable
// before a command word.
func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for _, r := range name {
		if r != '_' && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// shellToken is a word of a shell command line, its quotes removed, or
// an operator.
type shellToken struct {
	text string
	// op: an operator (; | & ( ) < > or a newline), one character each.
	op bool
	// plain: the word names itself: no expansion ($, `) and no unquoted
	// glob (* ? [).
	plain bool
}

// shellTokens splits s as a POSIX shell does before expanding: single
// quotes keep all, double quotes all but $ ` \ (which escapes $ ` " \
// and a newline there), a backslash outside quotes the next character,
// and a # starting a word comments out the line. An unclosed quote runs
// to the end.
func shellTokens(s string) []shellToken {
	var out []shellToken
	var b strings.Builder
	inWord, plain := false, true
	flush := func() {
		if inWord {
			out = append(out, shellToken{text: b.String(), plain: plain})
		}
		b.Reset()
		inWord, plain = false, true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			flush()
		case c == '\n' || strings.IndexByte(";|&()<>", c) >= 0:
			flush()
			out = append(out, shellToken{text: string(c), op: true})
		case c == '#' && !inWord:
			for i < len(s) && s[i] != '\n' {
				i++
			}
			i-- // the newline, if any, is an operator
		case c == '\\':
			inWord = true
			if i+1 < len(s) {
				i++
				if s[i] == '\n' {
					// A line continuation, no character.
					inWord = b.Len() > 0
					continue
				}
				b.WriteByte(s[i])
			}
		case c == '\'':
			inWord = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				j = len(s) - i - 1
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			inWord = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				switch {
				case s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0:
					i++
					if s[i] != '\n' {
						b.WriteByte(s[i])
					}
				case s[i] == '$' || s[i] == '`':
					plain = false
					b.WriteByte(s[i])
				default:
					b.WriteByte(s[i])
				}
			}
		default:
			inWord = true
			if strings.IndexByte("$`*?[", c) >= 0 {
				plain = false
			}
			b.WriteByte(c)
		}
	}
	flush()
	return out
}
