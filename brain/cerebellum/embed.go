package builtin

import (
	"embed"
	"io/fs"
)

// files holds every capability folder that ships with the app. The `all:`
// prefix keeps files such as plugin/_helpers.go; Go sources of plugins are
// embedded as text and interpreted at run time.
//
//go:embed all:*
var files embed.FS

// FS returns the built-in capability folders: one directory per capability,
// each holding a SKILL.md. It is read-only.
func FS() fs.FS { return files }
