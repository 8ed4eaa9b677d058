package gate

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Allowed command patterns are the rules a person writes on purpose to
// let shell commands run without asking (the shell's allowedCommands
// setting), such as `git status`, `npm test` or `go test ./...`.
//
// A pattern is a command written as words: a program and the first
// arguments, compared word for word (after the shell's quote removal)
// with the start of a simple command. `git status` matches `git status`
// and `git status --short`, not `git stash` or `/tmp/x/git status`; `go
// test ./...` matches `go test ./... -run X`, not `go test ./cmd`. A
// command line matches when every simple command in it matches some
// pattern (`git status && npm test` needs both), and only when the line
// is plain: no variable assignments (X=1 cmd, export X=1, X=1;) and no
// redirections but to /dev/null or another descriptor (2>&1).
//
// A pattern never matches what always asks: shells and interpreters
// given code, programs that run what their options say (env, xargs,
// find -exec, git -c …), assignments that change what runs, recursive
// deletes, credential stores, paths outside the granted folders, a line
// decided only at run time, a command with a word known only when it
// runs (a variable the line does not set, a for loop's variable). Nor does it silence a confirm pattern (sudo,
// git push): those still ask. And a command that reaches a network host
// the conversation has not used still asks about the host.

// MaxCommandRules bounds how many patterns are read; past it the rest
// are ignored.
const MaxCommandRules = 200

// CommandRule is one allowed command pattern, parsed.
type CommandRule struct {
	// Text is the pattern as the person wrote it.
	Text string
	// Words are its words after quote removal: the program first.
	Words []string
}

// ParseCommandRule reads one allowed command pattern, or says why it
// cannot be one.
func ParseCommandRule(text string) (CommandRule, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return CommandRule{}, fmt.Errorf("%w: it is empty", ErrBadCommandRule)
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	if err != nil {
		return CommandRule{}, fmt.Errorf("%w: %q is not a command the shell can read: %v", ErrBadCommandRule, text, err)
	}
	if len(f.Stmts) != 1 {
		return CommandRule{}, fmt.Errorf("%w: %q holds more than one command; write one pattern per command", ErrBadCommandRule, text)
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Background || st.Negated || st.Coprocess || len(st.Redirs) > 0 || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return CommandRule{}, fmt.Errorf("%w: %q must be a program and its first words, without pipes, lists, redirections or variable assignments",
			ErrBadCommandRule, text)
	}
	var words []string
	for _, w := range call.Args {
		s, lit := word(w)
		if !lit {
			return CommandRule{}, fmt.Errorf("%w: %q holds %s, which the shell expands; write the words literally", ErrBadCommandRule, text, s)
		}
		words = append(words, s)
	}
	if base := path.Base(words[0]); wrappers[base] || shells[base] || base == "eval" || base == "source" || base == "." {
		return CommandRule{}, fmt.Errorf("%w: %q never matches: %s runs whatever its arguments or input say", ErrBadCommandRule, text, base)
	}
	info := AnalyzeShell(text)
	if len(info.Dynamic) > 0 {
		return CommandRule{}, fmt.Errorf("%w: %q never matches: %s", ErrBadCommandRule, text, info.Dynamic[0])
	}
	if len(info.Always) > 0 {
		return CommandRule{}, fmt.Errorf("%w: %q never matches: %s, so it asks every time", ErrBadCommandRule, text, info.Always[0])
	}
	return CommandRule{Text: text, Words: words}, nil
}

// matches reports whether the rule matches a simple command.
func (r CommandRule) matches(c SimpleCommand) bool {
	if len(r.Words) == 0 || c.Program != r.Words[0] || len(c.Args) < len(r.Words)-1 || len(c.Assigns) > 0 {
		return false
	}
	for i, w := range r.Words[1:] {
		if c.Args[i] != w {
			return false
		}
	}
	return true
}

// MatchCommandRules reports whether the patterns (as the person wrote
// them; ones that do not parse are skipped) cover a command line, and
// which did. The caller checks the rest of the verdict first: a line that
// always asks or matches a confirm pattern is never covered.
func MatchCommandRules(patterns []string, info ShellInfo) (string, bool) {
	if len(patterns) == 0 || !info.Plain || len(info.Dynamic) > 0 || len(info.Always) > 0 || len(info.Commands) == 0 {
		return "", false
	}
	var rules []CommandRule
	for i, p := range patterns {
		if i >= MaxCommandRules {
			break
		}
		if r, err := ParseCommandRule(p); err == nil {
			rules = append(rules, r)
		}
	}
	var used []string
	for _, c := range info.Commands {
		if c.Via != "" || c.Computed {
			return "", false
		}
		hit := ""
		for _, r := range rules {
			if r.matches(c) {
				hit = r.Text
				break
			}
		}
		if hit == "" {
			return "", false
		}
		if !slices.Contains(used, hit) {
			used = append(used, hit)
		}
	}
	return strings.Join(used, ", "), true
}
