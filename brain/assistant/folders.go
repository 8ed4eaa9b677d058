package assistant

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/wrasse-app/wrasse/brain/workspace"
)

// A new workspace grants no folder (workspace.Config.Folders): the file
// and shell tools may use none until the person picks some. These are the
// methods the window's first-run offer, the Folders page and a drop's
// offer use to grant them, one click each, never replacing what is
// granted.

// SuggestedFolders are the common folders that exist (Documents, Desktop,
// a projects folder: workspace.CommonFolders) and are not granted yet,
// nor inside a granted one.
func (a *App) SuggestedFolders() []string {
	granted := a.Folders()
	var out []string
	for _, f := range workspace.CommonFolders(a.home(), a.opts.Getenv("XDG_CONFIG_HOME")) {
		if !coveredBy(f, granted) {
			out = append(out, f)
		}
	}
	return out
}

// HomeFolder is the user's home folder: granting it grants everything in
// it, which the window warns about.
func (a *App) HomeFolder() string { return filepath.Clean(a.home()) }

// GrantFolders adds folders to the granted ones (config.json folders),
// keeping those already granted, and returns what it added: a folder
// already granted, or inside a granted one, adds nothing. Each must be an
// existing folder; ~ means the home folder. Concurrent grants all land:
// the file is read afresh and changed under the config lock.
func (a *App) GrantFolders(folders ...string) (added []string, err error) {
	p := a.policy()
	var want []string
	for _, f := range folders {
		abs := p.abs(f)
		fi, err := os.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("%w: grant %s: %w", workspace.ErrBadValue, f, err)
		}
		if !fi.IsDir() {
			return nil, fmt.Errorf("%w: grant %s: not a folder; grant the folder that holds it", workspace.ErrBadValue, f)
		}
		want = append(want, abs)
	}
	_, err = a.UpdateConfig(func(c *workspace.Config) error {
		added = nil
		granted := (Policy{Folders: c.Folders, Home: p.Home}).allowed()
		for _, f := range want {
			if coveredBy(f, granted) {
				continue
			}
			c.Folders = append(c.Folders, f)
			granted = append(granted, f)
			added = append(added, f)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return added, nil
}

// RevokeFolder removes folder from the granted ones (as written, or as
// the absolute path it means).
func (a *App) RevokeFolder(folder string) error {
	p := a.policy()
	abs := p.abs(folder)
	_, err := a.UpdateConfig(func(c *workspace.Config) error {
		c.Folders = slices.DeleteFunc(c.Folders, func(f string) bool { return f == folder || p.abs(f) == abs })
		return nil
	})
	return err
}

// coveredBy reports whether folder is one of granted or lies inside one.
func coveredBy(folder string, granted []string) bool {
	for _, g := range granted {
		if within(folder, g) {
			return true
		}
	}
	return false
}
