package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// PENDING(chat, settings): ui/chat and ui/settings are being written. Until
// they compile, newViews hands the shell these stand-ins, which show where
// each part goes and nothing more. When they land, newViews becomes
//
//	c := chat.New(env)
//	s := settings.New(env)
//	s.OnBack = onBack
//	return c, s
//
// and this file goes.
func newViews(env *bridge.Env, onBack func()) (chatView, settingsView) {
	return &placeholderChat{}, &placeholderSettings{onBack: onBack}
}

type placeholderChat struct{}

func (*placeholderChat) Sidebar() fyne.CanvasObject {
	return widget.NewLabel("Conversations")
}

func (*placeholderChat) Object() fyne.CanvasObject {
	return container.NewCenter(widget.NewLabel("The chat arrives with ui/chat."))
}

func (*placeholderChat) NewConversation()      {}
func (*placeholderChat) Stop()                 {}
func (*placeholderChat) ShowFind()             {}
func (*placeholderChat) FocusComposer()        {}
func (*placeholderChat) HandleDrop([]fyne.URI) {}
func (*placeholderChat) Current() store.ID     { return 0 }

type placeholderSettings struct{ onBack func() }

func (p *placeholderSettings) Object() fyne.CanvasObject {
	return container.NewCenter(container.NewVBox(
		widget.NewLabel("Settings arrive with ui/settings."),
		widget.NewButton("Back", p.onBack),
	))
}

func (*placeholderSettings) Show(hint.Page, string) {}
func (*placeholderSettings) HandleDrop([]fyne.URI)  {}
