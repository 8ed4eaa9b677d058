package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// shortcut is one keyboard shortcut of the window and what it does.
type shortcut struct {
	label string
	key   desktop.CustomShortcut
	run   func()
}

// shortcuts lists the window's keyboard shortcuts. KeyModifierShortcutDefault
// is Ctrl, or Cmd on macOS.
func (s *Shell) shortcuts() []shortcut {
	mod := fyne.KeyModifierShortcutDefault
	return []shortcut{
		{"New chat", desktop.CustomShortcut{KeyName: fyne.KeyN, Modifier: mod}, s.newChat},
		{"Find in conversation", desktop.CustomShortcut{KeyName: fyne.KeyF, Modifier: mod}, s.find},
		{"Settings", desktop.CustomShortcut{KeyName: fyne.KeyComma, Modifier: mod}, s.ShowSettings},
		{"First message", desktop.CustomShortcut{KeyName: fyne.KeyHome, Modifier: mod}, func() { s.ShowChat(); s.chat.JumpToFirst() }},
		{"Latest message", desktop.CustomShortcut{KeyName: fyne.KeyEnd, Modifier: mod}, func() { s.ShowChat(); s.chat.JumpToLast() }},
	}
}

// installShortcuts registers the shortcuts twice over, because Fyne hands
// a shortcut to the focused widget alone when it can take shortcuts (the
// composer, a search entry), and an entry drops the ones it does not know:
// a main-menu item's shortcut fires whatever has the focus, the canvas's
// when nothing does. Esc has no modifier, so it is no shortcut to Fyne: the
// canvas's key handler sees it when no widget has the focus, and the
// composer handles its own.
func (s *Shell) installShortcuts(w fyne.Window) {
	c := w.Canvas()
	var items []*fyne.MenuItem
	for _, sc := range s.shortcuts() {
		key := sc.key
		run := sc.run
		c.AddShortcut(&key, func(fyne.Shortcut) { run() })
		item := fyne.NewMenuItem(sc.label, run)
		item.Shortcut = &key
		items = append(items, item)
	}
	stop := fyne.NewMenuItem("Stop generating (Esc)", s.escape)
	items = append(items, fyne.NewMenuItemSeparator(), stop)
	w.SetMainMenu(fyne.NewMainMenu(fyne.NewMenu("Wrasse", items...)))
	c.SetOnTypedKey(s.typedKey)
}

// typedKey handles keys no focused widget took.
func (s *Shell) typedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape {
		s.escape()
	}
}

func (s *Shell) newChat() {
	s.ShowChat()
	s.chat.NewConversation()
	s.chat.FocusComposer()
}

func (s *Shell) find() {
	s.ShowChat()
	s.chat.ShowFind()
}

// escape stops the reply being generated; in the settings it goes back to
// the chat instead, which is what Esc means on a page one level down.
func (s *Shell) escape() {
	if s.showing == viewSettings {
		s.ShowChat()
		return
	}
	s.chat.Stop()
}
