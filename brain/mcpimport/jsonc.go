package mcpimport

import "fmt"

// standardJSON turns JSON with comments and trailing commas (VS Code's
// JSONC) into plain JSON, and refuses nesting deeper than maxDepth, in
// one pass that never looks inside strings. Comments become spaces so
// offsets in error messages still point into the original file.
func standardJSON(src []byte, maxDepth int) ([]byte, error) {
	out := make([]byte, 0, len(src))
	depth := 0
	// comma is the index in out of a comma that may turn out to be
	// trailing (only whitespace and comments after it so far), or -1.
	comma := -1
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '"':
			j := i + 1
			for ; j < len(src); j++ {
				if src[j] == '\\' {
					j++
					continue
				}
				if src[j] == '"' {
					break
				}
			}
			if j >= len(src) {
				return nil, fmt.Errorf("%w: a string that never ends", ErrSyntax)
			}
			out = append(out, src[i:j+1]...)
			i = j
			comma = -1
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				out = append(out, ' ')
				i++
			}
			if i < len(src) {
				out = append(out, '\n')
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := -1
			for j := i + 2; j+1 < len(src); j++ {
				if src[j] == '*' && src[j+1] == '/' {
					end = j + 1
					break
				}
			}
			if end < 0 {
				return nil, fmt.Errorf("%w: a /* comment that never ends", ErrSyntax)
			}
			for ; i <= end; i++ {
				if src[i] == '\n' {
					out = append(out, '\n')
				} else {
					out = append(out, ' ')
				}
			}
			i = end
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			out = append(out, c)
		case c == '{' || c == '[':
			depth++
			if depth > maxDepth {
				return nil, fmt.Errorf("%w: more than %d levels", ErrTooDeep, maxDepth)
			}
			out = append(out, c)
			comma = -1
		case c == '}' || c == ']':
			if comma >= 0 {
				out[comma] = ' '
			}
			depth--
			out = append(out, c)
			comma = -1
		case c == ',':
			out = append(out, c)
			comma = len(out) - 1
		default:
			out = append(out, c)
			comma = -1
		}
	}
	return out, nil
}
