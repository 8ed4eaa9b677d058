package gate

import (
	"os/user"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// This file reads a word as the shell will see it where that is
// knowable: ~ and ~name, $HOME, $PWD, the line's own variables (also a
// for loop's, which take several values), ${X:-default}, ${X%suffix} and
// the like. What it cannot know it marks unknown, and a path it cannot
// know may be anywhere: it asks every time.

// maxAlts bounds the values one word is followed through; past it the
// word is unknown.
const maxAlts = 16

// expansion is a word as the shell will see it.
type expansion struct {
	// vals are the values it takes: one, or several when a for loop's
	// variable (or a branch the line may or may not take) holds several.
	vals []string
	// glob is true when an unquoted *, ? or [ makes it a pattern the
	// shell matches against file names.
	glob bool
	// unknown is true when part of it is known only when the command
	// runs: a variable the line does not set, $(…), ~name of no user
	// the checker can look up, an escape of $'…'. vals then keep that
	// part's shell spelling.
	unknown bool
}

func known(s string) expansion { return expansion{vals: []string{s}} }

// text is the first value: the word for the danger patterns and the
// command's Expanded words.
func (e expansion) text() string {
	if len(e.vals) == 0 {
		return ""
	}
	return e.vals[0]
}

// add appends each of vs to each value (every combination, capped).
func (e *expansion) add(vs ...string) {
	if len(e.vals) == 0 {
		e.vals = []string{""}
	}
	if len(vs) == 1 {
		for i := range e.vals {
			e.vals[i] += vs[0]
		}
		return
	}
	var out []string
	for _, v := range e.vals {
		for _, x := range vs {
			if len(out) == maxAlts {
				e.unknown = true
				e.vals = out
				return
			}
			out = append(out, v+x)
		}
	}
	e.vals = out
}

// union is e or f: the values of both.
func union(e, f expansion) expansion {
	out := expansion{glob: e.glob || f.glob, unknown: e.unknown || f.unknown}
	seen := map[string]bool{}
	for _, v := range append(append([]string(nil), e.vals...), f.vals...) {
		if seen[v] {
			continue
		}
		if len(out.vals) == maxAlts {
			out.unknown = true
			break
		}
		seen[v] = true
		out.vals = append(out.vals, v)
	}
	return out
}

func (e expansion) equal(f expansion) bool {
	if e.glob != f.glob || e.unknown != f.unknown || len(e.vals) != len(f.vals) {
		return false
	}
	for i := range e.vals {
		if e.vals[i] != f.vals[i] {
			return false
		}
	}
	return true
}

// expand is w as the shell will see it (see expansion).
func (a *analyzer) expand(w *syntax.Word) expansion {
	e := known("")
	for i, p := range w.Parts {
		a.expandPart(&e, p, false, i == 0, i == len(w.Parts)-1)
	}
	return e
}

func (a *analyzer) expandPart(e *expansion, p syntax.WordPart, quoted, first, last bool) {
	switch p := p.(type) {
	case *syntax.Lit:
		v := p.Value
		if !quoted && first && strings.HasPrefix(v, "~") {
			// The tilde prefix runs to the first slash; one that goes on
			// into another part ($x, "…") is not expanded by the shell,
			// and is not knowable here either.
			if !strings.Contains(v, "/") && !last {
				e.unknown = true
			} else if t, ok := a.tilde(v); ok {
				v = t
			} else {
				e.unknown = true
			}
		}
		if !quoted && hasGlob(v) {
			e.glob = true
		}
		e.add(unescape(v, quoted))
	case *syntax.SglQuoted:
		if p.Dollar && strings.Contains(p.Value, `\`) {
			e.unknown = true // bash reads its escapes, sh does not
		}
		e.add(p.Value)
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			a.expandPart(e, q, true, false, false)
		}
	case *syntax.ParamExp:
		if v, ok := a.param(p); ok {
			e.add(v.vals...)
			e.glob = e.glob || v.glob && !quoted
			e.unknown = e.unknown || v.unknown
			return
		}
		e.unknown = true
		e.add(printed(p))
	case *syntax.ExtGlob:
		e.glob, e.unknown = true, true
		e.add(printed(p))
	default:
		e.unknown = true
		e.add(printed(p.(syntax.Node)))
	}
}

// tilde expands a word that starts with ~: ~ and ~/… to the home folder,
// ~name and ~name/… to that user's home folder when the system knows the
// user. ~+ and ~- (bash's working folders, text to sh) and an unknown
// user are not knowable.
func (a *analyzer) tilde(w string) (string, bool) {
	name, rest, _ := strings.Cut(w[1:], "/")
	if strings.Contains(w, "/") {
		rest = "/" + rest
	}
	var home string
	switch {
	case name == "":
		home = a.home
	case validUserName(name):
		if u, err := user.Lookup(name); err == nil && strings.HasPrefix(u.HomeDir, "/") {
			home = strings.TrimSuffix(u.HomeDir, "/")
			if home == "" {
				home = "/"
			}
		}
	}
	if home == "" {
		return w, false
	}
	if home == "/" {
		return "/" + strings.TrimPrefix(rest, "/"), true
	}
	return home + rest, true
}

// validUserName reports a name the shell looks up as a user (~name).
func validUserName(s string) bool {
	if s == "" || len(s) > 64 || s[0] == '-' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

// param is the value of $NAME, ${NAME}, ${NAME:?…}, ${NAME:-default},
// ${NAME%suffix} and the like when the gate can know it: HOME, PWD (the
// working folder, when known), or a variable set earlier on the line;
// an unknown one with a default gives the default, which may be all it
// takes.
func (a *analyzer) param(p *syntax.ParamExp) (expansion, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Names != 0 ||
		p.NestedParam != nil || len(p.Modifiers) > 0 {
		return expansion{}, false
	}
	name := p.Param.Value
	val, ok := a.vars[name]
	switch {
	case ok:
	case name == "HOME" && a.home != "":
		val, ok = known(a.home), true
	case name == "PWD" && len(a.cwds) > 0 && !a.cwdLost:
		val, ok = known(a.cwds[0]), true
		for _, c := range a.cwds[1:] {
			val = union(val, known(c))
		}
	}
	val.vals = append([]string(nil), val.vals...) // the caller appends to them
	if p.Exp == nil {
		return val, ok
	}
	empty := ok && len(val.vals) == 1 && val.vals[0] == "" && !val.unknown
	set := ok && !empty
	switch op := p.Exp.Op; op {
	case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
		return val, ok
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
		if set || ok && (op == syntax.DefaultUnset || op == syntax.AssignUnset) {
			return val, true
		}
		d := known("")
		if p.Exp.Word != nil {
			d = a.expand(p.Exp.Word)
		}
		if !ok && name != "HOME" && name != "PWD" {
			// Unknown: it may be set (to anything) or not. The
			// environment the shell tool gives commands is minimal, so
			// unset is what it usually is; either way it is not known.
			d.unknown = true
		}
		if op == syntax.AssignUnset || op == syntax.AssignUnsetOrNull {
			a.vars[name] = d
		}
		return d, true
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		if !ok || val.unknown {
			return expansion{}, false
		}
		if empty && op == syntax.AlternateUnsetOrNull {
			return known(""), true
		}
		alt := known("")
		if p.Exp.Word != nil {
			alt = a.expand(p.Exp.Word)
		}
		return alt, true
	case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix:
		if !ok || val.unknown || p.Exp.Word == nil {
			return expansion{}, false
		}
		pat, lit := word(p.Exp.Word)
		if !lit || !plainWord(p.Exp.Word) {
			return expansion{}, false
		}
		out := expansion{glob: val.glob}
		for _, v := range val.vals {
			r, ok := removePattern(v, pat, op == syntax.RemSmallSuffix || op == syntax.RemLargeSuffix,
				op == syntax.RemSmallPrefix || op == syntax.RemSmallSuffix)
			if !ok {
				return expansion{}, false
			}
			out.vals = append(out.vals, r)
		}
		return out, true
	}
	return expansion{}, false
}

// plainWord reports a word of unquoted literal text only.
func plainWord(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if _, ok := p.(*syntax.Lit); !ok {
			return false
		}
	}
	return true
}

// removePattern is ${X%pat}, ${X%%pat}, ${X#pat} or ${X##pat} of str.
func removePattern(str, pat string, suffix, shortest bool) (string, bool) {
	var mode pattern.Mode
	if shortest {
		mode |= pattern.Shortest
	}
	expr, err := pattern.Regexp(pat, mode)
	if err != nil {
		return "", false
	}
	switch {
	case suffix && shortest:
		expr = ".*(" + expr + ")$" // the right-most shortest match
	case suffix:
		expr = "(" + expr + ")$"
	default:
		expr = "^(" + expr + ")"
	}
	rx, err := regexp.Compile("(?s)" + expr)
	if err != nil {
		return "", false
	}
	if loc := rx.FindStringSubmatchIndex(str); loc != nil {
		str = str[:loc[2]] + str[loc[3]:]
	}
	return str, true
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
