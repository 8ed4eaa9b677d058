package gate

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Visible is s as a person must see it before approving it: every
// character that shows as something else or as nothing becomes an
// escape. Control characters other than tab and line break (a carriage
// return that sends the cursor back over what came before it, NUL,
// escape sequences) become \r, \x00, \x1b; line and paragraph
// separators, invisible format characters (bidi overrides that reorder
// what follows, zero-width spaces) and C1 controls become \u2028,
// \u202e, \u0085; bytes that are not UTF-8 become \xNN. Tabs and line
// breaks stay, so a command keeps its lines.
func Visible(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			fmt.Fprintf(&b, `\x%02x`, s[i])
			i++
			continue
		}
		i += size
		if esc := escapeOf(r); esc != "" {
			b.WriteString(esc)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// VisibleLine is Visible on one line: tabs and line breaks become \t and
// \n too.
func VisibleLine(s string) string {
	s = Visible(s)
	if !strings.ContainsAny(s, "\t\n") {
		return s
	}
	return strings.NewReplacer("\t", `\t`, "\n", `\n`).Replace(s)
}

// escapeOf is the escape Visible writes for r, or "" when r shows as
// itself.
func escapeOf(r rune) string {
	switch {
	case r == '\t' || r == '\n':
		return ""
	case r == '\r':
		return `\r`
	case r < 0x20 || r == 0x7f:
		return fmt.Sprintf(`\x%02x`, r)
	case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029':
		return fmt.Sprintf(`\u%04x`, r)
	}
	return ""
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\t' && c != '\n' || c == 0x7f || c >= utf8.RuneSelf {
			return !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return escapeOf(r) != "" })
		}
	}
	return false
}

// controlChar is the first control character of a command line other
// than tab and line break, as Visible shows it: no shell reads it as the
// checker's parser does (the parser takes \r for a blank, dash and bash
// for part of a word), so the checker cannot read the line.
func controlChar(s string) (string, bool) {
	for _, r := range s {
		if r != '\t' && r != '\n' && unicode.IsControl(r) {
			return escapeOf(r), true
		}
	}
	return "", false
}

// OneLineVisible is VisibleLine cut to limit characters, ending a cut
// with an ellipsis.
func OneLineVisible(s string, limit int) string {
	s = VisibleLine(s)
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	return string([]rune(s)[:max(limit-1, 0)]) + "…"
}
