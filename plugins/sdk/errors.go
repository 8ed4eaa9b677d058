package sdk

import (
	"errors"
	"fmt"
)

// ErrLink is returned, wrapped in an *fs.PathError, when a name beneath an
// open Dir passes through a symbolic link: Dir methods never follow one,
// so a link planted in a folder cannot carry a read or a write elsewhere.
var ErrLink = errors.New("symbolic link not followed")

// Errors of the file API that plugins have no reason to tell apart; they
// reach the model as text.
var (
	// errNoFolder: roots exist (the workspace, for a built-in) but the
	// person granted no folder, so a relative path has nowhere to start.
	errNoFolder = errors.New("no folder is granted, so a relative path has no folder to start from")
	// errChanged: what was opened is not what was looked at a moment
	// before (a link or a file swapped in between); nothing was done.
	errChanged = errors.New("changed while it was being opened; nothing was done, try again")
	errNotDir  = errors.New("not a folder")
	errIsDir   = errors.New("is a folder")
	// errSpecial: a device, pipe or socket, which a tool never opens
	// (opening a pipe would block the call).
	errSpecial = errors.New("not a regular file or folder")
	errName    = errors.New("not a name beneath the folder (absolute, empty, with .. or a NUL)")
	errLoop    = errors.New("too many levels of symbolic links")
	// errLinkOutside: os.Root refused a name that turned out to be a
	// link leading out of the folder (put in place of a file after the
	// file was looked at); it was not followed.
	errLinkOutside = fmt.Errorf("%w: it is a symbolic link leading outside the folder", ErrLink)
	// errCredentialLink: a symbolic link leads to a file named like a
	// credential store (.env, id_rsa…). The gate asks every time for a
	// path that names one, but it checks a link before the tool opens
	// it, and the link can change in between; name the file itself.
	errCredentialLink = errors.New("leads through a symbolic link to a file that holds keys or passwords (such as .env or id_rsa); name that file itself to read it")
)
