package chat

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/wrasse-app/wrasse/ui/tip"
)

// composer is where a message is written: a multi-line entry (Enter
// sends, Shift+Enter adds a line, Esc stops; Tab and Shift+Tab move the
// focus on, Ctrl+Tab types a tab), the paperclip that attaches a file,
// and Send, which turns into Stop while a turn runs. Editing a sent
// message shows a banner; a note above the entry says why Enter did not
// send, or warns that the model will not see the attached images.
type composer struct {
	c       *Chat
	entry   *composerEntry
	send    *widget.Button
	clip    *tip.Button
	banner  *fyne.Container
	note    *widget.Label
	menu    *composerMenu // / prompts, @ resources, attached chips
	running bool
	// blocked says why Enter did not send (an approval waits, an
	// attached file is still read or failed); the note shows it until the
	// person types, the turn ends or the file is removed.
	blocked string
	rows    int // lines the entry shows
	object  fyne.CanvasObject
}

func newComposer(c *Chat) *composer {
	k := &composer{c: c, rows: composerMinRows}
	k.entry = newComposerEntry(c)
	k.entry.SetPlaceHolder("Message Wrasse (Enter sends, Shift+Enter adds a line)")
	k.entry.onSend = k.submit
	k.menu = newComposerMenu(k)
	k.entry.OnChanged = func(s string) {
		k.grow()
		k.menu.textChanged(s)
		if k.blocked != "" {
			k.block("")
		}
	}
	k.entry.onPaste = k.paste
	k.entry.onKey = k.menu.key
	k.entry.onEscape = func() {
		if k.running {
			c.Stop()
		} else if c.editing != nil {
			c.editing = nil
			k.endEdit()
			k.entry.SetText("")
		}
	}
	k.send = widget.NewButtonWithIcon("Send", theme.MailSendIcon(), k.tapped)
	k.send.Importance = widget.HighImportance
	cancel := tip.NewButton("", theme.CancelIcon(), "Stop editing: the message stays as it was", func() {
		c.editing = nil
		k.endEdit()
		k.entry.SetText("")
	})
	note := widget.NewLabel("Editing a message: sending replaces it and everything after it.")
	note.Importance = widget.WarningImportance
	k.banner = container.NewBorder(nil, nil, nil, cancel, note)
	k.banner.Hide()
	k.note = widget.NewLabel("")
	k.note.Wrapping = fyne.TextWrapWord
	k.note.Importance = widget.WarningImportance
	k.note.Hide()
	k.clip = tip.NewButton("", theme.MailAttachmentIcon(), "Attach a file: an image, a text or code file, or a PDF (or drop it on the window)", k.pickFile)
	top := container.NewVBox(k.banner, k.menu.panel, k.menu.chips, k.note)
	k.object = container.NewPadded(container.NewBorder(top, nil, container.NewHBox(k.menu.plus, k.clip), k.send, k.entry))
	return k
}

func (k *composer) tapped() {
	if k.running {
		k.c.Stop()
		return
	}
	k.submit()
}

func (k *composer) submit() {
	if k.running {
		// Enter while an approval waits would otherwise do nothing at
		// all: say what the turn waits for.
		if len(k.c.approvals.For(k.c.cur.id.String())) > 0 {
			k.block(blockedNote)
		}
		return
	}
	text, images, files, ok := k.menu.message(k.entry.Text)
	if ok && k.c.send(text, files, images...) {
		k.entry.SetText("")
		k.menu.clear()
	}
}

// The composer shows between composerMinRows and composerMaxRows lines,
// as many as its text takes; beyond that it scrolls.
const composerMinRows, composerMaxRows = 2, 8

// grow fits the composer to its text's lines, wrapped at its width.
func (k *composer) grow() {
	e := k.entry
	th := e.Theme()
	width := e.Size().Width - 4*th.Size(theme.SizeNameInnerPadding)
	size := th.Size(theme.SizeNameText)
	measure := func(s string) float32 { return fyne.MeasureText(s, size, e.TextStyle).Width }
	rows := 0
	if width > 0 {
		rows = len(wrapLines(e.Text, width, measure))
	} else {
		rows = strings.Count(e.Text, "\n") + 1
	}
	rows = min(max(rows, composerMinRows), composerMaxRows)
	if rows != k.rows {
		k.rows = rows
		e.SetMinRowsVisible(rows)
		k.c.relayout()
	}
}

// setRunning turns Send into Stop while a turn runs.
func (k *composer) setRunning(running bool) {
	k.running = running
	if running {
		k.send.SetText("Stop")
		k.send.SetIcon(theme.MediaStopIcon())
		k.send.Importance = widget.DangerImportance
	} else {
		k.send.SetText("Send")
		k.send.SetIcon(theme.MailSendIcon())
		k.send.Importance = widget.HighImportance
	}
	k.send.Refresh()
	if !running {
		k.blocked = ""
	}
	k.refreshNote()
}

// block shows why Enter did not send ("" clears it).
func (k *composer) block(why string) {
	k.blocked = why
	k.refreshNote()
}

