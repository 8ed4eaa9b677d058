package gate

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
)

// Renderings are the texts a call's patterns are matched against, each
// "tool args": the canonical line (Line), then, when they differ, the same
// line with JSON string escapes decoded (real tabs, newlines and quotes, so
// `\s` sees a tab and `"rm"` reads as written), then that line with quote
// characters and backslashes removed from string values (so shell quoting
// such as `r""m` or `"rm"` cannot split a word a pattern looks for).
// Arguments that are not JSON have only the first.
func Renderings(tool string, args json.RawMessage) []string {
	out, _ := renderings(tool, args)
	return out
}

// renderings are Renderings and the decoded arguments (nil when they are
// not JSON), decoded once for all of them.
func renderings(tool string, args json.RawMessage) ([]string, any) {
	if len(bytes.TrimSpace(args)) == 0 {
		return []string{tool + " {}"}, nil
	}
	v, err := decodeJSON(args)
	if err != nil {
		return []string{tool + " " + string(args)}, nil
	}
	canon, err := encodeCanonical(v)
	if err != nil {
		return []string{tool + " " + string(args)}, nil
	}
	out := []string{tool + " " + string(canon)}
	var decoded, bare strings.Builder
	decoded.Grow(len(out[0]))
	bare.Grow(len(out[0]))
	decoded.WriteString(tool + " ")
	bare.WriteString(tool + " ")
	render(&decoded, v, func(s string) string { return s })
	render(&bare, v, unquote)
	for _, s := range []string{decoded.String(), bare.String()} {
		if s != out[len(out)-1] {
			out = append(out, s)
		}
	}
	return out, v
}

// unquote drops the characters a shell uses to quote and escape, which do
// not change the word they sit in: r""m, "rm" and r\m all run rm (a
// backtick pair is an empty command substitution).
var unquote = strings.NewReplacer(`"`, "", `'`, "", "`", "", `\`, "").Replace

// render writes v in the canonical shape (sorted keys, compact) with every
// string passed through str and written between quotes without escaping.
func render(b *strings.Builder, v any, str func(string) string) {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"` + str(k) + `":`)
			render(b, t[k], str)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, x := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			render(b, x, str)
		}
		b.WriteByte(']')
	case string:
		b.WriteString(`"` + str(t) + `"`)
	case json.Number:
		b.WriteString(t.String())
	case bool:
		if t {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case nil:
		b.WriteString("null")
	}
}
