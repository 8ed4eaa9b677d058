// Package commalist is the one comma-separated list syntax of Wrasse, used
// by CLI flags (--grant a,b), config keys (pinnedCapabilities) and list
// settings of capabilities: items are separated by commas, blanks around
// an item are trimmed, and empty items are dropped.
//
// It is a leaf package (standard library only) so that every layer can use
// it.
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
