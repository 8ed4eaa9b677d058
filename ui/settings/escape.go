package settings

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Esc leaves the settings for the chat whatever has the keyboard. The
// window handles Esc in its canvas's key handler, which Fyne calls only
// when no widget has the focus; a check box, a select or an entry takes
// the focus when clicked (a capability's switch, say), a button when Tab
// reaches it, and each then swallowed Esc. The controls of these pages
// are these types, which hand Esc to the window's handler and every other
// key to the stock widget.

// forwardEscape gives Esc to the window's own key handler and reports
// whether it did. A dialog showing keeps Esc: it is about the dialog, not
// the page under it.
func forwardEscape(o fyne.CanvasObject, ev *fyne.KeyEvent) bool {
	if ev.Name != fyne.KeyEscape {
		return false
	}
	app := fyne.CurrentApp()
	if app == nil {
		return false
	}
	c := app.Driver().CanvasForObject(o)
	if c == nil || c.Overlays().Top() != nil {
		return false
	}
	h := c.OnTypedKey()
	if h == nil {
		return false
	}
	h(ev)
	return true
}

// escEntry is a widget.Entry that lets Esc through to the window.
type escEntry struct{ widget.Entry }

var _ fyne.Focusable = (*escEntry)(nil)

func newEntry() *escEntry {
	e := &escEntry{}
	e.Wrapping = fyne.TextWrapOff
	e.ExtendBaseWidget(e)
	return e
}

func newMultiLineEntry() *escEntry {
	e := &escEntry{}
	e.MultiLine, e.Wrapping = true, fyne.TextWrapWord
	e.ExtendBaseWidget(e)
	return e
}

// newPasswordEntry is a password entry; the stock renderer adds its
// reveal button.
func newPasswordEntry() *escEntry {
	e := &escEntry{}
	e.Password, e.Wrapping = true, fyne.TextWrapOff
	e.ExtendBaseWidget(e)
	return e
}

func (e *escEntry) TypedKey(ev *fyne.KeyEvent) {
	if !forwardEscape(e, ev) {
		e.Entry.TypedKey(ev)
	}
}

// escCheck is a widget.Check that lets Esc through to the window.
type escCheck struct{ widget.Check }

var _ fyne.Focusable = (*escCheck)(nil)

func newCheck(label string, changed func(bool)) *escCheck {
	c := &escCheck{}
	c.Text, c.OnChanged = label, changed
	c.ExtendBaseWidget(c)
	return c
}

func (c *escCheck) TypedKey(ev *fyne.KeyEvent) {
	if !forwardEscape(c, ev) {
		c.Check.TypedKey(ev)
	}
}

// escSelect is a widget.Select that lets Esc through to the window.
type escSelect struct{ widget.Select }

var _ fyne.Focusable = (*escSelect)(nil)

func newSelect(options []string, changed func(string)) *escSelect {
	s := &escSelect{}
	s.Options, s.OnChanged = options, changed
	s.ExtendBaseWidget(s)
	return s
}

func (s *escSelect) TypedKey(ev *fyne.KeyEvent) {
	if !forwardEscape(s, ev) {
		s.Select.TypedKey(ev)
	}
}

// escButton is a widget.Button that lets Esc through to the window (a
// button has the focus once Tab reached it).
type escButton struct{ widget.Button }

var _ fyne.Focusable = (*escButton)(nil)

func newButton(label string, tapped func()) *escButton {
	return newButtonWithIcon(label, nil, tapped)
}

func newButtonWithIcon(label string, icon fyne.Resource, tapped func()) *escButton {
	b := &escButton{}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

func (b *escButton) TypedKey(ev *fyne.KeyEvent) {
	if !forwardEscape(b, ev) {
		b.Button.TypedKey(ev)
	}
}

// escList is a widget.List that lets Esc through to the window (a list
// has the focus once Tab reached it or a row was clicked).
type escList struct{ widget.List }

var _ fyne.Focusable = (*escList)(nil)

func newList(length func() int, create func() fyne.CanvasObject, update func(widget.ListItemID, fyne.CanvasObject)) *escList {
	l := &escList{}
	l.Length, l.CreateItem, l.UpdateItem = length, create, update
	l.ExtendBaseWidget(l)
	return l
}

func (l *escList) TypedKey(ev *fyne.KeyEvent) {
	if !forwardEscape(l, ev) {
		l.List.TypedKey(ev)
	}
}

// escSelectEntry is a widget.SelectEntry that lets Esc through to the
// window.
type escSelectEntry struct{ widget.SelectEntry }

var _ fyne.Focusable = (*escSelectEntry)(nil)

func newSelectEntry(options []string) *escSelectEntry {
	e := &escSelectEntry{}
	e.ExtendBaseWidget(e)
	e.SetOptions(options)
	return e
}

func (e *escSelectEntry) TypedKey(ev *fyne.KeyEvent) {
	if !forwardEscape(e, ev) {
		e.SelectEntry.TypedKey(ev)
	}
}
