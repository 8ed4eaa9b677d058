package ui

import (
	"fyne.io/fyne/v2"

	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// HandleDrop is the window's drop handler (Window.SetOnDropped): files
// dropped while the settings show the Capabilities page are imported
// there; anywhere else they are attached to the chat's composer, and the
// chat comes forward so the attachment is seen. Fyne's drop is window-wide
// and carries only the mouse position, so the view showing decides.
func (s *Shell) HandleDrop(_ fyne.Position, uris []fyne.URI) {
	if len(uris) == 0 {
		return
	}
	if s.showing == viewSettings && s.settingsTakesDrops() {
		s.settings.HandleDrop(uris)
		return
	}
	s.ShowChat()
	s.chat.HandleDrop(uris)
}

// settingsTakesDrops reports whether the settings show the Capabilities
// page. Settings that cannot say which page they show take every drop.
func (s *Shell) settingsTakesDrops() bool {
	p, ok := s.settings.(pageReporter)
	return !ok || p.Page() == hint.PageCapabilities
}