// blockedNote is the composer's note after Enter while an approval waits.
const blockedNote = "Answer the approval above first (Ctrl+Enter approves): the reply waits for it, and your message is kept."

// refreshNote shows why Enter did not send, else a warning that the
// model will not see the attached images, else nothing.
func (k *composer) refreshNote() {
	text := ""
	switch {
	case k.blocked != "":
		text = k.blocked
	case k.menu.fileImages() > 0:
		model, _ := k.c.picker.current()
		if !k.c.core.SeesImages(model) {
			text = model + " does not read images, as far as Wrasse knows: it will be told only that " +
				plural(k.menu.fileImages(), "an image was", "images were") +
				" attached. Choose a model that reads images, or set imageInput to on if this one does."
		}
	}
	if text == k.note.Text && k.note.Visible() == (text != "") {
		return
	}
	k.note.SetText(text)
	setVisible(k.note, text != "")
	k.c.relayout()
}

// edit puts a sent message in the composer to be changed and resent.
func (k *composer) edit(text string) {
	k.entry.SetText(text)
	k.banner.Show()
}

func (k *composer) endEdit() { k.banner.Hide() }

// attach attaches files to the message, as chips.
func (k *composer) attach(paths []string) { k.menu.attachFiles(paths) }

// paste attaches the files a pasted text names (a file manager's Copy
// gives paths or file: URIs as text), or, when the clipboard holds no
// text, the picture it holds (a screenshot, an image copied in a browser:
// Fyne's clipboard carries text only, so env.PasteImage reads it); true
// when it did.
func (k *composer) paste(text string) bool {
	if paths := pastedPaths(text); len(paths) > 0 {
		k.attach(paths)
		return true
	}
	if text != "" || k.c.env.PasteImage == nil {
		return false
	}
	k.menu.attachPastedImage(k.c.env.PasteImage)
	return true
}

// composerEntry is a multi-line Entry where Enter sends and Shift+Enter
// adds a line (Fyne's own multi-line entry does the opposite).
type composerEntry struct {
	widget.Entry
	c        *Chat
	shift    bool
	onSend   func()
	onEscape func()
	// onPaste sees pasted text first; true means it took it.
	onPaste func(string) bool
	// onKey sees keys first (the prompts and resources menu); true
	// means it took the key.
	onKey func(*fyne.KeyEvent) bool
}

func newComposerEntry(c *Chat) *composerEntry {
	e := &composerEntry{c: c}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	e.SetMinRowsVisible(2)
	e.ExtendBaseWidget(e)
	return e
}

func (e *composerEntry) KeyDown(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		e.shift = true
	}
	e.Entry.KeyDown(k)
}

func (e *composerEntry) KeyUp(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		e.shift = false
	}
	e.Entry.KeyUp(k)
}

func (e *composerEntry) TypedKey(k *fyne.KeyEvent) {
	if e.onKey != nil && e.onKey(k) {
		return
	}
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		if !e.shift {
			e.onSend()
			return
		}
	case fyne.KeyEscape:
		e.onEscape()
		return
	}
	e.Entry.TypedKey(k)
}

// TypedShortcut passes the window's own shortcuts (Ctrl/Cmd+F, +N, +,)
// on to the window: a focused widget otherwise swallows them.
func (e *composerEntry) TypedShortcut(s fyne.Shortcut) {
	switch s := s.(type) {
	case *fyne.ShortcutPaste:
		if e.onPaste != nil && e.onPaste(clipboardText(s.Clipboard)) {
			return
		}
	case *desktop.CustomShortcut:
		if s.KeyName == fyne.KeyTab && s.Modifier == fyne.KeyModifierControl {
			e.TypedRune('\t') // Tab moves the focus on; Ctrl+Tab types one
			return
		}
	}
	if cs, ok := s.(*desktop.CustomShortcut); ok && windowShortcut(cs) && e.c.env.Window != nil {
		if h, ok := e.c.env.Window.Canvas().(interface{ TypedShortcut(fyne.Shortcut) }); ok {
			h.TypedShortcut(s)
			return
		}
	}
	e.Entry.TypedShortcut(s)
}

// AcceptsTab is false: Tab and Shift+Tab move the focus out of the
// composer, as in every other field, so a keyboard user can reach the
// rest of the window (a multi-line Entry takes Tab as text).
func (e *composerEntry) AcceptsTab() bool { return false }

func windowShortcut(cs *desktop.CustomShortcut) bool {
	if cs.Modifier&(fyne.KeyModifierControl|fyne.KeyModifierSuper) == 0 {
		return false
	}
	switch cs.KeyName {
	case fyne.KeyF, fyne.KeyN, fyne.KeyComma, fyne.KeyW, fyne.KeyQ:
		return true
	}
	return false
}

// clipboardText is c's text, "" without a clipboard.
func clipboardText(c fyne.Clipboard) string {
	if c == nil {
		return ""
	}
	return c.Content()
}
