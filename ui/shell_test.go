package ui

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// fakeChat records what the shell asked of the chat.
type fakeChat struct {
	calls   []string
	dropped []fyne.URI
}

func (f *fakeChat) Sidebar() fyne.CanvasObject { return widget.NewLabel("sidebar") }
func (f *fakeChat) Object() fyne.CanvasObject  { return widget.NewLabel("chat") }
func (f *fakeChat) NewConversation()           { f.calls = append(f.calls, "new") }
func (f *fakeChat) Stop()                      { f.calls = append(f.calls, "stop") }
func (f *fakeChat) ShowFind()                  { f.calls = append(f.calls, "find") }
func (f *fakeChat) FocusComposer()             { f.calls = append(f.calls, "focus") }
func (f *fakeChat) JumpToFirst()               { f.calls = append(f.calls, "first") }
func (f *fakeChat) JumpToLast()                { f.calls = append(f.calls, "last") }
func (f *fakeChat) TextSizeChanged()           { f.calls = append(f.calls, "text size") }
func (f *fakeChat) Current() store.ID          { return 0 }
func (f *fakeChat) HandleDrop(uris []fyne.URI) {
	f.calls = append(f.calls, "drop")
	f.dropped = append(f.dropped, uris...)
}

// fakeSettings records what the shell asked of the settings.
type fakeSettings struct {
	page    hint.Page
	shown   []string
	dropped []fyne.URI
}

func (f *fakeSettings) Object() fyne.CanvasObject { return widget.NewLabel("settings") }
func (f *fakeSettings) Show(page hint.Page, target string) {
	f.page = page
	f.shown = append(f.shown, string(page)+":"+target)
}
func (f *fakeSettings) HandleDrop(uris []fyne.URI) { f.dropped = append(f.dropped, uris...) }
func (f *fakeSettings) Page() hint.Page            { return f.page }

// blindSettings cannot say which page it shows.
type blindSettings struct{ fakeSettings }

func (b *blindSettings) Page() {}

type harness struct {
	shell    *Shell
	chat     *fakeChat
	settings *fakeSettings
	win      fyne.Window
}

// newHarness builds the shell around fakes in a test window, with inline
// runners so every effect has happened when a call returns.
func newHarness(t *testing.T, core *assistant.App) harness {
	t.Helper()
	a := test.NewTempApp(t)
	w := test.NewTempWindow(t, nil)
	env := &bridge.Env{App: a, Window: w, Core: core, Do: func(f func()) { f() }, Go: func(f func()) { f() }}
	h := harness{shell: &Shell{env: env}, chat: &fakeChat{}, settings: &fakeSettings{page: hint.PageModel}, win: w}
	h.shell.assemble(h.chat, h.settings)
	h.chat.calls = nil
	return h
}

func TestBuildLaysOutTheWindow(t *testing.T) {
	h := newHarness(t, nil)
	if got := h.win.Title(); got != Title {
		t.Errorf("title = %q, want %q", got, Title)
	}
	if h.win.Content() != h.shell.Object() {
		t.Error("the window does not show the shell")
	}
	if h.shell.Showing() {
		t.Error("a new window shows the settings, want the chat")
	}
	if !h.shell.chatObj.Visible() || h.shell.settingsObj.Visible() {
		t.Error("the chat should be visible and the settings hidden")
	}
	if h.win.MainMenu() == nil {
		t.Error("no main menu: shortcuts would not fire while the composer has the focus")
	}
}

func ctrl(k fyne.KeyName) *desktop.CustomShortcut {
	return &desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierShortcutDefault}
}

// menuItem finds the main-menu item bound to sc.
func menuItem(t *testing.T, w fyne.Window, sc fyne.Shortcut) *fyne.MenuItem {
	t.Helper()
	for _, m := range w.MainMenu().Items {
		for _, it := range m.Items {
			if it.Shortcut != nil && it.Shortcut.ShortcutName() == sc.ShortcutName() {
				return it
			}
		}
	}
	t.Fatalf("no menu item for %s", sc.ShortcutName())
	return nil
}

