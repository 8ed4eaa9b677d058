package workspace

import (
	"os"
	"path/filepath"
)

// Protected lists the paths that tools must not touch, in the two classes
// the path rules and the OS sandbox enforce:
//
//   - noAccess: never read or written by any tool or command: the database
//     (which holds the secrets) with its SQLite side files, config.json,
//     the .cache folder and the logs, and every folder the user's Wrasse
//     runtime folder may be in this environment (RuntimeCandidates), which
//     holds the instance sockets and the launch tokens that let a program
//     drive a running Wrasse: a sandboxed program must not read a token
//     nor put a folder or socket of its own where a Wrasse would look;
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
		filepath.Join(w.Root, ".cache"), filepath.Dir(w.Log())}
	noAccess = append(noAccess, RuntimeCandidates(os.Getenv)...)
	readOnly = []string{w.Capabilities(), w.Staging(), w.Trash()}
	return noAccess, append(readOnly, w.Root)
}

// RepoMemory is where the sandbox's launcher keeps the git repositories
// it found beneath the granted folders (sandbox.Protected.RepoMemory): in
// the cache, which no sandbox reaches.
func (w Workspace) RepoMemory() string { return filepath.Join(w.Root, ".cache", "sandbox-repos") }

// KeptModes are the workspace paths whose modes Wrasse keeps: the
// workspace folder 0700, the database and config.json 0600. chmod is not
// governed by the sandbox, so a command can open them to other users;
// RestoreModes closes them again. A root that is a symbolic link (or lies
// under one) is kept by the path it resolves to now, since RestoreModes
// never follows a link: call it once, when the workspace opens and before
// anything runs in a sandbox, and keep the list, so that a link changed
// later cannot point the repair at another folder.
func (w Workspace) KeptModes() []KeptMode {
	root := w.Root
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	r := Workspace{Root: root}
	return []KeptMode{{Path: r.Root, Mode: 0o700, Dir: true}, {Path: r.Database(), Mode: 0o600}, {Path: r.Config(), Mode: 0o600}}
}
