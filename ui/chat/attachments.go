package chat

import (
	"context"
	"fmt"
	"github.com/wrasse-app/wrasse/ui/tip"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/attach"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/plugins/mcp"
)

// Resources attached to the message being written show as chips above
// it. A chosen resource is read at once and, when its server offers
// subscriptions, subscribed to: a change read again replaces the chip's
// content (marked "updated"), so the message carries the version current
// when it is sent. Sending takes the chips' contents into the message
// (assistant.AttachedMessage: text in a block naming server and URI; an
// image as an image of the message, which a model that reads images sees
// and one that does not has described; other binary content named, not
// sent) and clears them, ending their subscriptions: the sent message keeps the
// version it carried, and a later message attaches the resource again
// for a newer one.

// attached is one chip.
type attached struct {
	server, uri, label string
	contents           []mcp.ResourceContent
	loading            bool
	err                error
	updates            int
	unsubscribe        func()
	chip               *fyne.Container
	text               *widget.Label
}

// attachments are the chips of the message being written.
type attachments struct {
	m     *composerMenu
	list  []*attached
	files []*attachedFile // fileattach.go
	chips *fyne.Container
	// pasted counts the pictures pasted, to name them.
	pasted int
}

func (a *attachments) init(m *composerMenu) {
	a.m = m
	a.chips = container.New(layout.NewRowWrapLayout())
	a.chips.Hide()
}

// attach reads server's resource uri into a new chip and subscribes to
// its changes.
func (a *attachments) attach(server, uri, label string) {
	for _, at := range a.list {
		if at.server == server && at.uri == uri {
			return // attached already
		}
	}
	at := &attached{server: server, uri: uri, label: label, loading: true}
	a.add(at)
	env, core := a.m.k.c.env, a.m.k.c.core
	env.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), menuTimeout)
		defer cancel()
		contents, err := core.ReadMCPResource(ctx, server, uri)
		var unsubscribe func()
		if err == nil {
			// A server without subscriptions refuses; the chip keeps what
			// was read.
			unsubscribe, _ = core.SubscribeMCPResource(ctx, server, uri, func() { env.Go(func() { a.reread(at) }) })
		}
		env.Do(func() {
			if !slices.Contains(a.list, at) {
				if unsubscribe != nil {
					env.Go(unsubscribe)
				}
				return
			}
			at.loading, at.err, at.contents, at.unsubscribe = false, err, contents, unsubscribe
			a.draw(at)
		})
	})
}

// reread reads a subscribed resource again after its server said it
// changed (on a background goroutine).
func (a *attachments) reread(at *attached) {
	env, core := a.m.k.c.env, a.m.k.c.core
	ctx, cancel := context.WithTimeout(context.Background(), menuTimeout)
	defer cancel()
	contents, err := core.ReadMCPResource(ctx, at.server, at.uri)
	env.Do(func() {
		if !slices.Contains(a.list, at) || err != nil {
			return // removed or sent; or the old version stays
		}
		at.contents = contents
		at.updates++
		a.draw(at)
	})
}

// addContent attaches content a prompt returned (nothing to read again).
func (a *attachments) addContent(server string, c mcp.ResourceContent) {
	label := c.URI
	if label == "" {
		label = cmpOr(c.MIMEType, "content")
	}
	a.add(&attached{server: server, uri: c.URI, label: label, contents: []mcp.ResourceContent{c}})
}

func (a *attachments) add(at *attached) {
	at.text = widget.NewLabel("")
	remove := tip.NewButton("", theme.CancelIcon(), "Remove this resource from the message", func() { a.remove(at) })
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	bg.CornerRadius = theme.Size(theme.SizeNameInputRadius)
	icon := widget.NewIcon(theme.FileIcon())
	at.chip = container.NewStack(bg, container.NewBorder(nil, nil, icon, remove, at.text))
	a.list = append(a.list, at)
	a.chips.Add(at.chip)
	a.draw(at)
	a.chips.Show()
	a.m.k.c.relayout()
}

// chipMaxRunes keeps one long URI from pushing the other chips out.
const chipMaxRunes = 48

// draw shows a chip's state.
func (a *attachments) draw(at *attached) {
	s := at.server + ": " + at.label
	if r := []rune(s); len(r) > chipMaxRunes {
		s = string(r[:chipMaxRunes-1]) + "…"
	}
	switch {
	case at.loading:
		s += " (reading…)"
	case at.err != nil:
		s += " (failed: " + at.err.Error() + ")"
	default:
		n := 0
		for _, c := range at.contents {
			n += len(c.Text) + len(c.Blob)
		}
		s += " · " + byteSize(n)
		if at.updates > 0 {
			s += " · updated"
		}
	}
	at.text.SetText(s)
	if at.err != nil {
		at.text.Importance = widget.DangerImportance
	}
	at.text.Refresh()
}

func byteSize(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// remove drops a chip and its subscription.
func (a *attachments) remove(at *attached) {
	i := slices.Index(a.list, at)
	if i < 0 {
		return
	}
	a.list = slices.Delete(a.list, i, i+1)
	a.chips.Remove(at.chip)
	if at.unsubscribe != nil {
		a.m.k.c.env.Go(at.unsubscribe)
	}
	if len(a.list) == 0 && len(a.files) == 0 {
		a.chips.Hide()
	}
	a.m.k.c.relayout()
}

// message is text with the attached resources' and files' contents, and
// the images among them; not ok while one is still being read or failed
// (the composer says so).
func (a *attachments) message(text string) (string, []provider.Image, []string, bool) {
	var atts []assistant.Attachment
	var waiting, failed []string
	for _, at := range a.list {
		switch {
		case at.loading:
			waiting = append(waiting, at.label)
		case at.err != nil:
			failed = append(failed, at.label)
		default:
			atts = append(atts, assistant.Attachment{Server: at.server, URI: at.uri, Contents: at.contents})
		}
	}
	var files []attach.File
	var paths []string // readable by fs_read in the conversation (TurnOptions.Files)
	for _, at := range a.files {
		name := filepath.Base(at.path)
		switch {
		case at.loading:
			waiting = append(waiting, name)
		case at.err != nil:
			failed = append(failed, name)
		default:
			files = append(files, at.file)
			if at.file.Path != "" { // a pasted picture has none
				paths = append(paths, at.file.Path)
			}
		}
	}
	switch {
	case len(waiting) > 0:
		a.m.k.block("Still reading " + strings.Join(waiting, ", ") + "; send again in a moment.")
		return "", nil, nil, false
	case len(failed) > 0:
		a.m.k.block("Could not attach " + strings.Join(failed, ", ") + "; remove " + plural(len(failed), "it", "them") + " to send (× on the chip).")
		return "", nil, nil, false
	}
	msg, images := assistant.AttachedMessage(text, atts)
	msg, images = assistant.FilesMessage(msg, files, images)
	return msg, images, paths, true
}

// clear drops every chip (the message was sent, or the chat closes).
func (a *attachments) clear() {
	for len(a.list) > 0 {
		a.remove(a.list[len(a.list)-1])
	}
	for len(a.files) > 0 {
		a.removeFile(a.files[len(a.files)-1])
	}
}
