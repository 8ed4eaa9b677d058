package ui

import (
	"context"
	"fmt"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/assets"
	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/bridge"
	"github.com/wrasse-app/wrasse/ui/tip"
)

// Title is the window's title.
const Title = "Wrasse"

// The window's size when it first opens.
const defaultWidth, defaultHeight = 1100, 720

// The window's minimum size.
const minWidth, minHeight = 720, 480

// sidebarShare is the part of the window's width the sidebar starts with.
const sidebarShare = 0.26

// view is what the right-hand side of the window shows.
type view int

const (
	viewChat view = iota
	viewSettings
)

// Shell is the window's frame: the conversations sidebar with the Settings
// button, the chat or the settings beside it, the keyboard shortcuts and
// the window-wide drop handler. It owns no conversation or settings logic;
// ui/chat and ui/settings do.
type Shell struct {
	env      *bridge.Env
	chat     chatView
	settings settingsView

	content        fyne.CanvasObject
	chatObj        fyne.CanvasObject
	settingsObj    fyne.CanvasObject
	settingsButton *widget.Button
	showing        view
	// diskPending: the watcher saw capability folders change and nobody
	// has resynced yet; the Settings button says so.
	diskPending bool

	cancel     context.CancelFunc
	stopEvents func()

	// memory returns free heap pages to the OS after the first frame,
	// after a conversation opens and once turns are over (memory.go).
	memory *memoryRelease
	// offer is the first-run folder offer above the chat (folderoffer.go).
	offer *folderOffer
}

// Build lays out env.Window: the split of sidebar and chat, the shortcuts,
// the menu and the drop handler, and points env.Navigate at the settings.
// Call Start to begin watching the workspace and Close when the window
// goes.
func Build(env *bridge.Env) *Shell {
	s := &Shell{env: env, memory: newMemoryRelease(freeOSMemory(env.Go))}
	useReadableTheme(env.App) // coloured texts and buttons that can be read (contrast.go)
	restoreTextScale(env.App) // the text size the person chose (textsize.go)
	c, st := newViews(env, func() {
		s.ShowChat()
		s.memory.arm() // opening a long conversation leaves garbage behind
	}, func() { s.memory.arm() }) // so do turns
	c = withFirstRun(env, c, assistant.FindLocalServers) // a new workspace sets its model up first (firstrun.go)
	s.assemble(c, st)
	s.installTray(env.Core.KeepRunning, trayHost) // tray icon, close to the tray (tray.go)
	s.watchAttention()                            // notifications while unfocused (attention.go)
	return s
}

// assemble builds the shell around the two views and installs it in the
// window; tests call it with fakes.
func (s *Shell) assemble(c chatView, st settingsView) {
	s.chat, s.settings = c, st
	s.env.Navigate = s.Navigate

	s.settingsButton = widget.NewButtonWithIcon("", nil, s.toggleSettings)
	s.settingsButton.Alignment = widget.ButtonAlignLeading
	left := container.NewBorder(nil, container.NewPadded(s.settingsButton), nil, nil, c.Sidebar())

	s.chatObj = c.Object()
	s.settingsObj = st.Object()
	s.settingsObj.Hide()
	s.offer = newFolderOffer(s.env)
	split := container.NewHSplit(left, container.NewBorder(s.offer.Object(), nil, nil, nil, container.NewStack(s.chatObj, s.settingsObj)))
	split.Offset = sidebarShare
	// A window takes its minimum size from its content: below this the
	// sidebar and the chat's headers have no room left to truncate into.
	floor := canvas.NewRectangle(color.Transparent)
	floor.SetMinSize(fyne.NewSize(minWidth, minHeight))
	if s.memory == nil {
		s.memory = newMemoryRelease(freeOSMemory(s.env.Go))
	}
	// The tooltips' layer is last, over everything (ui/tip).
	s.content = container.NewStack(floor, split, container.NewWithoutLayout(s.memory.raster), tip.NewLayer())
	s.refreshSettingsButton()

	w := s.env.Window
	w.SetTitle(Title)
	w.SetIcon(assets.Icon())
	w.SetContent(s.content)
	w.Resize(fyne.NewSize(defaultWidth, defaultHeight))
	w.SetOnDropped(s.HandleDrop)
	s.installShortcuts(w)
	// The window opens ready to type into.
	c.FocusComposer()
}

