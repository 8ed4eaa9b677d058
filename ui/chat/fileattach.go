package chat

import (
	"errors"
	"fmt"
	"github.com/wrasse-app/wrasse/ui/tip"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/attach"
)

// Files the person attaches (dropped on the window, pasted as paths, or
// picked with the paperclip) are read off the UI goroutine
// (App.ReadAttachment, which refuses Wrasse's own files) into chips beside the resources' ones: an image with a
// small thumbnail, a text, code or PDF with its size and what would be
// cut; a file that cannot go (too big, binary, unreadable) stays as a red
// chip saying why, and blocks sending until removed, so nothing is
// dropped silently. Attaching grants no folder: the file's content goes
// in the message (assistant.FilesMessage), and its path goes with the
// turn (TurnOptions.Files), so fs_read reads that one file, in that
// conversation only.

// attachedFile is one file chip.
type attachedFile struct {
	path    string
	file    attach.File
	loading bool
	err     error
	chip    *fyne.Container
	text    *widget.Label
	icon    *fyne.Container
	remove  *tip.Button
}

// attachFiles reads paths into chips; a path attached already is not
// attached again.
func (a *attachments) attachFiles(paths []string) {
	env := a.m.k.c.env
	for _, p := range paths {
		if slices.ContainsFunc(a.files, func(f *attachedFile) bool { return f.path == p }) {
			continue
		}
		at := &attachedFile{path: p, loading: true}
		a.addFile(at)
		env.Go(func() {
			f, err := a.m.k.c.core.ReadAttachment(p)
			env.Do(func() {
				if !slices.Contains(a.files, at) {
					return // removed while it was read
				}
				at.loading, at.file, at.err = false, f, err
				a.drawFile(at)
				a.m.k.refreshNote()
			})
		})
	}
}

// attachPastedImage reads the clipboard's picture (read, off the UI
// goroutine) into a chip named "pasted image N.png"; a clipboard with no
// picture says so in the composer. The picture has no path, so fs_read has
// nothing to read: it travels in the message only.
func (a *attachments) attachPastedImage(read func() []byte) {
	env := a.m.k.c.env
	a.pasted++
	at := &attachedFile{path: fmt.Sprintf("pasted image %d.png", a.pasted), loading: true}
	a.addFile(at)
	env.Go(func() {
		var f attach.File
		err := errNoPicture
		if data := read(); len(data) > 0 {
			f, err = attach.Parse(at.path, data)
		}
		env.Do(func() {
			if !slices.Contains(a.files, at) {
				return
			}
			if errors.Is(err, errNoPicture) {
				a.removeFile(at)
				a.m.k.block("The clipboard holds no text or picture to paste.")
				return
			}
			at.loading, at.file, at.err = false, f, err
			a.drawFile(at)
			a.m.k.refreshNote()
		})
	})
}

// errNoPicture: the clipboard held neither text nor a picture.
var errNoPicture = errors.New("the clipboard holds no picture")

func (a *attachments) addFile(at *attachedFile) {
	at.text = widget.NewLabel("")
	at.remove = tip.NewButton("", theme.CancelIcon(), "Remove "+filepath.Base(at.path)+" from the message", func() { a.removeFile(at) })
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	bg.CornerRadius = theme.Size(theme.SizeNameInputRadius)
	at.icon = container.NewStack(widget.NewIcon(theme.FileIcon()))
	at.chip = container.NewStack(bg, container.NewBorder(nil, nil, at.icon, at.remove, at.text))
	a.files = append(a.files, at)
	a.chips.Add(at.chip)
	a.drawFile(at)
	a.chips.Show()
	a.m.k.c.relayout()
}

// chipThumb is the side of an image chip's thumbnail.
const chipThumb = 28

