package chat

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// loadedStrip shows the capabilities the current conversation's requests
// carry right now: core and pinned ones (always there), then the
// conversation's loaded set (the per-conversation LRU), each with an ×
// that unloads it.
type loadedStrip struct {
	c      *Chat
	box    *fyne.Container
	object fyne.CanvasObject
	// names as shown, for tests
	always, loaded []string
}

func newLoadedStrip(c *Chat) *loadedStrip {
	s := &loadedStrip{c: c, box: container.NewHBox()}
	s.object = container.NewHScroll(s.box)
	return s
}

func (s *loadedStrip) refresh() {
	reg := s.c.core.Registry()
	id := s.c.cur.id
	var saved []string
	if id != 0 {
		saved, _ = s.c.core.Store().Loaded(id)
	}
	names := reg.LoadedNames(reg.NewSession(id.String(), saved))
	snap := reg.Snapshot()
	s.always, s.loaded = nil, nil
	objs := []fyne.CanvasObject{widget.NewIcon(theme.StorageIcon())}
	running := s.c.running(s.c.cur)
	for _, n := range names {
		if cp, ok := snap.Get(n); ok && cp.AlwaysLoaded() {
			s.always = append(s.always, n)
			l := widget.NewLabel(n)
			l.TextStyle.Italic = true
			objs = append(objs, l)
			continue
		}
		s.loaded = append(s.loaded, n)
		name := n
		b := widget.NewButtonWithIcon(n, theme.CancelIcon(), func() { s.unload(name) })
		b.Importance = widget.MediumImportance
		b.IconPlacement = widget.ButtonIconTrailingText
		if running {
			// The running turn's session would write its own set back.
			b.Disable()
		}
		objs = append(objs, b)
	}
	s.box.Objects = objs
	s.box.Refresh()
}

// unload removes a capability from the conversation's loaded set; the
// next turn's session is built from the stored set.
func (s *loadedStrip) unload(name string) {
	id := s.c.cur.id
	if id == 0 || s.c.running(s.c.cur) {
		return
	}
	saved, err := s.c.core.Store().Loaded(id)
	if err == nil {
		err = s.c.core.Store().SetLoaded(id, slices.DeleteFunc(saved, func(n string) bool { return n == name }))
	}
	if err != nil {
		s.c.core.Logger().Warn("unloading a capability", "capability", name, "error", err)
	}
	s.refresh()
}
