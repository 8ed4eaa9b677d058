package workspace

import "errors"

// ErrNotPrivate means a path that must belong to this user alone (the
// runtime folder, the instance socket, its launch token) does not: it is a
// link, another user's, or open to others.
var ErrNotPrivate = errors.New("not private to you")
