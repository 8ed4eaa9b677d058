package mcpimport

import (
	"strconv"
	"strings"
)

// maxNameLen is a capability name's limit (skillmd.MaxNameLength).
const maxNameLen = 64

// capabilityName makes a server's name in the file a valid capability
// name (lowercase letters, digits and single hyphens, 1-64 characters):
// lowercased, every other character a hyphen, runs of them one. The same
// input always gives the same name.
func capabilityName(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
			continue
		}
		if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= maxNameLen {
			break
		}
	}
	name := trimName(b.String(), maxNameLen)
	if name == "" {
		return "mcp-server"
	}
	return name
}

// trimName cuts name to n bytes without leaving a hyphen at either end.
func trimName(name string, n int) string {
	if len(name) > n {
		name = name[:n]
	}
	return strings.Trim(name, "-")
}

// uniqueName returns base, or base-2, base-3, ... (cut to fit 64
// characters) for the first one not taken.
func uniqueName(base string, taken map[string]bool) string {
	if !taken[base] {
		return base
	}
	for i := 2; ; i++ {
		suffix := "-" + strconv.Itoa(i)
		name := trimName(base, maxNameLen-len(suffix)) + suffix
		if !taken[name] {
			return name
		}
	}
}

// secretName makes an environment variable's or an input's id a valid
// secret name (letters, digits, '_', '.', '-'; starting with a letter or
// '_'; at most 64 characters).
func secretName(s string) string {
	var b strings.Builder
	for i := 0; i < len(s) && b.Len() < maxNameLen; i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
			b.WriteByte(c)
		case c >= '0' && c <= '9' || c == '.' || c == '-':
			if b.Len() == 0 {
				b.WriteByte('_')
			}
			b.WriteByte(c)
		default:
			b.WriteByte('_')
		}
	}
	name := b.String()
	if len(name) > maxNameLen {
		name = name[:maxNameLen]
	}
	if name == "" {
		return "_"
	}
	return name
}
