package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// EnvRuntimeDir names the per-user runtime folder of the desktop session
// (systemd-logind creates /run/user/UID, mode 0700).
const EnvRuntimeDir = "XDG_RUNTIME_DIR"

// Runtime is the private folder in which a running Wrasse keeps the
// instance socket of each workspace it holds and that socket's launch
// token. A process chooses it once, when it starts and before it runs
// anything in a sandbox (ChooseRuntime), and keeps that choice: chmod is
// outside the sandbox, so a choice made again from the modes found later
// could be moved by a sandboxed command, away from the folder every
// sandbox is kept out of and to one it prepared.
type Runtime struct {
	// Dir holds the sockets and tokens.
	Dir string
	// Session is the login session's folder that Dir is in
	// ($XDG_RUNTIME_DIR, or /run/user/UID), "" when Dir is elsewhere. It
	// must stay private too: its mode is kept with Dir's.
	Session string
}

// ChooseRuntime picks the runtime folder from the environment. On Linux
// it is $XDG_RUNTIME_DIR/wrasse when XDG_RUNTIME_DIR is set (and that
// folder must then be this user's alone, mode 0700: anything else is an
// error saying what to do, never a quiet move elsewhere); when the
// variable is unset (lost under sudo, say) /run/user/UID/wrasse when that
// folder exists and is this user's, with the same demand on its mode;
// else wrasse/run in the user's state folder ($XDG_STATE_HOME, default
// ~/.local/state), and only when that is missing or too deep for a
// socket name, wrasse-UID in the temporary folder. On macOS the temporary
// folder is the user's own (/var/folders/…) and holds wrasse-UID.
//
// Which folder is chosen never depends on a mode, only on the environment
// and on folders no sandbox can create, remove or give away (a session
// folder's existence and owner): the mode of a session folder is checked,
// and a bad one is an error, since a sandboxed command can chmod it. The
// state folder comes before the temporary one because every candidate is
// carved out of every sandbox (RuntimeCandidates): carved out of the
// temporary folder, it would keep sandboxed commands from creating files
// directly in /tmp (mktemp). On error the Runtime still names the folder
// that was meant, for messages.
func ChooseRuntime(getenv func(string) string) (Runtime, error) {
	return chooseRuntime(getenv, loginSessionDir(), os.TempDir())
}

// chooseRuntime is ChooseRuntime with the login session's folder and the
// temporary folder given.
func chooseRuntime(getenv func(string) string, session, temp string) (Runtime, error) {
	if xdg := sessionVariable(getenv); xdg != "" {
		rt := Runtime{Dir: filepath.Join(xdg, "wrasse"), Session: xdg}
		if err := CheckPrivate(xdg, true, 0o700); err != nil {
			return rt, sessionProblem(fmt.Sprintf("%s (%s)", EnvRuntimeDir, xdg), xdg, err,
				fmt.Sprintf("make it yours alone (chmod 700 %s) or unset %s", xdg, EnvRuntimeDir))
		}
		return rt, nil
	}
	if session != "" && ownDir(session) {
		rt := Runtime{Dir: filepath.Join(session, "wrasse"), Session: session}
		if err := CheckPrivate(session, true, 0o700); err != nil {
			return rt, sessionProblem("your login session's folder "+session, session, err,
				fmt.Sprintf("make it yours alone again (chmod 700 %s) or set %s to a folder only you can use", session, EnvRuntimeDir))
		}
		return rt, nil
	}
	if dir := stateRuntimeDir(getenv); dir != "" {
		return Runtime{Dir: dir}, nil
	}
	return Runtime{Dir: fallbackRuntimeDir(temp)}, nil
}

// sessionVariable is $XDG_RUNTIME_DIR where it counts: an absolute path
// (the XDG specification has relative ones ignored), on a system with
// session folders.
func sessionVariable(getenv func(string) string) string {
	xdg := getenv(EnvRuntimeDir)
	if xdg == "" || !filepath.IsAbs(xdg) || !sessionDirsUsed() {
		return ""
	}
	return filepath.Clean(xdg)
}

// sessionProblem says why a session folder cannot hold the runtime folder
// and what to do.
func sessionProblem(what, dir string, err error, todo string) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %s does not exist. Wrasse keeps the socket through which other wrasse commands drive it "+
			"there and will not look elsewhere: create it (mode 0700) or unset %s", ErrNotPrivate, what, EnvRuntimeDir)
	}
	if fi, lerr := os.Lstat(dir); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
		// chmod changes the folder the link leads to, never the link:
		// the variable has to name the folder itself.
		todo = fmt.Sprintf("a link cannot be made private, so point %s at the real folder instead", EnvRuntimeDir)
		if real, rerr := filepath.EvalSymlinks(dir); rerr == nil {
			todo += fmt.Sprintf(" (this link leads to %s, which must be yours alone, mode 0700)", real)
		}
		todo += fmt.Sprintf(", or unset %s", EnvRuntimeDir)
	}
	const why = "Wrasse keeps the socket through which other wrasse commands drive it " +
		"there, and will not fall back to another folder that a program could have prepared"
	if !errors.Is(err, ErrNotPrivate) {
		return fmt.Errorf("%s could not be checked (%w). %s: %s, and start Wrasse again", what, err, why, todo)
	}
	// err says "not private to you: <why>" itself.
	return fmt.Errorf("%s cannot hold Wrasse's runtime folder, as it is %w. %s: %s, and start Wrasse again", what, err, why, todo)
}

