package chat

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"

	"github.com/wrasse-app/wrasse/ui/confirm"
)

// HandleDrop attaches dropped files to the message being written
// (fileattach.go): their content goes with it, so a file from anywhere
// can be attached and no folder is granted for it. A dropped folder
// cannot be attached; outside the granted folders it comes with an offer
// to grant it, which the person confirms or declines (the folders
// granted never change without that answer).
func (c *Chat) HandleDrop(uris []fyne.URI) {
	var files, dirs []string
	folders := c.core.Folders()
	for _, u := range uris {
		if u == nil || u.Scheme() != "file" {
			continue
		}
		p := filepath.Clean(u.Path())
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			if !within(p, folders) && !slices.Contains(dirs, p) {
				dirs = append(dirs, p)
			}
			continue
		}
		files = append(files, p)
	}
	if len(files) > 0 {
		c.composer.attach(files)
		c.FocusComposer()
	}
	if len(dirs) > 0 && c.env.Window != nil {
		c.offerGrant(dirs)
	}
}

// offerGrant asks to add folders to the ones the assistant may use.
func (c *Chat) offerGrant(dirs []string) {
	msg := "Wrasse may not use files in:\n\n" + strings.Join(dirs, "\n") +
		"\n\nAllow it to work in " + plural(len(dirs), "this folder", "these folders") +
		" too? The folders it may use already stay as they are."
	confirm.Show("Grant folder access?", msg, "Allow", "Not now", func(ok bool) {
		if ok {
			c.grantFolders(dirs)
		}
	}, c.env.Window)
}

// grantFolders adds dirs to the granted folders, off the UI goroutine
// (it writes config.json), and says what it added. Two offers answered
// together both land: the core reads and changes the file under one lock.
func (c *Chat) grantFolders(dirs []string) {
	c.env.Go(func() {
		added, err := c.core.GrantFolders(dirs...)
		all := c.core.Folders()
		c.env.Do(func() {
			if c.env.Window == nil {
				return
			}
			if err != nil {
				dialog.ShowError(err, c.env.Window)
				return
			}
			dialog.ShowInformation("Folder access granted", grantedText(added, all), c.env.Window)
		})
	})
}

// grantedText says what a grant added and what is granted now.
func grantedText(added, all []string) string {
	var b strings.Builder
	if len(added) == 0 {
		b.WriteString("Nothing to add: Wrasse may already use " + plural(len(all), "that folder", "those folders") + ".")
	} else {
		b.WriteString("Added " + strings.Join(added, ", ") + ".")
	}
	b.WriteString("\n\nWrasse may now use:\n" + strings.Join(all, "\n") + "\n\nChange this in Settings → Folders.")
	return b.String()
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