func TestShortcuts(t *testing.T) {
	tests := []struct {
		name         string
		fromSettings bool
		key          fyne.KeyName
		wantSettings bool
		wantCalls    []string
	}{
		{"Ctrl+, opens the settings", false, fyne.KeyComma, true, nil},
		{"Ctrl+N starts a chat", false, fyne.KeyN, false, []string{"focus", "new", "focus"}},
		{"Ctrl+N from the settings starts a chat", true, fyne.KeyN, false, []string{"focus", "new", "focus"}},
		{"Ctrl+F finds in the conversation", false, fyne.KeyF, false, []string{"focus", "find"}},
		{"Ctrl+F from the settings goes back to the chat", true, fyne.KeyF, false, []string{"focus", "find"}},
		{"Ctrl+, in the settings stays", true, fyne.KeyComma, true, nil},
		{"Ctrl+Home goes to the first message", false, fyne.KeyHome, false, []string{"focus", "first"}},
		{"Ctrl+End goes to the latest message", true, fyne.KeyEnd, false, []string{"focus", "last"}},
	}
	// Each shortcut works both through the canvas (nothing focused) and
	// through the main menu (an entry focused).
	paths := map[string]func(t *testing.T, w fyne.Window, sc fyne.Shortcut){
		"canvas": func(t *testing.T, w fyne.Window, sc fyne.Shortcut) {
			w.Canvas().(fyne.Shortcutable).TypedShortcut(sc)
		},
		"menu": func(t *testing.T, w fyne.Window, sc fyne.Shortcut) { menuItem(t, w, sc).Action() },
	}
	for _, tt := range tests {
		for path, press := range paths {
			t.Run(tt.name+" via "+path, func(t *testing.T) {
				h := newHarness(t, nil)
				if tt.fromSettings {
					h.shell.ShowSettings()
				}
				h.chat.calls = nil
				press(t, h.win, ctrl(tt.key))
				if got := h.shell.Showing(); got != tt.wantSettings {
					t.Errorf("settings showing = %v, want %v", got, tt.wantSettings)
				}
				if !slices.Equal(h.chat.calls, tt.wantCalls) {
					t.Errorf("chat calls = %v, want %v", h.chat.calls, tt.wantCalls)
				}
			})
		}
	}
}

func TestEscape(t *testing.T) {
	esc := &fyne.KeyEvent{Name: fyne.KeyEscape}
	t.Run("in the chat it stops the reply", func(t *testing.T) {
		h := newHarness(t, nil)
		h.win.Canvas().OnTypedKey()(esc)
		if !slices.Equal(h.chat.calls, []string{"stop"}) {
			t.Errorf("chat calls = %v, want [stop]", h.chat.calls)
		}
	})
	t.Run("in the settings it goes back to the chat", func(t *testing.T) {
		h := newHarness(t, nil)
		h.shell.ShowSettings()
		h.win.Canvas().OnTypedKey()(esc)
		if h.shell.Showing() {
			t.Error("the settings still show")
		}
		if slices.Contains(h.chat.calls, "stop") {
			t.Error("Esc in the settings stopped the reply")
		}
	})
	t.Run("other keys do nothing", func(t *testing.T) {
		h := newHarness(t, nil)
		h.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyA})
		if len(h.chat.calls) != 0 {
			t.Errorf("chat calls = %v, want none", h.chat.calls)
		}
	})
}

