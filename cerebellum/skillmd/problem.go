package skillmd

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors, matched with errors.Is on an *Error.
var (
	// ErrInvalid marks a SKILL.md with at least one error-level problem.
	ErrInvalid = errors.New("invalid SKILL.md")
	// ErrNoFrontmatter marks a file that does not open with a `---` block.
	ErrNoFrontmatter = errors.New("SKILL.md must start with a YAML frontmatter block between --- lines")
	// ErrTooLarge marks a SKILL.md over MaxFileSize.
	ErrTooLarge = errors.New("SKILL.md is too large")
	// ErrCorruptPattern marks a stored pattern (Pattern.GobDecode) that
	// cannot be read back.
	ErrCorruptPattern = errors.New("stored pattern is damaged")
)

// Problem is one finding about a SKILL.md, with its place in the file when known.
type Problem struct {
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
	Warning bool   `json:"warning,omitempty"`
	// Snippet shows the surrounding source with a caret, when known.
	Snippet string `json:"snippet,omitempty"`
}

// String renders "file:line:col: field: message".
func (p Problem) String() string {
	var b strings.Builder
	if p.File != "" {
		b.WriteString(p.File)
		if p.Line > 0 {
			fmt.Fprintf(&b, ":%d", p.Line)
			if p.Column > 0 {
				fmt.Fprintf(&b, ":%d", p.Column)
			}
		}
		b.WriteString(": ")
	}
	if p.Warning {
		b.WriteString("warning: ")
	}
	if p.Field != "" {
		b.WriteString(p.Field)
		b.WriteString(": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// Error carries every error-level problem found in one file.
type Error struct {
	File     string
	Problems []Problem
	// cause is a sentinel for errors.Is.
	cause error
}

func (e *Error) Error() string {
	if len(e.Problems) == 1 {
		return e.Problems[0].String()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d problems:", e.File, len(e.Problems))
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		b.WriteString(p.String())
	}
	return b.String()
}

// Detail renders every problem with its source snippet, fit for a code block.
func (e *Error) Detail() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(p.String())
		if p.Snippet != "" {
			b.WriteString("\n")
			b.WriteString(p.Snippet)
		}
	}
	return b.String()
}

func (e *Error) Unwrap() []error {
	if e.cause == nil {
		return []error{ErrInvalid}
	}
	return []error{ErrInvalid, e.cause}
}
