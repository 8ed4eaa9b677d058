package ui

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// approvingChat is a fake chat with a call waiting (or not) that records
// the approval keys' answers.
type approvingChat struct {
	fakeChat
	waiting bool
	entry   *wordEntry // the chat's composer
}

func (f *approvingChat) Object() fyne.CanvasObject { return f.entry }

func (f *approvingChat) ApprovePending() bool { return f.did("approve") }
func (f *approvingChat) DenyPending() bool    { return f.did("deny") }
func (f *approvingChat) GoToApproval() bool   { return f.did("goto") }

func (f *approvingChat) did(what string) bool {
	if !f.waiting {
		return false
	}
	f.calls = append(f.calls, what)
	return true
}

// wordEntry records the shortcuts it is given (Ctrl+Backspace deletes a
// word in an entry).
type wordEntry struct {
	widget.Entry
	got []string
}

func (e *wordEntry) TypedShortcut(s fyne.Shortcut) { e.got = append(e.got, s.ShortcutName()) }

// Ctrl+Enter approves the waiting call once, Ctrl+Backspace denies it and
// Ctrl+J goes to it, through the canvas and through the main menu (which
// fires whatever has the focus). With nothing waiting, Ctrl+Enter and
// Ctrl+Backspace go on to the focused entry as if the window had no such
// shortcut; in the settings they answer nothing, and Ctrl+J brings the
// chat forward at the waiting call.
func TestApprovalShortcuts(t *testing.T) {
	paths := map[string]func(w fyne.Window, sc fyne.Shortcut){
		"canvas": func(w fyne.Window, sc fyne.Shortcut) { w.Canvas().(fyne.Shortcutable).TypedShortcut(sc) },
		"menu": func(w fyne.Window, sc fyne.Shortcut) {
			for _, m := range w.MainMenu().Items {
				for _, it := range m.Items {
					if it.Shortcut != nil && it.Shortcut.ShortcutName() == sc.ShortcutName() {
						it.Action()
						return
					}
				}
			}
			panic("no menu item for " + sc.ShortcutName())
		},
	}
	tests := []struct {
		name         string
		waiting      bool
		fromSettings bool
		key          fyne.KeyName
		wantCalls    []string
		passedOn     bool
		wantSettings bool
	}{
		{"Ctrl+Enter approves", true, false, fyne.KeyReturn, []string{"approve"}, false, false},
		{"Ctrl+Backspace denies", true, false, fyne.KeyBackspace, []string{"deny"}, false, false},
		{"Ctrl+J goes to the approval", true, false, fyne.KeyJ, []string{"focus", "goto"}, false, false},
		{"Ctrl+J from the settings shows the chat", true, true, fyne.KeyJ, []string{"focus", "goto"}, false, false},
		{"Ctrl+Backspace with nothing waiting deletes a word", false, false, fyne.KeyBackspace, nil, true, false},
		{"Ctrl+Enter with nothing waiting goes to the entry", false, false, fyne.KeyReturn, nil, true, false},
		{"Ctrl+Enter in the settings answers nothing", true, true, fyne.KeyReturn, nil, false, true},
		{"Ctrl+J with nothing waiting stays in the settings", false, true, fyne.KeyJ, []string{"focus"}, false, true},
	}
	for _, tt := range tests {
		for path, press := range paths {
			t.Run(tt.name+" via "+path, func(t *testing.T) {
				a := test.NewTempApp(t)
				entry := &wordEntry{}
				entry.ExtendBaseWidget(entry)
				w := test.NewTempWindow(t, nil)
				env := &bridge.Env{App: a, Window: w, Do: func(f func()) { f() }, Go: func(f func()) { f() }}
				chat := &approvingChat{waiting: tt.waiting, entry: entry}
				s := &Shell{env: env}
				s.assemble(chat, &fakeSettings{page: hint.PageModel})
				if tt.fromSettings {
					s.ShowSettings()
				}
				if !tt.fromSettings {
					w.Canvas().Focus(entry)
				}
				chat.calls = nil
				press(w, ctrl(tt.key))
				if !slices.Equal(chat.calls, tt.wantCalls) {
					t.Errorf("chat calls %v, want %v", chat.calls, tt.wantCalls)
				}
				if passed := len(entry.got) > 0; passed != tt.passedOn && tt.key != fyne.KeyJ {
					t.Errorf("passed on to the focused entry: %v (%v), want %v", passed, entry.got, tt.passedOn)
				}
				if s.Showing() != tt.wantSettings {
					t.Errorf("settings showing %v, want %v", s.Showing(), tt.wantSettings)
				}
			})
		}
	}
}
