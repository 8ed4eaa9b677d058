package cerebellum

import (
	"os"
	"path/filepath"
	"strings"
)

// ProjectMarkers are files and folders that mark the root of a project a
// script belongs to: its dependencies live there (node_modules, a virtual
// environment), often above the script itself (dist/index.js).
var ProjectMarkers = []string{"package.json", "node_modules", "pyproject.toml", "setup.py", "requirements.txt", ".venv",
	"uv.lock", "go.mod", "Cargo.toml", "pyvenv.cfg"}

// ProjectOf is the outermost folder from dir up, below the home folder,
// that holds a project marker; dir itself when none does; "" when dir is
// the home folder or holds it. The MCP sandbox lets a server read it, and
// an approval covers the code in it (LaunchFiles).
func ProjectOf(dir, home string) string {
	if HoldsHome(dir, home) {
		return ""
	}
	found := dir
	for d := dir; !HoldsHome(d, home); d = filepath.Dir(d) {
		for _, m := range ProjectMarkers {
			if _, err := os.Lstat(filepath.Join(d, m)); err == nil {
				found = d
				break
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return found
}

// PackageOf is the innermost folder from dir up, below the home folder,
// that holds a project marker: the package a file belongs to; dir itself
// when none does; "" when dir is the home folder or holds it.
func PackageOf(dir, home string) string {
	for d := dir; !HoldsHome(d, home); d = filepath.Dir(d) {
		for _, m := range ProjectMarkers {
			if _, err := os.Lstat(filepath.Join(d, m)); err == nil {
				return d
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if HoldsHome(dir, home) {
		return ""
	}
	return dir
}

// HoldsHome reports whether dir is the home folder or one that holds it
// (the root folder always counts as one).
func HoldsHome(dir, home string) bool {
	if dir == string(filepath.Separator) {
		return true
	}
	if home == "" {
		return false
	}
	rel, err := filepath.Rel(dir, home)
	return err == nil && (rel == "." || !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && rel != "..")
}
