package sdk

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// ErrProtected is returned for a path no tool may read (Env.NoAccess: the
// workspace's database, config.json, caches and logs) or write
// (Env.ReadOnly: the workspace, the capability folder among it).
var ErrProtected = errors.New("path is protected")

// Permit decides whether a plugin may touch path now: it makes the path
// absolute and clean, resolves symbolic links in the part that exists,
// folds case where the file system does (macOS, Windows), and checks it
// against the protected paths and the roots. A file that is the same file
// as a protected one or as one inside a protected folder (a hard link)
// counts as protected. write asks for writing (creating, changing,
// removing); reading needs only the path outside NoAccess. It returns the
// clean path as given (not the resolved one), for messages. It opens
// nothing, and what the path names may change before anything opens it:
// read and write with the file API (OpenArg, ParentArg, Dir …), which
// applies the same rules to what it actually opens.
func (e *Env) Permit(path string, write bool) (string, error) {
	p := path
	if !filepath.IsAbs(p) {
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", fmt.Errorf("%w: %s: %v", ErrOutsideRoots, path, err)
		}
		p = abs
	}
	p = filepath.Clean(p)
	real := fold(realPrefix(p))
	for _, n := range e.NoAccess {
		if covers(n, real) {
			return "", fmt.Errorf("%w: %s is Wrasse's own data (database, settings, caches or logs), which no tool may read or change", ErrProtected, path)
		}
	}
	if write {
		for _, r := range e.ReadOnly {
			if covers(r, real) {
				if rp := realPrefix(p); rp != p {
					// A link on the way led there: name both.
					return "", readOnlyErr(path, rp, filepath.Clean(r))
				}
				return "", readOnlyErr("", p, filepath.Clean(r))
			}
		}
	}
	if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
		if err := e.newGuard().checkInfo(info, path, false); err != nil {
			return "", err
		}
	}
	if len(e.Roots) == 0 {
		return "", fmt.Errorf("%w: no folders are allowed (%s)", ErrOutsideRoots, path)
	}
	for _, root := range e.Roots {
		if covers(root, real) {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w: %s (allowed: %s)", ErrOutsideRoots, path, strings.Join(e.Roots, ", "))
}

// covers reports whether the folder or file dir is p or holds it, after
// resolving dir's links and folding case as p was.
func covers(dir, p string) bool {
	d := fold(realPrefix(filepath.Clean(dir)))
	if d == string(filepath.Separator) || d == p {
		return true
	}
	return strings.HasPrefix(p, d+string(filepath.Separator))
}

// fold lower-cases a path on systems whose usual file systems ignore case,
// so that WRASSE.DB names the database there.
func fold(p string) string {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		return strings.ToLower(p)
	}
	return p
}

// ResolveWrite is Resolve for a path the plugin will write: it also
// refuses paths inside Env.ReadOnly.
func (e *Env) ResolveWrite(base, path string) (string, error) {
	return e.resolve(base, path, true)
}

// ResolveArgWrite is ResolveArg for a path the plugin will write.
func (e *Env) ResolveArgWrite(arg string) (string, error) {
	return e.resolveArg(arg, true)
}

// toolError turns a refusal (ErrProtected, ErrOutsideRoots) into a
// message for the model, which errors.Is still matches.
func (e *Env) toolError(arg string, err error) error {
	if strings.TrimSpace(arg) == "" {
		arg = "."
	}
	var msg string
	switch {
	case errors.Is(err, ErrProtected):
		msg = strings.TrimPrefix(err.Error(), ErrProtected.Error()+": ")
		msg += "; do not try another way to reach it"
	case errors.Is(err, errNoFolder):
		msg = fmt.Sprintf("no folder is granted, so %s has no folder to start from: ask the user to grant one in Settings → Folders", arg)
	case len(e.granted()) == 0:
		// The workspace alone (a built-in's roots when the person granted
		// nothing) is no folder to point the model to: the fix is a grant.
		msg = fmt.Sprintf("%s is outside the folders you may use, and no folder is granted: ask the user to grant one in Settings → Folders", arg)
	default:
		msg = fmt.Sprintf("%s is outside the folders you may use (%s); use a path inside them", arg, strings.Join(e.granted(), ", "))
	}
	return &ToolError{Msg: msg, err: err}
}
