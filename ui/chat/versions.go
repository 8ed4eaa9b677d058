package chat

import (
	"context"
	"fmt"
	"github.com/wrasse-app/wrasse/ui/tip"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Versions of a message. An edit or a regenerate keeps what it replaced
// (the core's Resend), and a user message with other versions shows
// ‹ 2 / 3 › in its header: the arrows show the version before or after,
// with what followed it. The store swaps the conversation's live events,
// so the transcript stays a plain list of them; a switch reloads it.

// readVersions reads which of tr's messages have versions, for the rows
// built from now on; it returns the index of the first loaded row whose
// versions changed (-1: none did), marking each such row changed.
func (c *Chat) readVersions(tr *transcript) int {
	if tr.id == 0 {
		return -1
	}
	v, err := c.core.History().Versions(tr.id)
	if err != nil {
		c.core.Logger().Warn("reading a conversation's versions", "conversation", tr.id.String(), "error", err)
		return -1
	}
	tr.versions = v
	first := -1
	for i, r := range tr.rows {
		if r.kind != rowUser || r.part != nil || r.vers == v[r.seq] {
			continue
		}
		r.vers = v[r.seq]
		r.version++
		if first < 0 {
			first = i
		}
	}
	return first
}

// versionSwitch is a message's ‹ 2 / 3 ›.
type versionSwitch struct {
	box        *fyne.Container
	prev, next *tip.Button
	label      *widget.Label
}

func newVersionSwitch(v *messageView) *versionSwitch {
	s := &versionSwitch{label: widget.NewLabel("")}
	s.prev = tip.NewButton("", theme.NavigateBackIcon(), "Previous version", func() {
		if r := v.r; r != nil {
			v.c.switchVersion(r, r.vers.N-1)
		}
	})
	s.next = tip.NewButton("", theme.NavigateNextIcon(), "Next version", func() {
		if r := v.r; r != nil {
			v.c.switchVersion(r, r.vers.N+1)
		}
	})
	s.prev.Importance, s.next.Importance = widget.LowImportance, widget.LowImportance
	s.box = container.New(tightRow{}, s.prev, s.label, s.next)
	s.box.Hide()
	return s
}

// bind shows r's versions, or nothing when it has none. The arrows do
// nothing while a turn runs (it writes to the version shown).
func (s *versionSwitch) bind(r *row, running, quiet bool) {
	show := r.kind == rowUser && r.part == nil && r.vers.Of > 1
	if !show {
		s.box.Hide()
		return
	}
	setLabel(s.label, fmt.Sprintf("%d / %d", r.vers.N, r.vers.Of), quiet)
	s.box.Show()
	if quiet {
		return
	}
	setEnabled(&s.prev.Button, !running && r.vers.N > 1)
	setEnabled(&s.next.Button, !running && r.vers.N < r.vers.Of)
}

func setEnabled(b *widget.Button, on bool) {
	if on && b.Disabled() {
		b.Enable()
	} else if !on && !b.Disabled() {
		b.Disable()
	}
}

// switchVersion shows version n of user message r, keeping the view on
// the message when it was at or above the top of the view. The switch is
// one small transaction, made here as a rename is, so the conversation
// is read again once, before the core's news of it arrives (which then
// finds it up to date).
func (c *Chat) switchVersion(r *row, n int) {
	tr := c.cur
	if c.running(tr) || tr.id == 0 || r.kind != rowUser || n < 1 || n > r.vers.Of || n == r.vers.N {
		return
	}
	id, seq := tr.id, r.seq
	head, err := c.core.SwitchVersion(context.Background(), id, seq, n)
	if err != nil {
		c.core.Logger().Warn("switching a message's version", "conversation", id.String(), "error", err)
		if c.env.Window != nil {
			dialog.ShowError(err, c.env.Window)
		}
		return
	}
	a := c.list.anchorTop()
	if a.end || a.seq >= seq {
		a = anchor{seq: head}
	}
	c.cur = newTranscript(0, c.owner) // force the reload
	c.anchors[id] = a
	c.Open(id)
}

// tightRow lays its objects side by side without gaps, centred
// vertically: an arrow, a label, an arrow read as one control.
type tightRow struct{}

func (tightRow) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		if o.Visible() {
			m := o.MinSize()
			s.Width += m.Width
			s.Height = max(s.Height, m.Height)
		}
	}
	return s
}

func (tightRow) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	x := float32(0)
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		o.Move(fyne.NewPos(x, (size.Height-m.Height)/2))
		o.Resize(fyne.NewSize(m.Width, m.Height))
		x += m.Width
	}
}
