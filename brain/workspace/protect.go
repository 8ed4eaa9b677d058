package workspace

import "path/filepath"

// Protected lists the paths that tools must not touch, in the two classes
// the path rules and the OS sandbox enforce:
//
//   - noAccess: never read or written by any tool or command: the database
//     (which holds the secrets) with its SQLite side files, config.json,
//     the .cache folder and the logs, and the user's Wrasse runtime folder
//     (RuntimeDir), which holds the instance sockets and the launch tokens
//     that let a program drive a running Wrasse: a sandboxed program must
//     not read a token nor put a socket of its own in Wrasse's place;
//   - readOnly: readable but never written by a tool: the capability folder
//     (skills ship scripts the model runs; new code arrives only through
//     skill_create, which installs it disabled), and the staging and trash
//     folders capabilities are installed and restored from; in fact the
//     whole workspace (Root), so that no tool rewrites brain/identity.md,
//     the prompt every turn starts with.
//
// Paths are absolute when Root is.
func (w Workspace) Protected() (noAccess, readOnly []string) {
	db := w.Database()
	noAccess = []string{db, db + "-wal", db + "-shm", db + "-journal", w.Config(),
		filepath.Join(w.Root, ".cache"), filepath.Dir(w.Log()), RuntimeDir()}
	readOnly = []string{w.Capabilities(), w.Staging(), w.Trash()}
	return noAccess, append(readOnly, w.Root)
}

// KeptModes are the workspace paths whose modes Wrasse keeps: the
// workspace folder 0700, the database and config.json 0600. chmod is not
// governed by the sandbox, so a command can open them to other users;
// RestoreModes closes them again.
func (w Workspace) KeptModes() []KeptMode {
	return []KeptMode{{Path: w.Root, Mode: 0o700, Dir: true}, {Path: w.Database(), Mode: 0o600}, {Path: w.Config(), Mode: 0o600}}
}
