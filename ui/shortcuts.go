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
	// try, set instead of run, does what the key is for when there is
	// something to do and reports whether there was; when not, the key
	// goes on to the focused widget as if the window had no such
	// shortcut (Ctrl+Backspace deletes a word in an entry).
	try func() bool
}

// approvalKeys is what the approval shortcuts need of the chat
// (ui/chat/approvalkeys.go).
type approvalKeys interface {
	ApprovePending() bool
	DenyPending() bool
	GoToApproval() bool
}

// shortcuts lists the window's keyboard shortcuts. KeyModifierShortcutDefault
// is Ctrl, or Cmd on macOS.
func (s *Shell) shortcuts() []shortcut {
	mod := fyne.KeyModifierShortcutDefault
	return []shortcut{
		{"New chat", desktop.CustomShortcut{KeyName: fyne.KeyN, Modifier: mod}, s.newChat, nil},
		{"Find in conversation", desktop.CustomShortcut{KeyName: fyne.KeyF, Modifier: mod}, s.find, nil},
		{"Settings", desktop.CustomShortcut{KeyName: fyne.KeyComma, Modifier: mod}, s.ShowSettings, nil},
		{"Approve the waiting call once", desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: mod}, nil,
			s.approvalKey(approvalKeys.ApprovePending)},
		{"Deny the waiting call", desktop.CustomShortcut{KeyName: fyne.KeyBackspace, Modifier: mod}, nil,
			s.approvalKey(approvalKeys.DenyPending)},
		{"Go to the waiting approval", desktop.CustomShortcut{KeyName: fyne.KeyJ, Modifier: mod}, nil,
			s.goToApproval},
		{"Larger text", desktop.CustomShortcut{KeyName: fyne.KeyEqual, Modifier: mod}, func() { s.stepTextSize(1) }, nil},
		{"Larger text", desktop.CustomShortcut{KeyName: fyne.KeyEqual, Modifier: mod | fyne.KeyModifierShift}, func() { s.stepTextSize(1) }, nil},
		{"Smaller text", desktop.CustomShortcut{KeyName: fyne.KeyMinus, Modifier: mod}, func() { s.stepTextSize(-1) }, nil},
		{"Text size as it was", desktop.CustomShortcut{KeyName: fyne.Key0, Modifier: mod}, func() { s.stepTextSize(0) }, nil},
		{"First message", desktop.CustomShortcut{KeyName: fyne.KeyHome, Modifier: mod}, func() { s.ShowChat(); s.chat.JumpToFirst() }, nil},
		{"Latest message", desktop.CustomShortcut{KeyName: fyne.KeyEnd, Modifier: mod}, func() { s.ShowChat(); s.chat.JumpToLast() }, nil},
	}
}

// approvalKey is an approval shortcut's try: it answers on the chat's
// card while the chat shows.
func (s *Shell) approvalKey(act func(approvalKeys) bool) func() bool {
	return func() bool {
		a, ok := s.chat.(approvalKeys)
		return ok && s.showing == viewChat && act(a)
	}
}

// goToApproval brings the chat forward at the call waiting for an answer,
// from the settings too.
func (s *Shell) goToApproval() bool {
	a, ok := s.chat.(approvalKeys)
	if !ok {
		return false
	}
	shown := s.showing
	s.ShowChat()
	if a.GoToApproval() {
		return true
	}
	if shown == viewSettings {
		s.ShowSettings() // nothing waits: stay where the person was
	}
	return false
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
		if try := sc.try; try != nil {
			run = func() {
				if !try() {
					passOn(c, &key)
				}
			}
		}
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

// passOn gives sc to the focused widget, as Fyne would have without the
// window's shortcut.
func passOn(c fyne.Canvas, sc fyne.Shortcut) {
	if f, ok := c.Focused().(fyne.Shortcutable); ok {
		f.TypedShortcut(sc)
	}
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
	s.memory.arm() // the conversation left may have been a long one
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
