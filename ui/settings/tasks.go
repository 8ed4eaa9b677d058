package settings

import (
	"context"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/tasks"
	"github.com/wrasse-app/wrasse/ui/bridge"
	"github.com/wrasse-app/wrasse/ui/confirm"
	"github.com/wrasse-app/wrasse/ui/taskform"
)

// pageTasks is the Tasks tab's key.
const pageTasks = "capability:" + assistant.TasksCapability

// historyShown is how many runs a task's history shows.
const historyShown = 10

// tasksPage is the Tasks page: the scheduled tasks with their next run,
// last outcome and history, New/Edit/Run now/on-off/Delete, and the
// tasks capability's keep-running setting. Everything goes through the
// core's task methods.
type tasksPage struct {
	env *bridge.Env

	keep    *escCheck
	capNote *widget.Label
	list    *fyne.Container
	empty   *widget.Label
	outcome *problemLine
	page    *pageScroll
	// open are the tasks whose history is shown.
	open map[tasks.ID]bool
	// settingKeep is set while keep follows the stored value.
	settingKeep bool
	now         func() time.Time
}

func newTasksPage(env *bridge.Env) *tasksPage {
	p := &tasksPage{env: env, open: map[tasks.ID]bool{}, now: time.Now}
	about := widget.NewLabel("Prompts the assistant runs on its own on a schedule, each run a conversation of its own in the sidebar, " +
		"grouped under its task. Runs never approve anything themselves: a call that needs approval waits for you with a notification, " +
		"or is denied if the task says so. Tasks run while Wrasse runs.")
	about.Wrapping = fyne.TextWrapWord
	p.keep = newCheck("Keep Wrasse running in the system tray when the window closes, so tasks still run", func(on bool) {
		if !p.settingKeep {
			p.setKeep(on)
		}
	})
	p.capNote = widget.NewLabel("")
	p.capNote.Wrapping = fyne.TextWrapWord
	p.capNote.Importance = widget.WarningImportance
	p.capNote.Hide()
	add := newButtonWithIcon("New task", theme.ContentAddIcon(), p.newTask)
	add.Importance = widget.HighImportance
	p.empty = widget.NewLabel("No scheduled tasks yet. Make one here, or ask the assistant (\"every weekday at 8, summarise …\") and accept its proposal.")
	p.empty.Wrapping = fyne.TextWrapWord
	p.list = container.NewVBox()
	p.outcome = newProblemLine(env.Show)
	content := container.NewVBox(about, p.keep, p.capNote, container.NewHBox(add), p.outcome.Object(), widget.NewSeparator(), p.empty, p.list)
	p.page = newPageScroll(content)
	p.Refresh()
	return p
}

// Object is the page.
func (p *tasksPage) Object() fyne.CanvasObject { return p.page }

func (p *tasksPage) setKeep(on bool) {
	v := "false"
	if on {
		v = "true"
	}
	if err := p.env.Core.SetSetting(assistant.TasksCapability, assistant.KeepRunningSetting, v); err != nil {
		p.outcome.Error(err)
	}
}

// Refresh reads the tasks and the setting again.
func (p *tasksPage) Refresh() {
	core := p.env.Core
	p.settingKeep = true
	p.keep.SetChecked(core.KeepRunning())
	p.settingKeep = false
	if c, ok := core.Capabilities().Snapshot().Get(assistant.TasksCapability); ok && !c.Usable() {
		p.capNote.SetText("The tasks capability is switched off: the assistant cannot propose or list tasks. Your tasks still run on their schedule.")
		p.capNote.Show()
	} else {
		p.capNote.Hide()
	}
	infos, err := core.Tasks()
	if err != nil {
		p.outcome.Error(err)
		return
	}
	p.list.RemoveAll()
	for _, t := range infos {
		p.list.Add(p.taskCard(t))
	}
	if len(infos) == 0 {
		p.empty.Show()
	} else {
		p.empty.Hide()
	}
	p.list.Refresh()
	p.page.Relayout()
}

func (p *tasksPage) when(t time.Time) string {
	return t.In(p.env.Core.TaskLocation()).Format("Mon 2 Jan 15:04")
}

