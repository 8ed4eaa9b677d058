package cerebellum

import "path/filepath"

// StagingDir is where installs are prepared, inside the workspace so the
// final move is a rename on one file system.
func StagingDir(workspace string) string { return filepath.Join(workspace, ".staging") }

// TrashDir holds removed capabilities.
func TrashDir(workspace string) string { return filepath.Join(workspace, ".trash") }