func TestNavigate(t *testing.T) {
	tests := []struct {
		page         hint.Page
		target       string
		wantSettings bool
		wantShown    []string
	}{
		{hint.PageModel, "", true, []string{"model:"}},
		{hint.PageCapability, "shell", true, []string{"capability:shell"}},
		{hint.PageFolders, "", true, []string{"folders:"}},
		{hint.PageNone, "", false, nil},
	}
	for _, tt := range tests {
		t.Run(string(tt.page)+tt.target, func(t *testing.T) {
			h := newHarness(t, nil)
			// Screens navigate through the Env, not the shell.
			h.shell.env.Navigate(tt.page, tt.target)
			if got := h.shell.Showing(); got != tt.wantSettings {
				t.Errorf("settings showing = %v, want %v", got, tt.wantSettings)
			}
			if h.shell.settingsObj.Visible() != tt.wantSettings {
				t.Errorf("settings visible = %v, want %v", h.shell.settingsObj.Visible(), tt.wantSettings)
			}
			if !slices.Equal(h.settings.shown, tt.wantShown) {
				t.Errorf("settings shown = %v, want %v", h.settings.shown, tt.wantShown)
			}
		})
	}
}

func TestSettingsButton(t *testing.T) {
	h := newHarness(t, nil)
	b := h.shell.settingsButton
	if b.Text != "Settings" {
		t.Errorf("button says %q, want Settings", b.Text)
	}
	test.Tap(b)
	if !h.shell.Showing() || b.Text != "Back to chat" {
		t.Errorf("after a tap: settings showing = %v, button %q; want true, Back to chat", h.shell.Showing(), b.Text)
	}
	test.Tap(b)
	if h.shell.Showing() || b.Text != "Settings" {
		t.Errorf("after a second tap: settings showing = %v, button %q; want false, Settings", h.shell.Showing(), b.Text)
	}
}

func TestHandleDrop(t *testing.T) {
	files := []fyne.URI{storage.NewFileURI("/tmp/skill.zip"), storage.NewFileURI("/tmp/notes.txt")}
	tests := []struct {
		name         string
		settings     bool
		page         hint.Page
		blind        bool
		uris         []fyne.URI
		wantSettings int // URIs the settings got
		wantChat     int // URIs the chat got
		wantShowing  bool
	}{
		{"on the chat", false, hint.PageModel, false, files, 0, 2, false},
		{"on the Capabilities page", true, hint.PageCapabilities, false, files, 2, 0, true},
		{"on the Model page goes to the chat", true, hint.PageModel, false, files, 0, 2, false},
		{"on settings that cannot say their page", true, hint.PageModel, true, files, 2, 0, true},
		{"nothing dropped", true, hint.PageCapabilities, false, nil, 0, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil)
			if tt.blind {
				b := &blindSettings{}
				h.settings = &b.fakeSettings
				h.shell.settings = b
			}
			h.settings.page = tt.page
			if tt.settings {
				h.shell.ShowSettings()
			}
			h.shell.HandleDrop(fyne.NewPos(10, 10), tt.uris)
			if got := len(h.settings.dropped); got != tt.wantSettings {
				t.Errorf("settings got %d files, want %d", got, tt.wantSettings)
			}
			if got := len(h.chat.dropped); got != tt.wantChat {
				t.Errorf("chat got %d files, want %d", got, tt.wantChat)
			}
			if got := h.shell.Showing(); got != tt.wantShowing {
				t.Errorf("settings showing = %v, want %v", got, tt.wantShowing)
			}
		})
	}
}