// taskCard shows one task.
func (p *tasksPage) taskCard(t assistant.TaskInfo) fyne.CanvasObject {
	core := p.env.Core
	title := widget.NewLabelWithStyle(t.Name, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.Truncation = fyne.TextTruncateEllipsis
	lines := []string{t.Schedule.Describe()}
	switch {
	case !t.Enabled:
		lines = append(lines, "Off")
	case t.Next.IsZero():
		lines = append(lines, "No next run")
	case t.Next.Before(p.now()):
		lines = append(lines, "Next run: due now ("+p.when(t.Next)+")")
	default:
		lines = append(lines, "Next run: "+p.when(t.Next))
	}
	if t.Running {
		lines = append(lines, "Running now")
	} else if t.Last != nil {
		lines = append(lines, "Last run: "+runLine(t.Last, p.when))
	}
	if t.OnApproval() == tasks.Deny {
		lines = append(lines, "Calls that need approval are denied")
	}
	if t.Model != "" {
		lines = append(lines, "Model: "+t.Model)
	}
	if t.Capabilities != nil {
		lines = append(lines, "Capabilities: "+strings.Join(t.Capabilities, ", "))
	}
	detail := widget.NewLabel(strings.Join(lines, " · "))
	detail.Wrapping = fyne.TextWrapWord
	prompt := widget.NewLabel(oneLine(t.Prompt, 240))
	prompt.Wrapping = fyne.TextWrapWord
	prompt.SizeName = theme.SizeNameCaptionText

	id := t.ID
	on := newCheck("On", func(v bool) {
		p.env.Go(func() {
			_, err := core.EnableTask(context.Background(), id.String(), v)
			p.env.Do(func() { p.done(err, "") })
		})
	})
	on.Checked = t.Enabled
	run := newButtonWithIcon("Run now", theme.MediaPlayIcon(), func() {
		_, err := core.RunNow(id.String())
		p.done(err, fmt.Sprintf("Started a run of “%s”: it is in the sidebar.", t.Name))
	})
	if t.Running {
		run.Disable()
	}
	edit := newButtonWithIcon("Edit", theme.DocumentCreateIcon(), func() { p.editTask(t.Task) })
	hist := newButtonWithIcon("History", theme.HistoryIcon(), func() {
		p.open[id] = !p.open[id]
		p.Refresh()
	})
	del := newButtonWithIcon("", theme.DeleteIcon(), func() { p.confirmDelete(t.Task) })
	del.Importance = widget.LowImportance
	buttons := container.NewHBox(on, run, edit, hist, del)
	box := container.NewVBox(container.NewBorder(nil, nil, nil, buttons, title), detail, prompt)
	if p.open[id] {
		box.Add(p.history(t.Task))
	}
	box.Add(widget.NewSeparator())
	return box
}

// runLine says how a run went, briefly.
func runLine(r *tasks.Run, when func(time.Time) string) string {
	s := string(r.Outcome) + " " + when(r.Started)
	switch r.Outcome {
	case tasks.Waiting:
		s = "waiting for your approval since " + when(r.Started)
	case tasks.Failed:
		s += ": " + oneLine(r.Error, 120)
	case tasks.Skipped:
		s = "skipped " + when(r.Due)
	}
	return s
}

// history lists a task's newest runs, each with a way to its conversation.
func (p *tasksPage) history(t tasks.Task) fyne.CanvasObject {
	_, runs, err := p.env.Core.TaskRuns(t.ID.String(), historyShown)
	if err != nil {
		return widget.NewLabel(err.Error())
	}
	if len(runs) == 0 {
		return widget.NewLabel("No runs yet.")
	}
	box := container.NewVBox()
	for _, r := range runs {
		text := runLine(&r, p.when)
		if r.InputTokens+r.OutputTokens > 0 {
			text += fmt.Sprintf(" · %d tokens in, %d out", r.InputTokens, r.OutputTokens)
		}
		if !r.Finished.IsZero() && !r.Started.IsZero() && r.Outcome != tasks.Skipped {
			text += " · took " + r.Finished.Sub(r.Started).Round(time.Second).String()
		}
		if r.Note != "" && r.Outcome != tasks.Skipped {
			text += " · " + r.Note
		} else if r.Outcome == tasks.Skipped {
			text += ": " + r.Note
		}
		l := widget.NewLabel(text)
		l.Wrapping = fyne.TextWrapWord
		l.SizeName = theme.SizeNameCaptionText
		if r.Conversation == 0 {
			box.Add(l)
			continue
		}
		conv := store.ID(r.Conversation)
		open := newButton("Open", func() { p.env.OpenConversation(conv) })
		open.Importance = widget.LowImportance
		box.Add(container.NewBorder(nil, nil, nil, open, l))
	}
	return container.NewPadded(box)
}

func (p *tasksPage) done(err error, ok string) {
	if err != nil {
		p.outcome.Error(err)
	} else if ok != "" {
		p.outcome.OK(ok)
	} else {
		p.outcome.Clear()
	}
	p.Refresh()
}

func (p *tasksPage) newTask() {
	if p.env.Window == nil {
		return
	}
	taskform.Show(p.env, "New scheduled task", "Add", assistant.TaskSpec{Enabled: true},
		func(ctx context.Context, s assistant.TaskSpec) error {
			_, err := p.env.Core.AddTask(ctx, s)
			return err
		}, func() { p.done(nil, "") })
}

func (p *tasksPage) editTask(t tasks.Task) {
	if p.env.Window == nil {
		return
	}
	id := t.ID.String()
	taskform.Show(p.env, "Edit “"+t.Name+"”", "Save", assistant.SpecOf(t),
		func(ctx context.Context, s assistant.TaskSpec) error {
			_, err := p.env.Core.UpdateTask(ctx, id, func(old *assistant.TaskSpec) { *old = s })
			return err
		}, func() { p.done(nil, "") })
}

func (p *tasksPage) confirmDelete(t tasks.Task) {
	if p.env.Window == nil {
		return
	}
	d := confirm.New("Delete task?", fmt.Sprintf("“%s” will no longer run; its run records go, its conversations stay.", t.Name), "Delete", "Cancel",
		func(ok bool) {
			if ok {
				_, err := p.env.Core.RemoveTask(t.ID.String())
				p.done(err, "")
			}
		}, p.env.Window)
	d.SetConfirmImportance(widget.DangerImportance)
	d.Show()
}
