package chat

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// composer is where a message is written: a multi-line entry (Enter
// sends, Shift+Enter adds a line, Esc stops) and Send, which turns into
// Stop while a turn runs. Editing a sent message shows a banner.
type composer struct {
	c       *Chat
	entry   *composerEntry
	send    *widget.Button
	banner  *fyne.Container
	menu    *composerMenu // / prompts, @ resources, attached chips
	running bool
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
	}
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
	cancel := widget.NewButtonWithIcon("", theme.CancelIcon(), func() {
		c.editing = nil
		k.endEdit()
		k.entry.SetText("")
	})
	cancel.Importance = widget.LowImportance
	note := widget.NewLabel("Editing a message: sending replaces it and everything after it.")
	note.Importance = widget.WarningImportance
	k.banner = container.NewBorder(nil, nil, nil, cancel, note)
	k.banner.Hide()
	top := container.NewVBox(k.banner, k.menu.panel, k.menu.chips)
	k.object = container.NewPadded(container.NewBorder(top, nil, k.menu.plus, k.send, k.entry))
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
		return
	}
	text, images, ok := k.menu.message(k.entry.Text)
	if ok && k.c.send(text, images...) {
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
}

// edit puts a sent message in the composer to be changed and resent.
func (k *composer) edit(text string) {
	k.entry.SetText(text)
	k.banner.Show()
}

func (k *composer) endEdit() { k.banner.Hide() }

// attach adds file paths to the message, one a line.
func (k *composer) attach(paths []string) {
	text := k.entry.Text
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	k.entry.SetText(text + strings.Join(paths, "\n"))
}

// composerEntry is a multi-line Entry where Enter sends and Shift+Enter
// adds a line (Fyne's own multi-line entry does the opposite).
type composerEntry struct {
	widget.Entry
	c        *Chat
	shift    bool
	onSend   func()
	onEscape func()
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
	if cs, ok := s.(*desktop.CustomShortcut); ok && windowShortcut(cs) && e.c.env.Window != nil {
		if h, ok := e.c.env.Window.Canvas().(interface{ TypedShortcut(fyne.Shortcut) }); ok {
			h.TypedShortcut(s)
			return
		}
	}
	e.Entry.TypedShortcut(s)
}

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