// Object is the window's content.
func (s *Shell) Object() fyne.CanvasObject { return s.content }

// Showing reports whether the settings (true) or the chat (false) fill
// the right-hand side.
func (s *Shell) Showing() (settings bool) { return s.showing == viewSettings }

// ShowChat shows the chat beside the sidebar and puts the cursor in the
// composer.
func (s *Shell) ShowChat() {
	if s.showing != viewChat {
		s.showing = viewChat
		s.settingsObj.Hide()
		s.chatObj.Show()
		s.refreshSettingsButton()
	}
	s.chat.FocusComposer()
}

// ShowSettings shows the settings at whatever page they were left on.
func (s *Shell) ShowSettings() {
	if s.showing == viewSettings {
		return
	}
	s.showing = viewSettings
	s.chatObj.Hide()
	// A hidden widget keeps the keyboard focus: without this, typing in
	// the settings before clicking a field would go to the chat's
	// composer, and Enter would send it (an API key, say) to the model.
	if c := s.env.Window.Canvas(); c != nil {
		c.Unfocus()
	}
	s.settingsObj.Show()
	s.refreshSettingsButton()
}

// Navigate shows the page a hint points to: the settings at page (and
// target, a capability's name, for PageCapability). PageNone does nothing.
// It is env.Navigate.
func (s *Shell) Navigate(page hint.Page, target string) {
	if page == hint.PageNone {
		return
	}
	s.ShowSettings()
	s.settings.Show(page, target)
}

func (s *Shell) toggleSettings() {
	if s.showing == viewSettings {
		s.ShowChat()
		return
	}
	s.ShowSettings()
}

// refreshSettingsButton makes the sidebar's button say where it leads and
// whether capability folders changed on disk.
func (s *Shell) refreshSettingsButton() {
	b := s.settingsButton
	switch {
	case s.showing == viewSettings:
		b.SetText("Back to chat")
		b.SetIcon(theme.NavigateBackIcon())
		b.Importance = widget.MediumImportance
	case s.diskPending:
		b.SetText("Settings — capabilities changed on disk")
		b.SetIcon(theme.WarningIcon())
		b.Importance = widget.WarningImportance
	default:
		b.SetText("Settings")
		b.SetIcon(theme.SettingsIcon())
		b.Importance = widget.MediumImportance
	}
	b.Refresh()
}

// Start watches the workspace's capability folders (hand edits become
// EventDisk; the Capabilities page offers Resync) and follows the core's
// events the shell shows, until ctx ends or Close.
func (s *Shell) Start(ctx context.Context) error {
	ctx, s.cancel = context.WithCancel(ctx)
	s.stopEvents = s.env.Core.Subscribe(s.onEvent)
	if err := s.env.Core.Watch(ctx, false); err != nil {
		return fmt.Errorf("watch the capability folders for hand edits: %w", err)
	}
	s.env.Go(s.checkPending)
	return nil
}

// onEvent runs on whichever goroutine changed something.
func (s *Shell) onEvent(e assistant.Event) {
	switch e.Kind {
	case assistant.EventDisk, assistant.EventCapabilities:
		s.env.Go(s.checkPending)
	case assistant.EventConfig:
		s.env.Do(s.offer.Refresh) // a folder granted anywhere hides the offer
	}
}

// checkPending asks the core whether a Resync has anything to apply (off
// the UI goroutine: it reads the capability folders).
func (s *Shell) checkPending() {
	d, err := s.env.Core.Pending()
	if err != nil {
		s.env.Core.Logger().Warn("checking capability folders for changes", "error", err)
		return
	}
	s.env.Do(func() {
		if s.diskPending != !d.Empty() {
			s.diskPending = !d.Empty()
			s.refreshSettingsButton()
		}
	})
}

// Close ends what the shell started: the running turn (if any), the
// watcher and the event subscription. The caller closes the core after.
func (s *Shell) Close() {
	s.chat.Stop()
	for _, v := range []any{s.chat, s.settings} {
		if c, ok := v.(closer); ok {
			c.Close()
		}
	}
	if s.stopEvents != nil {
		s.stopEvents()
	}
	if s.cancel != nil {
		s.cancel()
	}
}
