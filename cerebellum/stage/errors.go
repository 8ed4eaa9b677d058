package stage

import (
	"errors"
	"fmt"
	"strconv"
)

// Sentinel errors. Stage wraps each in an *Error naming the input and, when
// one entry is at fault, that entry; test with errors.Is.
var (
	// ErrUnsupportedInput: the dropped item is not a .md file, a folder or a
	// .zip/.skill archive (or is a .md file that is really an archive).
	ErrUnsupportedInput = errors.New("unsupported input")
	// ErrNotZip: a .zip or .skill file that does not start with a zip signature.
	ErrNotZip = errors.New("not a zip archive")
	// ErrCorrupt: a zip that cannot be read to the end (truncated, bad
	// checksum, sizes that do not match the data).
	ErrCorrupt = errors.New("corrupt or truncated archive")
	// ErrUnsupportedEntry: an encrypted entry or a compression method other
	// than store or deflate.
	ErrUnsupportedEntry = errors.New("unsupported zip feature")
	// ErrEmpty: an empty SKILL.md, folder or archive (junk does not count).
	ErrEmpty = errors.New("empty")
	// ErrUnsafePath: a path that would land outside the capability folder:
	// "..", absolute, drive letter or UNC.
	ErrUnsafePath = errors.New("escapes the capability folder")
	// ErrBadName: a name that cannot be written the same way on every system:
	// NUL, control or bidi characters, invalid UTF-8, Windows-reserved names
	// or characters, over-long names.
	ErrBadName = errors.New("unusable file name")
	// ErrLink: a symbolic link or a hard link.
	ErrLink = errors.New("is a link")
	// ErrSpecialFile: a device, FIFO, socket or other non-regular file.
	ErrSpecialFile = errors.New("is not a regular file")
	// ErrDuplicate: the same path twice, a file and a folder of the same path,
	// or two paths that differ only in case.
	ErrDuplicate = errors.New("duplicate path")
	// ErrTooManyFiles: more files than Limits.MaxFiles.
	ErrTooManyFiles = errors.New("too many files")
	// ErrTooLarge: more bytes in total than Limits.MaxTotalBytes.
	ErrTooLarge = errors.New("too large")
	// ErrFileTooLarge: one file over Limits.MaxFileBytes, or SKILL.md over
	// Limits.MaxSkillMD.
	ErrFileTooLarge = errors.New("file too large")
	// ErrZipBomb: an entry or the archive expands more than Limits.MaxRatio
	// times, or entries share compressed data.
	ErrZipBomb = errors.New("looks like a zip bomb")
	// ErrTooDeep: a path with more components than Limits.MaxDepth.
	ErrTooDeep = errors.New("nested too deeply")
	// ErrNoSkillMD: no file named SKILL.md (any case).
	ErrNoSkillMD = errors.New("no SKILL.md found")
	// ErrMultipleSkillMD: more than one file named SKILL.md (any case).
	ErrMultipleSkillMD = errors.New("more than one SKILL.md")
	// ErrLayout: SKILL.md is neither at the top nor inside a single top-level
	// folder, or files sit beside that folder.
	ErrLayout = errors.New("not laid out as one capability")
)

// Error is a rejected input. Its message is one line fit for a code block:
//
//	zip entry "../../evil.sh": escapes the capability folder: it climbs out with ".."
//	zip "skill.zip": not a zip archive: it is a gzip file (a renamed .tar.gz?); re-pack the capability folder as a .zip
type Error struct {
	Kind   Kind   // the input's kind; "" when it could not be decided
	Input  string // base name of the dropped input
	Entry  string // the offending entry inside the input, as named there; "" for the input as a whole
	Err    error  // one of the sentinels above
	Detail string // what exactly is wrong and what to do
}

func (e *Error) Error() string {
	var s string
	if e.Entry != "" {
		s = fmt.Sprintf("%s entry %s: %v", kindWord(e.Kind), quote(e.Entry), e.Err)
	} else {
		s = fmt.Sprintf("%s %s: %v", kindWord(e.Kind), quote(e.Input), e.Err)
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

func kindWord(k Kind) string {
	switch k {
	case KindZip:
		return "zip"
	case KindFolder:
		return "folder"
	case KindSkillFile:
		return "file"
	}
	return "input"
}

// maxQuoted bounds how much of a hostile name goes into a message.
const maxQuoted = 160

// quote renders a name with Go escaping, so control characters, bidi
// overrides (not printable to strconv) and invalid UTF-8 show as escapes,
// truncated to maxQuoted bytes.
func quote(name string) string {
	if len(name) <= maxQuoted {
		return strconv.Quote(name)
	}
	return strconv.Quote(name[:maxQuoted]) + "…"
}
