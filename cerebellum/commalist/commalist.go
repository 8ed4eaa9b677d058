package commalist

import "strings"

// Split splits s into its items; "" and " , " give nil.
func Split(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// Join is the inverse of Split for items without commas.
func Join(items []string) string { return strings.Join(items, ",") }

// Prose writes items as a sentence does: "a", "a and b", "a, b and c".
func Prose(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
