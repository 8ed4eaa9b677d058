package chat

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"

	"github.com/wrasse-app/wrasse/brain/workspace"
)

// HandleDrop attaches dropped files' paths to the composer. A file
// outside the folders the assistant may use comes with an offer to grant
// its folder (confirmed; it changes the folders setting).
func (c *Chat) HandleDrop(uris []fyne.URI) {
	var paths, outside []string
	folders := c.core.Folders()
	for _, u := range uris {
		if u == nil || u.Scheme() != "file" {
			continue
		}
		p := filepath.Clean(u.Path())
		paths = append(paths, p)
		if !within(p, folders) {
			dir := p
			if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
				dir = filepath.Dir(p)
			}
			if !slices.Contains(outside, dir) {
				outside = append(outside, dir)
			}
		}
	}
	if len(paths) == 0 {
		return
	}
	c.composer.attach(paths)
	c.FocusComposer()
	if len(outside) > 0 && c.env.Window != nil {
		c.offerGrant(outside)
	}
}

// offerGrant asks to add folders to the ones the assistant may use.
func (c *Chat) offerGrant(dirs []string) {
	msg := "Wrasse may not use files in:\n\n" + strings.Join(dirs, "\n") +
		"\n\nAllow it to work in " + plural(len(dirs), "this folder", "these folders") + "?"
	dialog.ShowConfirm("Grant folder access?", msg, func(ok bool) {
		if ok {
			c.grantFolders(dirs)
		}
	}, c.env.Window)
}

// grantFolders appends dirs to the folders setting.
func (c *Chat) grantFolders(dirs []string) error {
	_, err := c.core.UpdateConfig(func(cfg *workspace.Config) error {
		for _, d := range dirs {
			if !slices.Contains(cfg.Folders, d) {
				cfg.Folders = append(cfg.Folders, d)
			}
		}
		return nil
	})
	if err != nil && c.env.Window != nil {
		dialog.ShowError(err, c.env.Window)
	}
	return err
}

// within reports whether path lies in one of folders.
func within(path string, folders []string) bool {
	for _, f := range folders {
		rel, err := filepath.Rel(f, path)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return true
		}
	}
	return false
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
