package chat

import (
	"fmt"
	"io"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"

	"github.com/wrasse-app/wrasse/brain/store"
)

// exportDialog asks where to save the conversation as Markdown.
func (c *Chat) exportDialog() {
	id := c.cur.id
	if id == 0 || c.env.Window == nil {
		return
	}
	conv, err := c.core.History().GetConversation(id)
	if err != nil {
		dialog.ShowError(err, c.env.Window)
		return
	}
	d := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		if err != nil {
			dialog.ShowError(err, c.env.Window)
			return
		}
		if w == nil {
			return // cancelled
		}
		c.exportTo(id, conv.Title, w)
	}, c.env.Window)
	d.SetFileName(exportName(conv.Title))
	d.Show()
}

// exportTo writes conversation id to the file the user chose and says
// where it went, or shows why it could not.
func (c *Chat) exportTo(id store.ID, title string, w fyne.URIWriteCloser) {
	path := w.URI().Path()
	c.export(id, title, w, func(err error) {
		if err != nil {
			dialog.ShowError(err, c.env.Window)
			return
		}
		c.showNotice("Exported to " + path)
	})
}

// export writes conversation id as Markdown to w in the background and
// closes it; done runs on the UI goroutine with the outcome.
func (c *Chat) export(id store.ID, title string, w io.WriteCloser, done func(error)) {
	c.env.Go(func() {
		err := func() error {
			events, err := c.core.History().Events(id)
			if err != nil {
				w.Close()
				return err
			}
			versions, err := c.exportVersions(id)
			if err != nil {
				w.Close()
				return err
			}
			md := withInstructions(exportWithVersions(title, events, versions), c.core, id) // convheader.go
			if _, err := io.WriteString(w, md); err != nil {
				w.Close()
				return fmt.Errorf("export the conversation: %w", err)
			}
			if err := w.Close(); err != nil {
				return fmt.Errorf("export the conversation: %w", err)
			}
			return nil
		}()
		c.env.Do(func() { done(err) })
	})
}

// exportVersions reads the versions not shown of conversation id's
// messages that have some (off the UI goroutine).
func (c *Chat) exportVersions(id store.ID) (exportVersions, error) {
	shown, err := c.core.History().Versions(id)
	if err != nil {
		return nil, err
	}
	out := exportVersions{}
	for seq, v := range shown {
		others, err := c.core.History().VersionEvents(id, seq)
		if err != nil {
			return nil, err
		}
		out[seq] = otherVersions{shown: v, others: others}
	}
	return out, nil
}
