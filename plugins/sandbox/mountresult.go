package sandbox

import (
	"io"
	"strings"
)

// MountResult is what MountNamespace did.
type MountResult struct {
	// OK: every mount was made. Else Why says what was refused.
	OK  bool
	Why string
	// Refused, when not "", says why the command must not start at all:
	// a repository's settings name what the launcher could not keep from
	// the command within a start's bounds (a command wrote them).
	Refused string
	// Notes are, for the command's output, what the launcher changed in
	// the person's files (a planted commondir moved away) or could not
	// cover (the search for repositories cut short).
	Notes []string
	// GitDirs are the main git folders of the protected repositories,
	// where a commondir must not appear (MoveCommondirs).
	GitDirs []string
}

// MovedSuffix is added to the name of a commondir file MoveCommondirs
// moves away: kept beside, for the person to look at (or to rename back,
// if they made it themselves).
const MovedSuffix = ".moved-by-wrasse"

// GitDirsFrom reads the watcher's git folders as startWatcher writes them.
func GitDirsFrom(r io.Reader) ([]string, error) {
	b, err := io.ReadAll(r)
	if err != nil || len(b) == 0 {
		return nil, err
	}
	return strings.Split(string(b), "\x00"), nil
}
