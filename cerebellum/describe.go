package cerebellum

import (
	"fmt"
	"strings"
)

// DescribeCapability is what the assistant reads about one capability
// (the skills capability's skill_inspect): its state, description, tools,
// permissions and files, each bounded for the prompt.
func DescribeCapability(c *Capability) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s %s, %s, badge %s, folder %s\n", c.Name, c.Source, c.Kind, c.State, c.Badge, c.Folder)
	if c.Dir != "" {
		fmt.Fprintf(&b, "Base directory: %s (paths in its instructions are relative to it)\n", c.Dir)
	}
	if c.State == StateFailed {
		fmt.Fprintf(&b, "Error:\n%s\n", PromptBlock(firstNonEmpty(c.Detail, c.Error)))
	}
	if m := c.Manifest; m != nil {
		fmt.Fprintf(&b, "Description: %s\n", PromptLine(m.Description, ToolDescriptionLimit))
		if len(m.Requires) > 0 {
			fmt.Fprintf(&b, "Requires: %s\n", strings.Join(m.Requires, ", "))
		}
		if names := m.Permissions.Names(); len(names) > 0 {
			fmt.Fprintf(&b, "Permissions declared: %s; granted: %s\n", strings.Join(names, ", "), orNone(c.Granted))
		}
		for _, t := range m.Tools {
			fmt.Fprintf(&b, "Tool %s — %s\n  parameters: %s\n", t.Name, toolText(c, t.Description, 200), promptSchema(t.Parameters))
		}
		for _, w := range m.Warnings {
			fmt.Fprintf(&b, "Warning: %s\n", PromptLine(w.String(), ToolDescriptionLimit))
		}
	}
	if len(c.Files) > 0 {
		fmt.Fprintf(&b, "Files: %s\n", strings.Join(c.Files, ", "))
	}
	return strings.TrimRight(b.String(), "\n")
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
