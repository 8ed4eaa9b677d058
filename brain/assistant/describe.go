package assistant

import (
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// DiffSummary is a registry change in one line, as both front ends show
// it: "added x; changed y, z; removed w" ("" for no change).
func DiffSummary(d cerebellum.Diff) string {
	var parts []string
	if len(d.Added) > 0 {
		parts = append(parts, "added "+strings.Join(d.Added, ", "))
	}
	if len(d.Changed) > 0 {
		parts = append(parts, "changed "+strings.Join(d.Changed, ", "))
	}
	if len(d.Removed) > 0 {
		parts = append(parts, "removed "+strings.Join(d.Removed, ", "))
	}
	return strings.Join(parts, "; ")
}

// Hints names the annotations a tool gives, in this order: "read-only"
// or else "destructive", "idempotent", "open-world". A front end may say
// them in other words; which ones apply is decided here.
func (t MCPTool) Hints() []string {
	var out []string
	switch {
	case t.ReadOnly:
		out = append(out, "read-only")
	case t.Destructive:
		out = append(out, "destructive")
	}
	if t.Idempotent {
		out = append(out, "idempotent")
	}
	if t.OpenWorld {
		out = append(out, "open-world")
	}
	return out
}
