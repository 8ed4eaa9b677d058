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

// RuntimeDir is the private folder in which a running Wrasse keeps the
// instance socket of each workspace it holds and that socket's launch
// token. On Linux it is $XDG_RUNTIME_DIR/wrasse when XDG_RUNTIME_DIR names
// a folder that only this user can use (or, when the variable was lost,
// as under sudo, /run/user/UID, the folder it names in a login session),
// else wrasse/run in the user's state folder ($XDG_STATE_HOME, default
// ~/.local/state) and only when that is missing or too deep for a socket
// name, wrasse-UID in the temporary folder; on macOS the temporary folder
// is the user's own (/var/folders/…) and holds wrasse-UID. The state
// folder comes before the temporary one because the runtime folder is
// carved out of every sandbox: carved out of the temporary folder, it
// would keep sandboxed commands from creating files directly in /tmp
// (mktemp), which is where servers and containers without a login
// session would otherwise put it. It is never the shared temporary
// folder itself, and it is one of the paths no sandbox and no tool may
// touch (Protected). RuntimeDir only names it; EnsureRuntimeDir creates
// and checks it.
func RuntimeDir() string { return runtimeDir(os.Getenv, loginSessionDir(), os.TempDir()) }

// runtimeDir is RuntimeDir with the environment, the login session's
// folder and the temporary folder given.
func runtimeDir(getenv func(string) string, session, temp string) string {
	if xdg := getenv(EnvRuntimeDir); usableSessionDir(xdg) {
		return filepath.Join(xdg, "wrasse")
	}
	if session != "" && getenv(EnvRuntimeDir) == "" && usableSessionDir(session) {
		return filepath.Join(session, "wrasse")
	}
	if dir := stateRuntimeDir(getenv); dir != "" {
		return dir
	}
	return fallbackRuntimeDir(temp)
}

// maxRuntimeDirLen keeps a socket's path (the folder, a slash, 16 hex
// digits and ".sock") within the roughly 104 bytes a Unix socket's name
// may have on every system.
const maxRuntimeDirLen = 80

// stateRuntimeDir is wrasse/run in the user's state folder
// ($XDG_STATE_HOME, else ~/.local/state), "" when there is no usable home
// or the path is too long for a socket name.
func stateRuntimeDir(getenv func(string) string) string {
	base := getenv("XDG_STATE_HOME")
	if !filepath.IsAbs(base) {
		home := getenv("HOME")
		if !filepath.IsAbs(home) || !stateDirUsable() {
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

// EnsureRuntimeDir creates the runtime folder (mode 0700) when missing
// and returns it once it is sure that the folder belongs to this user
// alone: a real folder (not a symbolic link), owned by this user, with no
// access for anyone else. A folder that is ours but was opened up to
// others (chmod is not governed by the sandbox) is closed again; one that
// someone else owns, or a link, is refused, since whoever controls it could
// answer in Wrasse's place.
func EnsureRuntimeDir() (string, error) { return ensureRuntimeDir(RuntimeDir()) }

func ensureRuntimeDir(dir string) (string, error) {
	// The state folder's wrasse/ may not exist yet; session and temporary
	// folders always do.
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return "", fmt.Errorf("create Wrasse's runtime folder %s: %w", dir, err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("create Wrasse's runtime folder %s: %w", dir, err)
	}
	if _, err := RestoreModes([]KeptMode{{Path: dir, Mode: 0o700, Dir: true}}); err != nil {
		return "", err
	}
	if err := CheckPrivate(dir, true, 0o700); err != nil {
		return "", runtimeDirProblem(dir, err)
	}
	return dir, nil
}

// CheckRuntimeDir checks, without changing anything, that the runtime
// folder exists and belongs to this user alone (see EnsureRuntimeDir).
// A folder that does not exist yields an error matching fs.ErrNotExist.
func CheckRuntimeDir() (string, error) { return checkRuntimeDir(RuntimeDir()) }

func checkRuntimeDir(dir string) (string, error) {
	if _, err := os.Lstat(dir); err != nil {
		return dir, err
	}
	if err := CheckPrivate(dir, true, 0o700); err != nil {
		return dir, runtimeDirProblem(dir, err)
	}
	return dir, nil
}

// runtimeDirProblem says what to do about a runtime folder that is not
// private.
func runtimeDirProblem(dir string, err error) error {
	return fmt.Errorf("Wrasse's runtime folder is not private to you: %w. Another user or program may have made it to "+
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
