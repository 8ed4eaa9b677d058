package stage

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// problem is a rejection found while checking one entry; the caller adds
// which input and entry it was.
type problem struct {
	err    error
	detail string
}

func newProblem(err error, format string, args ...any) *problem {
	return &problem{err: err, detail: fmt.Sprintf(format, args...)}
}

// cleanName turns an entry name into a canonical slash path: no leading or
// trailing slash, no empty or "." components. dir reports a trailing slash.
// With backslashSep (zip names: Windows PowerShell 5 writes "dir\file")
// backslashes are separators; otherwise (names read from disk) a backslash is
// a character Windows would take as a separator, so it is refused.
//
// Checks run from the most to the least dangerous, so an entry that is both
// traversal and oddly named is reported as traversal.
func cleanName(raw string, backslashSep bool) (clean string, dir bool, p *problem) {
	switch {
	case raw == "":
		return "", false, newProblem(ErrBadName, "the name is empty")
	case strings.IndexByte(raw, 0) >= 0:
		return "", false, newProblem(ErrBadName, "the name contains a NUL byte")
	}
	n := raw
	if backslashSep {
		n = strings.ReplaceAll(n, `\`, "/")
	}
	switch {
	case strings.HasPrefix(n, "//"):
		return "", false, newProblem(ErrUnsafePath, "it is a UNC (network) path; paths must be relative to the archive")
	case strings.HasPrefix(n, "/"):
		return "", false, newProblem(ErrUnsafePath, "it is an absolute path; paths must be relative to the archive")
	case len(n) >= 2 && n[1] == ':' && isASCIILetter(n[0]):
		return "", false, newProblem(ErrUnsafePath, "it starts with drive letter %q; paths must be relative to the archive", n[:2])
	}
	dir = strings.HasSuffix(n, "/")
	parts := strings.Split(n, "/")
	kept := parts[:0]
	for _, c := range parts {
		switch c {
		case "", ".":
			continue
		case "..":
			return "", false, newProblem(ErrUnsafePath, `it climbs out with ".."; every path must stay inside the capability folder`)
		}
		kept = append(kept, c)
	}
	if !utf8.ValidString(n) {
		return "", false, newProblem(ErrBadName, "the name is not valid UTF-8 (made by a tool using a legacy code page?); re-create the archive with UTF-8 names")
	}
	if !backslashSep && strings.Contains(n, `\`) {
		return "", false, newProblem(ErrBadName, `the name contains "\", a path separator on Windows; rename it`)
	}
	for _, c := range kept {
		if p := checkComponent(c); p != nil {
			return "", false, p
		}
	}
	clean = strings.Join(kept, "/")
	if len(clean) > maxPathBytes {
		return "", false, newProblem(ErrBadName, "the path is %d bytes long; the limit is %d", len(clean), maxPathBytes)
	}
	return clean, dir, nil
}

func isASCIILetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

// checkComponent rejects what would be unsafe to show or impossible to write
// identically on Windows, macOS and Linux.
func checkComponent(c string) *problem {
	if len(c) > maxComponentBytes {
		return newProblem(ErrBadName, "a path component is %d bytes long; the limit is %d", len(c), maxComponentBytes)
	}
	for _, r := range c {
		switch {
		case unicode.IsControl(r):
			return newProblem(ErrBadName, "the name contains control character %U; rename it", r)
		case isBidiControl(r):
			// Right-to-left overrides make "evil\u202Etxt.sh" read as "evilhs.txt".
			return newProblem(ErrBadName, "the name contains bidirectional control %U, which disguises what it is; rename it", r)
		case r == ':':
			return newProblem(ErrBadName, `the name contains ":", a drive or stream separator on Windows; rename it`)
		case strings.ContainsRune(`<>"|?*`, r):
			return newProblem(ErrBadName, "the name contains %q, which Windows does not allow in file names; rename it", r)
		}
	}
	if strings.HasSuffix(c, ".") || strings.HasSuffix(c, " ") {
		return newProblem(ErrBadName, "%q ends with a dot or a space, which Windows drops (so two names could collide); rename it", c)
	}
	if isWindowsDevice(c) {
		return newProblem(ErrBadName, "%q is a reserved device name on Windows; rename it", c)
	}
	return nil
}

func isBidiControl(r rune) bool {
	switch {
	case r == 0x061C, r == 0x200E, r == 0x200F:
		return true
	case r >= 0x202A && r <= 0x202E:
		return true
	case r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// isWindowsDevice reports CON, PRN, AUX, NUL, COM0-9, LPT0-9 (with the
// superscript digits Windows also reserves), with or without an extension.
func isWindowsDevice(c string) bool {
	base, _, _ := strings.Cut(c, ".")
	base = strings.ToUpper(strings.TrimRight(base, " "))
	switch base {
	case "CON", "PRN", "AUX", "NUL":
		return true
	}
	if len(base) >= 4 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) {
		switch base[3:] {
		case "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
			return true
		}
	}
	return false
}

// Junk is skipped (never checked for type or size, never copied) and listed
// in Staged.Ignored. Matched per path component, case-insensitively:
// OS metadata (__MACOSX, .DS_Store, AppleDouble "._*", Thumbs.db,
// desktop.ini), version control (.git, .hg, .svn) and caches that are
// rebuilt, platform-specific and often full of links (node_modules,
// __pycache__).
func isJunk(component string) bool {
	switch strings.ToLower(component) {
	case "__macosx", ".ds_store", "thumbs.db", "desktop.ini",
		".git", ".hg", ".svn",
		"node_modules", "__pycache__":
		return true
	}
	return strings.HasPrefix(component, "._")
}

// junkPrefix returns the ignored path for a clean path that has a junk
// component ("__MACOSX/" for "__MACOSX/a/._b"), or "".
func junkPrefix(clean string, dir bool) string {
	parts := strings.Split(clean, "/")
	for i, c := range parts {
		if isJunk(c) {
			j := strings.Join(parts[:i+1], "/")
			if i < len(parts)-1 || dir {
				j += "/"
			}
			return j
		}
	}
	return ""
}

func depth(clean string) int { return strings.Count(clean, "/") + 1 }

// isSkillMD reports whether the last component is skill.md in any case.
func isSkillMD(clean string) bool {
	_, last := splitLast(clean)
	return strings.EqualFold(last, "SKILL.md")
}

func splitLast(clean string) (dir, last string) {
	if i := strings.LastIndexByte(clean, '/'); i >= 0 {
		return clean[:i], clean[i+1:]
	}
	return "", clean
}
