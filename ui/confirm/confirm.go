// Package confirm is the window's yes-or-no question: a title, the
// question in words that wrap inside the dialog, its icon beside them, and
// buttons that say what they do.
//
// Fyne's own dialog.NewConfirm draws its question icon in the dialog's top
// corner, under the message's area, so a message of more than one line
// runs over the icon; and its message wraps as narrow as it can. Here the
// message is a word-wrapped label given a fixed width and the height its
// lines take at that width, with the icon in a column of its own.
package confirm

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// textWidth is the message's width when the window leaves room for it.
const textWidth float32 = 420

// iconSize is the question icon's side.
const iconSize float32 = 40

// Question is a confirm dialog and the parts a test looks at.
type Question struct {
	*dialog.ConfirmDialog
	// Message is the wrapped question; Icon the icon beside it.
	Message *widget.Label
	Icon    *widget.Icon
}

// New builds a confirm dialog on parent: yes labels the button that
// confirms (callback gets true), no the one that dismisses ("" keeps
// Fyne's Yes and No). Show it with Show.
func New(title, message, yes, no string, callback func(bool), parent fyne.Window) *Question {
	if yes == "" {
		yes = "Yes"
	}
	if no == "" {
		no = "No"
	}
	q := &Question{Message: widget.NewLabel(message), Icon: widget.NewIcon(theme.QuestionIcon())}
	q.Message.Wrapping = fyne.TextWrapWord
	width := textWidth
	if parent != nil && parent.Canvas() != nil {
		// A small window: the dialog keeps a margin on each side.
		if room := parent.Canvas().Size().Width - 2*iconSize - 6*theme.Padding() - 80; room > 0 && room < width {
			width = max(room, 160)
		}
	}
	icon := container.New(&fixedSize{size: fyne.NewSquareSize(iconSize)}, q.Icon)
	text := container.New(&wrapWidth{width: width}, q.Message)
	content := container.NewBorder(nil, nil, container.NewVBox(icon), nil, text)
	q.ConfirmDialog = dialog.NewCustomConfirm(title, yes, no, content, callback, parent)
	return q
}

// Show builds and shows a confirm dialog (see New).
func Show(title, message, yes, no string, callback func(bool), parent fyne.Window) *Question {
	q := New(title, message, yes, no, callback, parent)
	q.Show()
	return q
}

// wrapWidth lays out one word-wrapped object at a fixed width, and asks
// for the height its lines take there (a wrapped label alone asks for
// the width of its longest word).
type wrapWidth struct{ width float32 }

func (l *wrapWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	o := objs[0]
	if o.Size().Width != l.width {
		o.Resize(fyne.NewSize(l.width, o.Size().Height))
	}
	return fyne.NewSize(l.width, o.MinSize().Height)
}

func (l *wrapWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(size)
}

// fixedSize gives its one object a fixed size.
type fixedSize struct{ size fyne.Size }

func (l *fixedSize) MinSize([]fyne.CanvasObject) fyne.Size { return l.size }

func (l *fixedSize) Layout(objs []fyne.CanvasObject, _ fyne.Size) {
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(l.size)
}
