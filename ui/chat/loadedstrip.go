package chat

import (
	"errors"
	"fmt"
	"github.com/wrasse-app/wrasse/ui/tip"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// loadedStrip shows the capabilities the current conversation's requests
// carry right now: core and pinned ones (always there), then the
// conversation's loaded set (the per-conversation LRU), each with an ×
// that unloads it through the core (refused while the conversation's turn
// runs: the × is disabled then). A failed unload says why at the strip's
// end.
type loadedStrip struct {
	c      *Chat
	box    *fyne.Container
	object fyne.CanvasObject
	// problem is why the last unload in conversation problemIn failed.
	problem   *widget.Label
	problemIn store.ID
	// label names the strip ("Loaded:").
	label *tip.Label
	// names as shown, for tests
	always, loaded []string
	// icon, labels and buttons are the strip's widgets, kept from one
	// refresh to the next (a turn refreshes it as it starts and ends):
	// Fyne keeps a dropped widget's renderer for a minute, so widgets
	// made anew at every turn piled up while turns ran.
	icon    *widget.Icon
	labels  map[string]*widget.Label
	buttons map[string]*widget.Button
}

func newLoadedStrip(c *Chat) *loadedStrip {
	s := &loadedStrip{c: c, box: container.NewHBox(), icon: widget.NewIcon(theme.StorageIcon()),
		labels: map[string]*widget.Label{}, buttons: map[string]*widget.Button{}}
	s.label = tip.NewLabel()
	s.label.SetText("Loaded:")
	s.label.TextStyle.Bold = true
	s.label.Tip = "The capabilities this conversation's requests carry now: the ones always loaded, then those it loaded (× unloads one)"
	s.problem = widget.NewLabel("")
	s.problem.Importance = widget.DangerImportance
	s.object = container.NewHScroll(s.box)
	return s
}

func (s *loadedStrip) refresh() {
	reg := s.c.core.Capabilities()
	id := s.c.cur.id
	var saved []string
	if id != 0 {
		saved, _ = s.c.core.History().Loaded(id)
	}
	names := reg.LoadedNames(reg.NewSession(id.String(), saved))
	snap := reg.Snapshot()
	s.always, s.loaded = nil, nil
	// Named, not only an icon: what the strip lists is not obvious.
	objs := []fyne.CanvasObject{s.icon, s.label}
	running := s.c.running(s.c.cur)
	labels, buttons := map[string]*widget.Label{}, map[string]*widget.Button{}
	for _, n := range names {
		if cp, ok := snap.Get(n); ok && cp.AlwaysLoaded() {
			s.always = append(s.always, n)
			// A plain label beside the buttons of the unloadable ones (not
			// italic: see sidebar.createRow on the cost of a text style).
			l := s.labels[n]
			if l == nil {
				l = widget.NewLabel(n)
			}
			labels[n] = l
			objs = append(objs, l)
			continue
		}
		s.loaded = append(s.loaded, n)
		name := n
		b := s.buttons[n]
		if b == nil {
			b = widget.NewButtonWithIcon(n, theme.CancelIcon(), func() { s.unload(name) })
			b.Importance = widget.MediumImportance
			b.IconPlacement = widget.ButtonIconTrailingText
		}
		buttons[n] = b
		if running {
			// The running turn's session would write its own set back.
			b.Disable()
		} else {
			b.Enable()
		}
		objs = append(objs, b)
	}
	s.labels, s.buttons = labels, buttons
	if s.problem.Text != "" && s.problemIn == id {
		objs = append(objs, s.problem)
	}
	s.box.Objects = objs
	s.box.Refresh()
}

// unload takes a capability out of the conversation's loaded set; the
// next turn's requests leave its tools out.
func (s *loadedStrip) unload(name string) {
	id := s.c.cur.id
	if id == 0 || s.c.running(s.c.cur) {
		return
	}
	s.problem.SetText("")
	if err := s.c.core.Unload(id, name); err != nil {
		s.c.core.Logger().Warn("unloading a capability", "conversation", id.String(), "capability", name, "error", err)
		s.problem.SetText(unloadProblem(name, err))
		s.problemIn = id
	}
	s.refresh()
}

// unloadProblem says why name could not be unloaded and what to do.
func unloadProblem(name string, err error) string {
	if errors.Is(err, agent.ErrBusy) {
		return fmt.Sprintf("%s stays loaded while a reply is being written: unload it when the reply ends.", name)
	}
	msg := fmt.Sprintf("Could not unload %s: %v", name, err)
	if h, ok := hint.Of(err); ok && h.Action != "" {
		msg += " (" + h.Action + ")"
	}
	return msg
}
