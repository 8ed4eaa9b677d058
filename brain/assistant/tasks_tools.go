package assistant

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/tasks"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// taskTools serves the tasks capability's tools in process, as history
// does: task_propose makes a proposal the person accepts, edits or
// dismisses on a card (never a task behind their back); task_list shows
// the model what exists.
type taskTools struct{ a *App }

var _ cerebellum.Runtime = taskTools{}

// Close does nothing: the store belongs to the App.
func (taskTools) Close() error { return nil }

// Call runs one tool. Failures the model can fix are error Results.
func (tt taskTools) Call(ctx context.Context, tool string, args json.RawMessage) (cerebellum.Result, error) {
	conv := store.ID(0)
	if s := cerebellum.SessionFrom(ctx); s != nil {
		if id, err := store.ParseID(s.ID()); err == nil {
			conv = id
		}
	}
	switch tool {
	case "task_propose":
		var a struct {
			Name     string `json:"name"`
			Prompt   string `json:"prompt"`
			Schedule string `json:"schedule"`
		}
		if err := json.Unmarshal(args, &a); err != nil {
			return toolError(`arguments must be a JSON object like {"name":"Morning news","prompt":"…","schedule":"every weekday at 08:00"}: ` + err.Error()), nil
		}
		return tt.propose(ctx, conv, a.Name, a.Prompt, a.Schedule), nil
	case "task_list":
		return tt.list(), nil
	}
	return cerebellum.Result{}, fmt.Errorf("%w: tasks has no tool %q", cerebellum.ErrUnknownTool, tool)
}

func toolError(msg string) cerebellum.Result { return cerebellum.Result{Content: msg, IsError: true} }

func (tt taskTools) propose(ctx context.Context, conv store.ID, name, prompt, schedule string) cerebellum.Result {
	a := tt.a
	if conv == 0 {
		return toolError("a task can only be proposed in a conversation, where the person can accept it")
	}
	t, err := a.checkSpec(ctx, TaskSpec{Name: name, Prompt: prompt, Schedule: schedule, Enabled: true})
	if err != nil {
		return toolError("not proposed: " + err.Error() + `. Schedules read like "every weekday at 08:00", "daily 7:30", "every 2h", ` +
			`"weekly mon,thu 09:30", "once 2025-06-01 14:30", "in 30m" or "cron 0 8 * * 1-5".`)
	}
	p, err := a.db.AddProposal(tasks.Proposal{Conversation: uint64(conv), Name: t.Name, Prompt: t.Prompt,
		Schedule: t.Schedule.String(), State: tasks.Proposed, Created: a.tasks.now()})
	if err != nil {
		return toolError("could not keep the proposal: " + err.Error())
	}
	a.tasks.publish(conv.String())
	next := t.Schedule.Next(a.tasks.now(), a.TaskLocation())
	return cerebellum.Result{Content: fmt.Sprintf("Proposed the task “%s” (%s; it would first run %s) to the person as a card "+
		"in this conversation (proposal %d). It is not created yet: they accept, edit or dismiss it. Tell them briefly what it will do.",
		p.Name, t.Schedule.Describe(), next.Format("Mon 2 Jan 2006 at 15:04"), p.ID)}
}

func (tt taskTools) list() cerebellum.Result {
	infos, err := tt.a.Tasks()
	if err != nil {
		return toolError("could not read the scheduled tasks: " + err.Error())
	}
	if len(infos) == 0 {
		return cerebellum.Result{Content: "No scheduled tasks yet. Propose one with task_propose when the person asks for something to run on a schedule."}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d scheduled %s:\n", len(infos), plural(len(infos), "task", "tasks"))
	for _, t := range infos {
		state := "on"
		if !t.Enabled {
			state = "off"
		}
		fmt.Fprintf(&b, "- %s “%s” (%s): %s", t.ID, t.Name, state, t.Schedule.Describe())
		if !t.Next.IsZero() {
			fmt.Fprintf(&b, "; next %s", t.Next.In(tt.a.TaskLocation()).Format("Mon 2 Jan 15:04"))
		}
		if t.Last != nil {
			fmt.Fprintf(&b, "; last run %s", t.Last.Outcome)
		}
		fmt.Fprintf(&b, "\n  prompt: %s\n", oneLine(t.Prompt, 200))
	}
	return cerebellum.Result{Content: b.String()}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// Proposals lists the tasks proposed in conversation conv (0: all),
// oldest first, whatever became of them.
func (a *App) Proposals(conv store.ID) ([]tasks.Proposal, error) { return a.db.Proposals(conv) }

// AcceptProposal creates the task proposal id proposed, as spec (the
// proposal as the person left it on the card, edited or not), and marks
// it accepted.
func (a *App) AcceptProposal(ctx context.Context, id uint64, spec TaskSpec) (tasks.Task, error) {
	p, err := a.pendingProposal(id)
	if err != nil {
		return tasks.Task{}, err
	}
	t, err := a.AddTask(ctx, spec)
	if err != nil {
		return t, err
	}
	if _, err := a.db.UpdateProposal(id, func(p *tasks.Proposal) error {
		p.State, p.Task = tasks.Accepted, t.ID
		return nil
	}); err != nil {
		return t, err
	}
	a.tasks.publish(store.ID(p.Conversation).String())
	return t, nil
}

// DismissProposal marks proposal id dismissed: no task is made.
func (a *App) DismissProposal(id uint64) error {
	p, err := a.pendingProposal(id)
	if err != nil {
		return err
	}
	if _, err := a.db.UpdateProposal(id, func(p *tasks.Proposal) error {
		p.State = tasks.Dismissed
		return nil
	}); err != nil {
		return err
	}
	a.tasks.publish(store.ID(p.Conversation).String())
	return nil
}

// ProposalSpec is proposal p as a TaskSpec to show on its card.
func ProposalSpec(p tasks.Proposal) TaskSpec {
	return TaskSpec{Name: p.Name, Prompt: p.Prompt, Schedule: p.Schedule, Enabled: true}
}

func (a *App) pendingProposal(id uint64) (tasks.Proposal, error) {
	ps, err := a.db.Proposals(0)
	if err != nil {
		return tasks.Proposal{}, err
	}
	for _, p := range ps {
		if p.ID != id {
			continue
		}
		if p.State != tasks.Proposed {
			return p, fmt.Errorf("proposal %d was already %s", id, p.State)
		}
		return p, nil
	}
	return tasks.Proposal{}, fmt.Errorf("%w: proposal %d", ErrNoTask, id)
}
