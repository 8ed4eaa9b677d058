package assistant

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text a program sent (its command line, its name, its folder) is shown to
// the person in the window and in the log, where a newline, a carriage
// return, a terminal escape or a bidirectional override would make it
// look like something else: "wrasse config get x\rwrasse caps list" shows
// as the second command, U+202E writes what follows backwards. These
// functions show every such character as an escape.

// hidden reports whether r does not show as itself: control and format
// characters (bidirectional controls, zero-width ones), separators other
// than the space, unassigned code points.
func hidden(r rune) bool { return !unicode.IsPrint(r) }

// Visible is s with each character that would not show as itself written
// as an escape (\n, \t, \r, \e, \xNN for other bytes and invalid UTF-8,
// \uNNNN or \UNNNNNNNN for the rest). s without such characters comes
// back unchanged.
func Visible(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	writeEscaped(&b, s, false)
	return b.String()
}

// QuoteArg is one argument of a command line as a POSIX shell reads it
// back: as is when it is plain, in single quotes when it holds what a
// shell would read otherwise, and in bash's $'…' with escapes when it
// holds a character that would not show as itself, so that what is shown
// is exactly what runs and nothing in it is hidden.
func QuoteArg(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,@+%", r))
	}) < 0 {
		return s
	}
	if !needsEscape(s) {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	writeEscaped(&b, s, true)
	b.WriteString("'")
	return b.String()
}

// CommandLine is args as a shell reads them back, each through QuoteArg.
func CommandLine(args []string) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = QuoteArg(a)
	}
	return strings.Join(parts, " ")
}

func needsEscape(s string) bool {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return true
			}
		}
		if hidden(r) {
			return true
		}
	}
	return false
}

// writeEscaped writes s with hidden characters escaped; quoted also
// escapes the backslash and the single quote, for $'…'.
func writeEscaped(b *strings.Builder, s string, quoted bool) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(b, `\x%02x`, s[i-1])
		case quoted && (r == '\\' || r == '\''):
			b.WriteByte('\\')
			b.WriteRune(r)
		case !hidden(r):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == 0x1b:
			b.WriteString(`\e`)
		case r < 0x80:
			fmt.Fprintf(b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			fmt.Fprintf(b, `\U%08x`, r)
		}
	}
}
