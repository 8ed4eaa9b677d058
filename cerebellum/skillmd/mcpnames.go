package skillmd

import "strings"

// ValidEnvName reports whether k can name an environment variable of an
// MCP server: not empty, without '=' or NUL.
func ValidEnvName(k string) bool {
	return k != "" && !strings.ContainsAny(k, "=\x00")
}

// ValidHeaderName reports whether k is an HTTP header name (RFC 9110
// token characters), as an MCP server's headers must be.
func ValidHeaderName(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("\"(),/:;<=>?@[\\]{}", c) >= 0 {
			return false
		}
	}
	return true
}