// RuntimeCandidates are every folder ChooseRuntime could pick in this
// environment, whatever the modes: the session variable's, the login
// session's, the state folder's and, only where no state folder can be
// used, the temporary folder's. They are all protected paths (Protected),
// so that no sandboxed program can read a token in one or plant a folder
// of its own in another that a later choice (a client run with a session
// folder it made unusable) would take.
func RuntimeCandidates(getenv func(string) string) []string {
	return runtimeCandidates(getenv, loginSessionDir(), os.TempDir())
}

func runtimeCandidates(getenv func(string) string, session, temp string) []string {
	var out []string
	if xdg := sessionVariable(getenv); xdg != "" {
		out = append(out, filepath.Join(xdg, "wrasse"))
	}
	if session != "" {
		out = append(out, filepath.Join(session, "wrasse"))
	}
	if dir := stateRuntimeDir(getenv); dir != "" {
		return append(out, dir)
	}
	return append(out, fallbackRuntimeDir(temp))
}

// maxRuntimeDirLen keeps a socket's path (the folder, a slash, 16 hex
// digits and ".sock") within the roughly 104 bytes a Unix socket's name
// may have on every system.
const maxRuntimeDirLen = 80

// stateRuntimeDir is wrasse/run in the user's state folder
// ($XDG_STATE_HOME, else ~/.local/state), "" when there is no usable home
// or the path is too long for a socket name.
func stateRuntimeDir(getenv func(string) string) string {
	if !stateDirUsable() {
		return ""
	}
	base := getenv("XDG_STATE_HOME")
	if !filepath.IsAbs(base) {
		home := getenv("HOME")
		if !filepath.IsAbs(home) {
			return ""
		}
		base = filepath.Join(home, ".local", "state")
	}
	dir := filepath.Join(base, "wrasse", "run")
	if len(dir) > maxRuntimeDirLen {
		return ""
	}
	return dir
}

// Ensure creates the runtime folder (mode 0700) when missing and checks
// that it belongs to this user alone: a real folder (not a symbolic
// link), owned by this user, with no access for anyone else. A folder
// that is ours but was opened up to others (chmod is not governed by the
// sandbox) is closed again; one that someone else owns, or a link, is
// refused, since whoever controls it could answer in Wrasse's place.
func (r Runtime) Ensure() error {
	if r.Dir == "" {
		return errors.New("no runtime folder was chosen")
	}
	// The state folder's wrasse/ may not exist yet; session and temporary
	// folders always do.
	if err := os.MkdirAll(filepath.Dir(r.Dir), 0o700); err != nil {
		return fmt.Errorf("create Wrasse's runtime folder %s: %w", r.Dir, err)
	}
	if err := os.Mkdir(r.Dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create Wrasse's runtime folder %s: %w", r.Dir, err)
	}
	if _, err := RestoreModes(r.KeptModes()); err != nil {
		return err
	}
	return r.Check()
}

// Check checks, without changing anything, that the runtime folder (and
// the session folder it is in) exists and belongs to this user alone. A
// folder that does not exist yields an error matching fs.ErrNotExist.
func (r Runtime) Check() error {
	if r.Session != "" {
		if err := CheckPrivate(r.Session, true, 0o700); err != nil {
			return sessionProblem("the session folder "+r.Session, r.Session, err,
				fmt.Sprintf("make it yours alone again (chmod 700 %s)", r.Session))
		}
	}
	if _, err := os.Lstat(r.Dir); err != nil {
		return err
	}
	if err := CheckPrivate(r.Dir, true, 0o700); err != nil {
		return runtimeDirProblem(r.Dir, err)
	}
	return nil
}

// KeptModes are the folders whose modes a Wrasse keeps while it has
// chosen this runtime folder: the session folder and the runtime folder,
// both 0700.
func (r Runtime) KeptModes() []KeptMode {
	var out []KeptMode
	if r.Session != "" {
		out = append(out, KeptMode{Path: r.Session, Mode: 0o700, Dir: true})
	}
	return append(out, KeptMode{Path: r.Dir, Mode: 0o700, Dir: true})
}

// runtimeDirProblem says what to do about a runtime folder that is not
// private.
func runtimeDirProblem(dir string, err error) error {
	// err says "not private to you: <why>" itself.
	return fmt.Errorf("the runtime folder of Wrasse cannot be used, as it is %w. Another user or program may have made it to "+
		"intercept Wrasse's commands: remove %s (or set %s to a folder only you can use) and start Wrasse again",
		err, dir, EnvRuntimeDir)
}

// KeptMode is a path whose mode Wrasse puts back when something changed
// it.
type KeptMode struct {
	Path string
	Mode fs.FileMode
	// Dir is true for a folder.
	Dir bool
}

// Restored is one mode put back.
type Restored struct {
	Path string
	// Was is the mode found; Mode the one restored.
	Was, Mode fs.FileMode
}

// String describes the repair for a person.
func (r Restored) String() string {
	return fmt.Sprintf("%s had mode %04o; it is %04o again", r.Path, r.Was, r.Mode)
}
