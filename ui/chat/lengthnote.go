package chat

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/store"
)

// lengthNote goes under a reply that stopped at the model's length limit
// (store.StatusLength): it says so and, on the last reply, offers
// Continue, which asks the model for the rest (App.Continue).
type lengthNote struct {
	text *widget.Label
	cont *widget.Button
	box  *fyne.Container
}

func newLengthNote(c *Chat) *lengthNote {
	n := &lengthNote{}
	n.text = widget.NewLabel("The reply stopped at the model's length limit.")
	n.text.Importance = widget.WarningImportance
	n.text.Truncation = fyne.TextTruncateEllipsis
	n.cont = widget.NewButtonWithIcon("Continue", theme.MediaPlayIcon(), c.continueReply)
	n.box = container.NewBorder(nil, nil, nil, container.NewHBox(n.cont, layout.NewSpacer()), n.text)
	n.box.Hide()
	return n
}

// bind shows the note for reply r (hidden for any other), Continue only
// on the last reply while no turn runs.
func (n *lengthNote) bind(r *row, last, running bool) {
	setVisible(n.box, r.kind == rowAssistant && r.status == store.StatusLength)
	setVisible(n.cont, last && !running)
}

// continueReply asks the model to go on with the current conversation's
// last reply, cut at its length limit.
func (c *Chat) continueReply() {
	if c.running(c.cur) || c.cur.id == 0 {
		return
	}
	id := c.cur.id
	c.startTurn(c.cur, assistant.ContinueText, func(ctx context.Context, opt assistant.TurnOptions) (store.ID, error) {
		return c.core.Continue(ctx, id, opt)
	})
}
