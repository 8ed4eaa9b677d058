package sandbox

import (
	"path/filepath"
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

// programWord is a word of a setting's value that may name a file.
type programWord struct {
	path string
	// first: the value's first word, with a slash (or ~): the program
	// itself, made when missing (a bare first word is looked up in PATH).
	first bool
}

// programWords are the words of a program setting's value that may name
// a file, as the shell splits them (quotes and backslashes removed,
// operators separating): git runs the value through the shell when it
// holds shell syntax, so any word may be a script (`sh strip.sh`,
// `"./my tools/x"`). A word after `cd DIR` in the value is taken inside
// DIR, as the shell runs it (a `( … )` group's cd ends with it). Left
// out: a bare command word (the shell looks it up in PATH, not the work
// tree), cd's own arguments, options, words with expansions ($VAR, `…`)
// or unquoted globs, URLs. A "!" before an alias or credential helper is
// dropped. A word without a slash is kept too: only an existing file of
// that name counts (programMounts).
func programWords(value string) []programWord {
	value = strings.TrimPrefix(strings.TrimSpace(value), "!")
	var out []programWord
	// dir is where the words are taken, relative to the work tree's top
	// ("" for the top); dirs are those of the groups opened.
	var dir string
	var dirs []string
	// cmd are the words of the simple command so far, without leading
	// assignments and reserved words; redirect: the next word is a
	// redirection's file, not one of them.
	var cmd []string
	redirect, seen := false, false
	end := func() {
		// Simple tracking: `cd DIR` alone as a command moves the words
		// after it; any other cd (`cd`, `cd -`, `cd $X`) leaves them.
		if len(cmd) == 2 && (cmd[0] == "cd" || cmd[0] == "pushd") && cmd[1] != "-" && cmd[1] != "" {
			if filepath.IsAbs(cmd[1]) || strings.HasPrefix(cmd[1], "~") {
				dir = cmd[1]
			} else {
				dir = filepath.Join(dir, cmd[1])
			}
		}
		cmd = cmd[:0]
		redirect = false
	}
	for _, t := range shellTokens(value) {
		if t.op {
			switch t.text {
			case "<", ">":
				redirect = true
			case "(":
				end()
				dirs = append(dirs, dir)
			case ")":
				end()
				if n := len(dirs); n > 0 {
					dir, dirs = dirs[n-1], dirs[:n-1]
				}
			default:
				end()
			}
			continue
		}
		first := !seen
		seen = true
		isRedirect := redirect
		redirect = false
		command := len(cmd) == 0 && !isRedirect
		if command && t.plain && (shellReserved(t.text) || isAssignment(t.text)) {
			continue
		}
		if !isRedirect {
			w := t.text
			if !t.plain {
				w = "" // no folder a cd could be followed to
			}
			cmd = append(cmd, w)
		}
		slash := strings.Contains(t.text, "/") || strings.HasPrefix(t.text, "~")
		if !t.plain || t.text == "" || strings.HasPrefix(t.text, "-") || strings.Contains(t.text, "://") ||
			command && !slash || !command && !isRedirect && (cmd[0] == "cd" || cmd[0] == "pushd") {
			continue
		}
		p := t.text
		if dir != "" && !filepath.IsAbs(p) && !strings.HasPrefix(p, "~") {
			p = filepath.Join(dir, p)
		}
		out = append(out, programWord{path: p, first: first && slash})
	}
	return out
}

// shellReserved: the shell still looks for a command word after w.
func shellReserved(w string) bool {
	switch w {
	case "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "case", "esac",
		"{", "}", "!", "time", "exec", "command", "env":
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
