package sdk

import (
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/wrasse-app/wrasse/plugins/sdk/credname"
)

// splitName checks a slash-separated name beneath an open folder (an
// archive entry, a walked path) and returns its components, none for the
// folder itself. It refuses what could leave the folder or mean something
// else on disk: an absolute name, a .. component, a NUL, and on Windows a
// backslash or colon (a separator or a volume there).
func splitName(name string) ([]string, error) {
	bad := func() ([]string, error) { return nil, &fs.PathError{Op: "open", Path: name, Err: errName} }
	if name == "" || strings.IndexByte(name, 0) >= 0 || strings.HasPrefix(name, "/") {
		return bad()
	}
	if runtime.GOOS == "windows" && strings.ContainsAny(name, `\:`) {
		return bad()
	}
	var comps []string
	for c := range strings.SplitSeq(name, "/") {
		switch c {
		case "", ".":
			continue
		case "..":
			return bad()
		}
		comps = append(comps, c)
	}
	return comps, nil
}

// beneath reports whether abs is base or lies beneath it, comparing as
// the file system does (ignoring case on macOS and Windows), and returns
// the components of abs below base. Both are clean absolute paths.
func beneath(base, abs string) ([]string, bool) {
	if len(abs) < len(base) || !samePath(abs[:len(base)], base) {
		return nil, false
	}
	rest := abs[len(base):]
	if rest != "" && !strings.HasSuffix(base, string(filepath.Separator)) {
		if rest[0] != filepath.Separator {
			return nil, false
		}
		rest = rest[1:]
	}
	var comps []string
	for c := range strings.SplitSeq(rest, string(filepath.Separator)) {
		if c != "" {
			comps = append(comps, c)
		}
	}
	return comps, true
}

// samePath compares two paths as the usual file systems of this OS do.
func samePath(a, b string) bool {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// within reports whether the folder or file d (real, folded) is p (real,
// folded) or holds it.
func within(d, p string) bool {
	if d == p {
		return true
	}
	if strings.HasSuffix(d, string(filepath.Separator)) {
		return strings.HasPrefix(p, d)
	}
	return strings.HasPrefix(p, d+string(filepath.Separator))
}

// credentialName reports a file name that holds keys or passwords, by the
// list the gate uses too (credname).
func credentialName(name string) bool { return credname.Is(name) }
