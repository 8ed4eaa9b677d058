package hint

import (
	"errors"
	"strings"
)

// Page names a place in the desktop window where a fix is made.
type Page string

// The pages a hint can point to.
const (
	PageNone         Page = ""
	PageModel        Page = "model"
	PageCapabilities Page = "capabilities"
	PageFolders      Page = "folders"
	// PageCapability is the settings page of one capability (Target names it).
	PageCapability Page = "capability"
)

// Hint is one action that fixes or works around an error.
type Hint struct {
	// Action says what to do, in words a person understands, without
	// naming a command or a button: "Grant exec to shell".
	Action string `json:"action"`
	// Command is the CLI equivalent as arguments after `wrasse`, e.g.
	// ["caps", "enable", "shell", "--grant", "exec"]; empty when the fix
	// has no command.
	Command []string `json:"command,omitempty"`
	// Page is where the window makes the fix; Target narrows it (a
	// capability name, a setting key).
	Page   Page   `json:"page,omitempty"`
	Target string `json:"target,omitempty"`
}

// CommandLine renders Command as a shell line ("wrasse caps enable shell").
func (h Hint) CommandLine() string {
	if len(h.Command) == 0 {
		return ""
	}
	parts := make([]string, 0, len(h.Command)+1)
	parts = append(parts, "wrasse")
	for _, a := range h.Command {
		if a == "" || strings.ContainsAny(a, " \t\"'$`\\|&;<>()*?[]#~") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}

// Error is an error with a hint. Its text is the wrapped error's; the hint
// travels beside it.
type Error struct {
	Err  error
	Hint Hint
}

func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the error the hint is attached to.
func (e *Error) Unwrap() error { return e.Err }

// With attaches h to err; a nil err stays nil.
func With(err error, h Hint) error {
	if err == nil {
		return nil
	}
	return &Error{Err: err, Hint: h}
}

// Of returns the outermost hint in err's chain.
func Of(err error) (Hint, bool) {
	var he *Error
	if errors.As(err, &he) {
		return he.Hint, true
	}
	return Hint{}, false
}
