package chat

import (
	"context"
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/tasks"
	"github.com/wrasse-app/wrasse/ui/taskform"
)

// Approver is the window's approval cards as a gate.Approver: the core
// hands it the calls of scheduled runs that wait for the person, so they
// wait here, on the run's conversation, like a turn of the window's own.
func (c *Chat) Approver() gate.Approver { return c.approvals }

// proposals shows, above the composer, the tasks the model proposed in
// the conversation shown (task_propose) that the person has not answered:
// each a card to accept, edit (then accept) or dismiss. Nothing is
// scheduled until they accept.
type proposals struct {
	c      *Chat
	box    *fyne.Container
	object fyne.CanvasObject
	// now is the clock the next-run line reads.
	now func() time.Time
}

func newProposals(c *Chat) *proposals {
	p := &proposals{c: c, box: container.NewVBox(), now: time.Now}
	p.object = p.box
	p.box.Hide()
	return p
}

// refresh shows the current conversation's pending proposals.
func (p *proposals) refresh() {
	c := p.c
	p.box.RemoveAll()
	if c.cur.id != 0 {
		list, err := c.core.Proposals(c.cur.id)
		if err != nil {
			c.core.Logger().Warn("reading proposed tasks", "conversation", c.cur.id.String(), "error", err)
		}
		for _, pr := range list {
			if pr.State == tasks.Proposed {
				p.box.Add(p.card(pr))
			}
		}
	}
	if len(p.box.Objects) == 0 {
		p.box.Hide()
	} else {
		p.box.Show()
	}
	p.box.Refresh()
	c.relayout()
}

// card is one proposal: what it would do and when, and the three answers.
func (p *proposals) card(pr tasks.Proposal) fyne.CanvasObject {
	c := p.c
	spec := assistant.ProposalSpec(pr)
	when := pr.Schedule
	if s, next, err := c.core.CheckSchedule(pr.Schedule); err == nil {
		when = s.Describe() + " — first run " + next.In(c.core.TaskLocation()).Format("Mon 2 Jan 15:04")
	}
	title := widget.NewLabelWithStyle("Proposed task: "+pr.Name, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.Truncation = fyne.TextTruncateEllipsis
	sched := widget.NewLabel(when)
	sched.Truncation = fyne.TextTruncateEllipsis
	prompt := widget.NewLabel(oneLineText(pr.Prompt, 200))
	prompt.Wrapping = fyne.TextWrapWord
	prompt.SizeName = theme.SizeNameCaptionText
	problem := widget.NewLabel("")
	problem.Wrapping = fyne.TextWrapWord
	problem.Importance = widget.DangerImportance
	problem.Hide()
	id := pr.ID
	accept := widget.NewButtonWithIcon("Accept", theme.ConfirmIcon(), nil)
	accept.Importance = widget.HighImportance
	accept.OnTapped = func() {
		accept.Disable()
		c.env.Go(func() {
			_, err := c.core.AcceptProposal(context.Background(), id, spec)
			c.env.Do(func() {
				accept.Enable()
				if err != nil {
					problem.SetText(err.Error())
					problem.Show()
					c.relayout()
					return
				}
				c.showNotice(fmt.Sprintf("Scheduled “%s”: Settings → Tasks lists it.", pr.Name))
				p.refresh()
			})
		})
	}
	edit := widget.NewButtonWithIcon("Edit…", theme.DocumentCreateIcon(), func() {
		if c.env.Window == nil {
			return
		}
		taskform.Show(c.env, "Proposed task", "Accept", spec, func(ctx context.Context, s assistant.TaskSpec) error {
			_, err := c.core.AcceptProposal(ctx, id, s)
			return err
		}, func() {
			c.showNotice(fmt.Sprintf("Scheduled “%s”: Settings → Tasks lists it.", pr.Name))
			p.refresh()
		})
	})
	dismiss := widget.NewButtonWithIcon("Dismiss", theme.CancelIcon(), func() {
		if err := c.core.DismissProposal(id); err != nil {
			problem.SetText(err.Error())
			problem.Show()
			c.relayout()
			return
		}
		p.refresh()
	})
	dismiss.Importance = widget.LowImportance
	body := container.NewVBox(title, sched, prompt, problem, container.NewHBox(accept, edit, dismiss))
	return widget.NewCard("", "", body)
}

func oneLineText(s string, n int) string {
	r := []rune(s)
	out := make([]rune, 0, min(len(r), n))
	space := false
	for _, ch := range r {
		if ch == '\n' || ch == '\t' || ch == ' ' {
			space = len(out) > 0
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = append(out, ch)
		if len(out) >= n {
			return string(out) + "…"
		}
	}
	return string(out)
}
