package workspace

import "path/filepath"

// Protected lists the workspace paths that tools must not touch, in the
// two classes the path rules and the OS sandbox enforce:
//
//   - noAccess: never read or written by any tool or command: the database
//     (which holds the secrets) with its SQLite side files, config.json,
//     the .cache folder and the logs;
//   - readOnly: readable but never written by a tool: the capability folder
//     (skills ship scripts the model runs; new code arrives only through
//     skill_create, which installs it disabled), and the staging and trash
//     folders capabilities are installed and restored from.
//
// Paths are absolute when Root is.
func (w Workspace) Protected() (noAccess, readOnly []string) {
	db := w.Database()
	noAccess = []string{db, db + "-wal", db + "-shm", db + "-journal", w.Config(),
		filepath.Join(w.Root, ".cache"), filepath.Dir(w.Log())}
	readOnly = []string{w.Capabilities(), w.Staging(), w.Trash()}
	return noAccess, readOnly
}
