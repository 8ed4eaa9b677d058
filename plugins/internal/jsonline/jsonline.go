package jsonline

import (
	"strconv"
	"unicode/utf8"
)

// CutUint reads a JSON unsigned integer that fits a uint64 at the start
// of b and returns it with the rest of b.
func CutUint(b []byte) (uint64, []byte, bool) {
	n := 0
	for n < len(b) && '0' <= b[n] && b[n] <= '9' {
		n++
	}
	if n == 0 || (n > 1 && b[0] == '0') {
		return 0, nil, false
	}
	v, err := strconv.ParseUint(string(b[:n]), 10, 64)
	if err != nil {
		return 0, nil, false
	}
	return v, b[n:], true
}

// PlainString reports whether s is printable ASCII that JSON writes as it
// is (no quote, backslash or character encoding/json escapes).
func PlainString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}
