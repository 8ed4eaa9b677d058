package cerebellum

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text a capability contributes to the model's prompt (its name and
// description, its tools' descriptions, what an MCP server reports) is
// someone else's words inside Wrasse's prompt. Rendered with PromptLine it
// is one line that cannot open or close the prompt's own sections
// (<capabilities>, <environment>, <skill>…) nor forge the markers Wrasse
// writes ([loaded], [needs …], [redacted:…]): angle brackets become ‹ ›
// and square brackets ( ). A skill's body, which is Markdown meant to keep
// its lines, goes through PromptBlock instead.

// Lengths capability text is cut to where the prompt shows it.
const (
	// IndexDescriptionLimit is how many characters of a description an
	// index line shows.
	IndexDescriptionLimit = 90
	// ToolDescriptionLimit caps a tool's description in a request's tools
	// (and its parameters' descriptions): an MCP server's ten-thousand
	// character descriptions would otherwise fill the context window.
	ToolDescriptionLimit = 1024
	// NameLimit caps a name shown in the prompt (capability and tool names
	// are validated shorter than this; a server's names are not).
	NameLimit = 64
)

// PromptTags are the prompt's own sections: contributed text may not open
// or close them.
var promptTags = []string{"capabilities", "environment", "skill", "skill_resources", "system"}

// PromptTags returns the section tags the prompt uses (without brackets).
func PromptTags() []string { return append([]string(nil), promptTags...) }

// PromptLine renders contributed text as one line of at most limit
// characters: invalid UTF-8 becomes U+FFFD, line breaks, tabs and other
// control characters become spaces, invisible format characters (bidi
// overrides, zero-width spaces) are dropped, runs of spaces collapse,
// < > become ‹ › and [ ] become ( ); a cut ends with an ellipsis.
func PromptLine(s string, limit int) string {
	if limit <= 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(min(len(s), limit*4))
	n := 0 // runes written
	space := false
	cut := false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r == utf8.RuneError && size <= 1 {
			r = unicode.ReplacementChar
		}
		switch {
		case unicode.IsSpace(r) || unicode.IsControl(r) || r == '\u2028' || r == '\u2029':
			space = n > 0
			continue
		case unicode.Is(unicode.Cf, r):
			continue
		}
		r = escapeRune(r)
		if space {
			if n+1 >= limit {
				cut = true
				break
			}
			b.WriteByte(' ')
			n++
			space = false
		}
		if n >= limit {
			cut = true
			break
		}
		b.WriteRune(r)
		n++
	}
	out := b.String()
	if !cut {
		return out
	}
	// Room for the ellipsis: drop the last character (and any trailing
	// punctuation or space the cut leaves).
	_, size := utf8.DecodeLastRuneInString(out)
	out = strings.TrimRight(out[:len(out)-size], " ,;:.-")
	return out + "…"
}

// escapeRune maps the characters that make the prompt's structure to
// look-alikes that do not.
func escapeRune(r rune) rune {
	switch r {
	case '<':
		return '‹'
	case '>':
		return '›'
	case '[':
		return '('
	case ']':
		return ')'
	}
	return r
}

// PromptBlock renders contributed text that keeps its lines (a skill's
// Markdown body) so that it cannot open or close the prompt's sections: a
// '<' that begins one of the prompt's tags (optionally closing, in any
// case) or a chat template's special token ("<|im_start|>") becomes '‹'.
// Everything else stays as written, code and HTML included. Invalid UTF-8
// becomes U+FFFD.
func PromptBlock(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '<' && opensTag(s[i+1:]) {
			b.WriteString("‹")
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// opensTag reports whether rest (the text after a '<') makes a tag of the
// prompt's own, or a special token.
func opensTag(rest string) bool {
	if strings.HasPrefix(rest, "|") {
		return true
	}
	rest = strings.TrimLeft(rest, " \t\r\n")
	rest = strings.TrimPrefix(rest, "/")
	rest = strings.TrimLeft(rest, " \t\r\n")
	for _, t := range promptTags {
		if len(rest) < len(t) || !strings.EqualFold(rest[:len(t)], t) {
			continue
		}
		// A longer name (<skills>, <system-notes>) is not the tag, unless it
		// is the tag of another section (checked in its own turn).
		if len(rest) == len(t) || !isTagNameByte(rest[len(t)]) {
			return true
		}
	}
	return false
}

func isTagNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == ':' || c == '.'
}

// FromServer marks text an MCP server reported as the server's, so the
// model reads it as that server's words, not Wrasse's: the server's name,
// then the text as PromptLine renders it within limit characters.
func FromServer(server, text string, limit int) string {
	prefix := "From MCP server " + PromptLine(server, NameLimit) + ": "
	return prefix + PromptLine(text, max(limit-utf8.RuneCountInString(prefix), 1))
}

// OneLine collapses whitespace and cuts s to limit characters, ending a cut
// with an ellipsis. It is for text Wrasse shows to people (a terminal, a
// label); text for the model goes through PromptLine.
func OneLine(s string, limit int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	r := []rune(s)
	return strings.TrimRight(string(r[:limit-1]), " ,;:.-") + "…"
}
