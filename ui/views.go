package ui

import (
	"fyne.io/fyne/v2"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/bridge"
	"github.com/wrasse-app/wrasse/ui/chat"
	"github.com/wrasse-app/wrasse/ui/settings"
)

// chatView is what the shell needs of ui/chat's *Chat (see
// notes/ui-contract.md). The shell depends on this much only, so its
// tests use a recording fake.
type chatView interface {
	Sidebar() fyne.CanvasObject
	Object() fyne.CanvasObject
	NewConversation()
	Stop()
	ShowFind()
	FocusComposer()
	JumpToFirst() // Ctrl+Home
	JumpToLast()  // Ctrl+End
	HandleDrop(uris []fyne.URI)
	Current() store.ID
}

// settingsView is what the shell needs of ui/settings' *Settings.
type settingsView interface {
	Object() fyne.CanvasObject
	Show(page hint.Page, target string)
	HandleDrop(uris []fyne.URI)
}

// closer is implemented by views that hold subscriptions or running work.
type closer interface {
	Close()
}

// pageReporter is implemented by a settings view that can say which page
// it shows, so a drop on the Model page does not import anything.
type pageReporter interface {
	Page() hint.Page
}

// newViews builds the real chat and settings on env, wired back to the
// shell: the settings' Back control and the sidebar's conversations show
// the chat, and the chat idle after turns calls idle. The settings are built when first shown (lazysettings.go).
func newViews(env *bridge.Env, showChat, idle func()) (chatView, settingsView) {
	c := chat.New(env)
	c.OnOpen = showChat
	c.OnIdle = idle
	return c, newLazySettings(env, func() settingsView {
		s := settings.New(env)
		s.OnBack = showChat
		return s
	})
}