func openCore(t *testing.T) *assistant.App {
	t.Helper()
	core, err := assistant.Open(assistant.Options{Workspace: t.TempDir(), Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	return core
}

// A capability folder written by hand (not yet resynced) turns the
// Settings button into a notice; Resync turns it back.
func TestSettingsButtonShowsChangesOnDisk(t *testing.T) {
	core := openCore(t)
	h := newHarness(t, core)
	h.shell.checkPending()
	if h.shell.diskPending {
		t.Fatal("a fresh workspace reports changes on disk")
	}
	dir := filepath.Join(core.Workspace().Capabilities(), "hand-made")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	skill := "---\nname: hand-made\ndescription: A guide written by hand for the shell test.\n---\n\nSay hello.\n"
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(skill), 0o644); err != nil {
		t.Fatal(err)
	}
	h.shell.onEvent(assistant.Event{Kind: assistant.EventDisk})
	if !h.shell.diskPending || h.shell.settingsButton.Importance != widget.WarningImportance {
		t.Fatalf("after a hand edit: pending = %v, button %q", h.shell.diskPending, h.shell.settingsButton.Text)
	}
	if _, err := core.Resync(t.Context()); err != nil {
		t.Fatal(err)
	}
	h.shell.onEvent(assistant.Event{Kind: assistant.EventCapabilities, Reason: "resync"})
	if h.shell.diskPending || h.shell.settingsButton.Text != "Settings" {
		t.Errorf("after Resync: pending = %v, button %q", h.shell.diskPending, h.shell.settingsButton.Text)
	}
}

func TestStartAndClose(t *testing.T) {
	core := openCore(t)
	h := newHarness(t, core)
	if err := h.shell.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	h.shell.Close()
	if !slices.Equal(h.chat.calls, []string{"stop"}) {
		t.Errorf("Close asked the chat %v, want [stop]", h.chat.calls)
	}
}

// The shell around the real chat and settings: Navigate(PageModel) shows
// the Model page, the settings' Back and the sidebar's New chat bring the
// chat back, and a drop on the Capabilities page goes to the settings.
func TestBuildWithTheRealViews(t *testing.T) {
	core := openCore(t)
	// A workspace past its first run (a model chosen): a new one opens on
	// the first-run page, where no composer takes the keyboard.
	if _, err := core.UpdateConfig(func(c *workspace.Config) error { c.Model = "llama3.1:8b"; return nil }); err != nil {
		t.Fatal(err)
	}
	a := test.NewTempApp(t)
	w := test.NewTempWindow(t, nil)
	env := &bridge.Env{App: a, Window: w, Core: core, Do: func(f func()) { f() }, Go: func(f func()) { f() },
		Copy: func(string) {}}
	s := Build(env)
	defer s.Close()
	w.Resize(fyne.NewSize(defaultWidth, defaultHeight))

	env.Navigate(hint.PageModel, "")
	if !s.Showing() {
		t.Fatal("Navigate(PageModel) did not show the settings")
	}
	if p := s.settings.(pageReporter).Page(); p != hint.PageModel {
		t.Errorf("settings show page %q, want %q", p, hint.PageModel)
	}
	// The sidebar's button is the one Back control (the settings have none).
	test.Tap(findButton(t, s.content, "Back to chat"))
	if s.Showing() {
		t.Error("Back to chat did not show the chat")
	}

	env.Navigate(hint.PageCapabilities, "")
	if p := s.settings.(pageReporter).Page(); p != hint.PageCapabilities {
		t.Fatalf("settings show page %q, want %q", p, hint.PageCapabilities)
	}
	test.Tap(findButton(t, s.chat.Sidebar(), "New chat"))
	if s.Showing() {
		t.Error("New chat in the sidebar left the settings showing")
	}

	// The chat's composer has the focus; once the settings show, typing
	// must not reach it (and Enter must not send it to the model).
	if w.Canvas().Focused() == nil {
		t.Fatal("the chat shows without a focused composer")
	}
	env.Navigate(hint.PageModel, "")
	if f := w.Canvas().Focused(); f != nil {
		t.Fatalf("with the settings showing, %T still has the keyboard", f)
	}
}

// findButton finds the button labelled text under o.
func findButton(t *testing.T, o fyne.CanvasObject, text string) *widget.Button {
	t.Helper()
	var found *widget.Button
	var walk func(fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if found != nil || o == nil {
			return
		}
		switch v := o.(type) {
		case *widget.Button:
			if v.Text == text {
				found = v
				return
			}
		case *fyne.Container:
			for _, c := range v.Objects {
				walk(c)
			}
			return
		}
		if w, ok := o.(fyne.Widget); ok {
			for _, c := range test.TempWidgetRenderer(t, w).Objects() {
				walk(c)
			}
		}
	}
	walk(o)
	if found == nil {
		t.Fatalf("no %q button", text)
	}
	return found
}
