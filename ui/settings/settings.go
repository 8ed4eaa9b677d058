package settings

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// Settings is the settings view: tabs for the Model, Instructions,
// Capabilities, Folders, Shell, Web, MCP servers and Tasks pages, kept
// current by the core's events.
type Settings struct {
	// OnBack is kept for the window shell, which sets it; the view has no
	// Back control of its own (the sidebar's button is the one).
	OnBack func()

	env     *bridge.Env
	model   *modelPage
	instr   *instructionsPage
	caps    *capsPage
	folders *foldersPage
	shell   *dependentPage
	web     *dependentPage
	mcp     *mcpPage
	tasks   *tasksPage
	usage   *usagePage

	tabs   *container.AppTabs
	pages  map[*container.TabItem]hint.Page
	tabOf  map[hint.Page]*container.TabItem
	obj    *viewFrame
	cancel func()
}

// New builds the settings view and subscribes it to the core's events
// until Close.
func New(env *bridge.Env) *Settings {
	s := &Settings{env: env}
	s.model = newModelPage(env)
	s.instr = newInstructionsPage(env)
	s.caps = newCapsPage(env)
	s.folders = newFoldersPage(env)
	s.shell = newShellPage(env, s.Show)
	s.web = newWebPage(env, s.Show)
	s.mcp = newMCPPage(env, s.Show)
	s.tasks = newTasksPage(env)
	s.usage = newUsagePage(env)

	modelTab := container.NewTabItemWithIcon("Model", theme.ComputerIcon(), s.model.Object())
	instrTab := container.NewTabItemWithIcon("Instructions", theme.DocumentIcon(), s.instr.Object())
	capsTab := container.NewTabItemWithIcon("Capabilities", theme.GridIcon(), s.caps.Object())
	foldersTab := container.NewTabItemWithIcon("Folders", theme.FolderIcon(), s.folders.Object())
	shellTab := container.NewTabItemWithIcon("Shell", theme.ListIcon(), s.shell.Object())
	webTab := container.NewTabItemWithIcon("Web", theme.SearchIcon(), s.web.Object())
	mcpTab := container.NewTabItemWithIcon("MCP servers", theme.StorageIcon(), s.mcp.Object())
	tasksTab := container.NewTabItemWithIcon("Tasks", theme.HistoryIcon(), s.tasks.Object())
	usageTab := container.NewTabItemWithIcon("Usage", theme.InfoIcon(), s.usage.Object())
	s.tabs = container.NewAppTabs(modelTab, instrTab, capsTab, foldersTab, shellTab, webTab, mcpTab, tasksTab, usageTab)
	s.pages = map[*container.TabItem]hint.Page{modelTab: hint.PageModel, instrTab: PageInstructions, capsTab: hint.PageCapabilities,
		foldersTab: hint.PageFolders, shellTab: hint.PageCapability, webTab: hint.PageCapability, mcpTab: hint.PageCapability, tasksTab: hint.PageCapability}
	s.tabOf = map[hint.Page]*container.TabItem{hint.PageModel: modelTab, PageInstructions: instrTab, hint.PageCapabilities: capsTab,
		hint.PageFolders: foldersTab, pageShell: shellTab, pageWeb: webTab, pageMCP: mcpTab, pageTasks: tasksTab}
	s.tabs.OnSelected = func(t *container.TabItem) {
		if t == modelTab {
			s.model.Shown()
		}
		if t == instrTab {
			s.instr.Shown()
		}
	}
	s.tabs.OnUnselected = func(t *container.TabItem) {
		if t == capsTab {
			s.caps.Left()
		}
		if t == modelTab {
			s.model.Leaving() // unsaved changes are not lost silently
		}
	}

	// No Back control here: the sidebar's button already reads "Back to
	// chat" while the settings show, and two of them confused people.
	title := widget.NewLabelWithStyle("Settings", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.SizeName = theme.SizeNameHeadingText
	// The view scrolls inside whatever room the window gives it: the real
	// driver grows a window whose content's minimum size rises, so pages
	// wider or taller than the chat needs (seven tabs, the MCP page's
	// split) made Ctrl+, resize a small window. A scroll's minimum is its
	// bars', and each page still scrolls on its own when there is room.
	s.obj = newViewFrame(container.NewScroll(container.NewBorder(title, nil, nil, nil, s.tabs)), s.opened, s.left)

	stop := env.Core.Subscribe(func(e assistant.Event) {
		env.Do(func() { s.onEvent(e) })
	})
	// Coming back to the window is when an edit may have been undone in an
	// editor (the watcher does not report that): the banner checks again.
	// Fyne calls the hook on the UI goroutine.
	s.cancel = stop
	if env.App != nil {
		lc := env.App.Lifecycle()
		lc.SetOnEnteredForeground(s.caps.recheckBanner)
		s.cancel = func() {
			stop()
			lc.SetOnEnteredForeground(nil)
		}
	}
	return s
}

// Tab keys for the two capability pages with a tab of their own.
const (
	pageShell hint.Page = "capability:shell"
	pageWeb   hint.Page = "capability:web"
	pageMCP   hint.Page = "capability:mcp-servers"
)

// Object is the view.
func (s *Settings) Object() fyne.CanvasObject { return s.obj }

// Close stops following the core's events (the view is torn down).
func (s *Settings) Close() { s.cancel() }

// Page is the page showing: hint.PageCapabilities while the Capabilities
// tab is up (the window routes drops here then).
func (s *Settings) Page() hint.Page { return s.pages[s.tabs.Selected()] }

// Show switches to page; target narrows it: a Model field ("apiKey",
// "baseURL", ...), or a capability name (shell and web have their own
// pages; others are revealed on the Capabilities page).
func (s *Settings) Show(page hint.Page, target string) {
	switch page {
	case hint.PageModel:
		s.tabs.Select(s.tabOf[hint.PageModel])
		s.model.Shown()
		s.model.Focus(target)
	case hint.PageFolders:
		s.tabs.Select(s.tabOf[hint.PageFolders])
	case PageInstructions:
		s.tabs.Select(s.tabOf[PageInstructions])
		s.instr.Shown()
	case hint.PageCapability, hint.PageCapabilities:
		switch {
		case page == hint.PageCapability && target == shellName:
			s.tabs.Select(s.tabOf[pageShell])
		case page == hint.PageCapability && target == webName:
			s.tabs.Select(s.tabOf[pageWeb])
		case page == hint.PageCapability && target == assistant.TasksCapability:
			s.tabs.Select(s.tabOf[pageTasks])
		case page == hint.PageCapability && s.mcp.Has(target):
			s.tabs.Select(s.tabOf[pageMCP])
			s.mcp.Select(target)
		default:
			s.tabs.Select(s.tabOf[hint.PageCapabilities])
			if target != "" {
				s.caps.Reveal(target)
			}
		}
	}
}

// opened runs when the window shows the view: the page showing gets
// what it fills in on arrival (the Model page's model list).
func (s *Settings) opened() {
	switch s.Page() {
	case hint.PageModel:
		s.model.Shown()
	case PageInstructions:
		s.instr.Shown()
	}
}

// left runs when the window hides the view: outcomes of the last visit
// do not greet the next one.
func (s *Settings) left() {
	s.caps.Left()
	if s.Page() == hint.PageModel {
		s.model.Leaving()
	}
}

// HandleDrop imports dropped files, folders and archives onto the
// Capabilities page (the window's drop handler calls it).
func (s *Settings) HandleDrop(uris []fyne.URI) {
	s.tabs.Select(s.tabOf[hint.PageCapabilities])
	s.caps.imp.Import(uris)
}

// Replay hands the view an event it missed because it did not exist yet
// (the window builds the settings when they are first shown and replays
// the latest disk change, so the Capabilities banner still says it). Call
// it on the UI goroutine. A replayed disk notice may be out of date (an
// edit undone meanwhile), so the banner asks again.
func (s *Settings) Replay(e assistant.Event) {
	s.onEvent(e)
	if e.Kind == assistant.EventDisk {
		s.caps.recheckBanner()
	}
}

// onEvent brings the pages up to date; it runs on the UI goroutine.
func (s *Settings) onEvent(e assistant.Event) {
	s.usage.onEvent(e)
	switch e.Kind {
	case assistant.EventCapabilities, assistant.EventSettings:
		if e.Reason == "resync" {
			// A Resync (this page's, the CLI's, the watcher's) applied what
			// the banner offered; edits after it bring a new notice. Asking
			// Pending now could beat the Resync's recording of what it
			// applied.
			s.caps.banner.ResyncDone()
		}
		s.caps.refresh()
		s.shell.Refresh()
		s.web.Refresh()
		s.mcp.refresh()
		s.tasks.Refresh()
	case assistant.EventTasks, assistant.EventTaskRun:
		s.tasks.Refresh()
	case assistant.EventDisk:
		s.caps.onDisk(e.Diff, e.Applied, e.Err)
	case assistant.EventConfig:
		if e.Reason == "identity" {
			s.instr.Changed()
			return
		}
		s.model.ConfigChanged()
		s.folders.Refresh()
		s.caps.refresh() // pinned markers
	}
}
