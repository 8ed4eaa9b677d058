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
	// The canonical line is encoded straight after the tool name: one
	// allocation for a long argument, not three.
	var line strings.Builder
	line.Grow(len(tool) + 1 + len(args) + 16)
	line.WriteString(tool + " ")
	enc := json.NewEncoder(&line)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return []string{tool + " " + string(args)}, nil
	}
	out := []string{strings.TrimSuffix(line.String(), "\n")}
	var decoded, bare strings.Builder
	decoded.Grow(len(out[0]))
	bare.Grow(len(out[0]))
	decoded.WriteString(tool + " ")
	bare.WriteString(tool + " ")
	render(&decoded, v, false)
	render(&bare, v, true)
	for _, s := range []string{decoded.String(), bare.String()} {
		if s != out[len(out)-1] {
			out = append(out, s)
		}
	}
	return out, v
}

// writeStr writes s, without the characters a shell uses to quote and
// escape when bare: they do not change the word they sit in: r""m, "rm"
// and r\m all run rm (a backtick pair is an empty command substitution).
func writeStr(b *strings.Builder, s string, bare bool) {
	if !bare {
		b.WriteString(s)
		return
	}
	for len(s) > 0 {
		i := strings.IndexAny(s, "\"'`\\")
		if i < 0 {
			b.WriteString(s)
			return
		}
		b.WriteString(s[:i])
		s = s[i+1:]
	}
}

// render writes v in the canonical shape (sorted keys, compact) with every
// string between quotes without escaping, bare (see writeStr) or not.
func render(b *strings.Builder, v any, bare bool) {
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
			b.WriteByte('"')
			writeStr(b, k, bare)
			b.WriteString(`":`)
			render(b, t[k], bare)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, x := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			render(b, x, bare)
		}
		b.WriteByte(']')
	case string:
		b.WriteByte('"')
		writeStr(b, t, bare)
		b.WriteByte('"')
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
