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