// drawFile shows a file chip's state.
func (a *attachments) drawFile(at *attachedFile) {
	name := filepath.Base(at.path)
	if r := []rune(name); len(r) > chipMaxRunes {
		name = string(r[:chipMaxRunes-1]) + "…"
	}
	s := name
	at.text.Importance = widget.MediumImportance
	switch {
	case at.loading:
		s += " (reading…)"
	case at.err != nil:
		if s = reason(at.err); !strings.Contains(s, filepath.Base(at.path)) {
			s = name + ": " + s
		}
		at.text.Importance = widget.DangerImportance
		at.icon.Objects = []fyne.CanvasObject{widget.NewIcon(theme.ErrorIcon())}
	default:
		f := at.file
		s += " · " + f.Kind.String() + " · " + attach.Size(f.Size)
		if f.Cut != "" {
			s += " · " + f.Cut
		}
		if f.Kind == attach.Image {
			// Kept at chip size (thumbs.go says why).
			var img *canvas.Image
			if pic := thumbImage(f.Data, fyne.NewSquareSize(chipThumb)); pic != nil {
				img = canvas.NewImageFromImage(pic)
			} else {
				img = canvas.NewImageFromResource(fyne.NewStaticResource(name, f.Data))
			}
			img.FillMode = canvas.ImageFillContain
			img.ScaleMode = canvas.ImageScaleFastest
			img.SetMinSize(fyne.NewSquareSize(chipThumb))
			at.icon.Objects = []fyne.CanvasObject{img}
		}
	}
	at.text.SetText(s)
	at.remove.Tip = "Remove " + filepath.Base(at.path) + " from the message"
	if at.err != nil {
		at.remove.Tip += " (" + at.err.Error() + ")"
	}
	at.icon.Refresh()
	at.text.Refresh()
}

// reason is the part of an attach error the chip shows: the sentence
// after the file's name (the chip names the file).
func reason(err error) string {
	msg := err.Error()
	for _, e := range []error{attach.ErrTooBig, attach.ErrBinary, attach.ErrUnreadable, attach.ErrNoText} {
		if errors.Is(err, e) {
			msg = strings.TrimPrefix(msg, e.Error()+": ")
		}
	}
	return msg
}

// removeFile drops a file chip.
func (a *attachments) removeFile(at *attachedFile) {
	i := slices.Index(a.files, at)
	if i < 0 {
		return
	}
	a.files = slices.Delete(a.files, i, i+1)
	a.chips.Remove(at.chip)
	if len(a.files) == 0 && len(a.list) == 0 {
		a.chips.Hide()
	}
	a.m.k.blocked = "" // what blocked sending may have gone with it
	a.m.k.refreshNote()
	a.m.k.c.relayout()
}

// fileImages counts the images among the attached files.
func (a *attachments) fileImages() int {
	n := 0
	for _, at := range a.files {
		if !at.loading && at.err == nil && at.file.Kind == attach.Image {
			n++
		}
	}
	return n
}

// pastedPaths are the files a pasted text names, when every line of it
// is an absolute path of an existing file or a file: URI (what a file
// manager's Copy puts on the clipboard as text); nil otherwise, so that
// pasted text stays text.
func pastedPaths(text string) []string {
	var out []string
	for line := range strings.Lines(strings.TrimSpace(text)) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "file://") {
			u, err := url.Parse(line)
			if err != nil {
				return nil
			}
			line = u.Path
		}
		if !filepath.IsAbs(line) {
			return nil
		}
		fi, err := os.Stat(line)
		if err != nil || fi.IsDir() {
			return nil
		}
		out = append(out, filepath.Clean(line))
	}
	return out
}

// pickFile opens the file chooser and attaches the file chosen.
func (k *composer) pickFile() {
	w := k.c.env.Window
	if w == nil {
		return
	}
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			dialog.ShowError(err, w)
			return
		}
		if r == nil {
			return // cancelled
		}
		p := r.URI().Path()
		_ = r.Close() // attach.Read opens it again, off the UI goroutine
		k.menu.attachFiles([]string{p})
		k.c.FocusComposer()
	}, w)
	d.Resize(fyne.NewSize(min(w.Canvas().Size().Width-40, 800), min(w.Canvas().Size().Height-40, 560)))
	d.Show()
}
