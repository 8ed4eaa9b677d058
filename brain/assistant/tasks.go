package assistant

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/tasks"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// Scheduled tasks: the core keeps them in the database, runs the
// scheduler (brain/tasks) while a front end asks it to (StartTasks: the
// window), and carries out each run as an ordinary turn of a conversation
// of its own, through Turn with the same gate, approvals, budgets and
// history as the window's turns. Front ends reach tasks only through the
// methods here and learn of changes through Subscribe.

// TasksCapability is the built-in capability of the task tools
// (task_propose, task_list) and the Tasks page's settings.
const TasksCapability = "tasks"

// KeepRunningSetting is the tasks capability's setting that keeps the app
// running, with its tray icon, when the window closes.
const KeepRunningSetting = "keepRunning"

// discoveryCapability is always usable by a run, whatever its list says:
// without tool_search a run could load nothing.
const discoveryCapability = "tool-discovery"

// The events of scheduled tasks.
const (
	// EventTasks: a task, its runs or a proposal changed. Names holds the
	// tasks ("t3") or, for a proposal, its conversation ("c12").
	EventTasks EventKind = "tasks"
	// EventTaskRun: a run finished, failed or waits for approval; Run
	// says which (a desktop notification's content).
	EventTaskRun EventKind = "task_run"
)

// RunNotice is what a front end tells the person about a run.
type RunNotice struct {
	Task tasks.Task
	Run  tasks.Run
	// Text is the first line of the answer (done), the error (failed) or
	// the call that waits (waiting).
	Text string
}

// Conversation is the run's conversation (0: none was made).
func (n RunNotice) Conversation() store.ID { return store.ID(n.Run.Conversation) }

// TaskSpec is a task as a person writes it: the schedule as text.
type TaskSpec struct {
	Name     string
	Prompt   string
	Schedule string
	// Model is the model its runs use ("": the one configured when a run
	// starts).
	Model string
	// Capabilities are the ones its runs may use (nil: every enabled one).
	Capabilities []string
	// Approvals is what a call that needs approval does ("": wait).
	Approvals tasks.Approvals
	Enabled   bool
}

// SpecOf is task t as a TaskSpec.
func SpecOf(t tasks.Task) TaskSpec {
	return TaskSpec{Name: t.Name, Prompt: t.Prompt, Schedule: t.Schedule.String(), Model: t.Model,
		Capabilities: slices.Clone(t.Capabilities), Approvals: t.Approvals, Enabled: t.Enabled}
}

// TaskInfo is a task with what the scheduler knows of it.
type TaskInfo struct {
	tasks.Task
	// Next is its next run (zero: none; before now: missed, decided on
	// the scheduler's next wake-up).
	Next    time.Time
	Running bool
	// Last is its newest run record, if any.
	Last *tasks.Run
}

// TaskRunRef names the task a conversation is a run of.
type TaskRunRef struct {
	Task tasks.ID
	Name string
	Run  tasks.Run
}

// TaskHost is what a front end that runs the scheduler offers it.
type TaskHost struct {
	// Approver answers calls of runs whose task waits for approval (the
	// window's approval cards). nil: such a run stops at the call and
	// fails, saying no one could be asked.
	Approver gate.Approver
}

// taskState is the scheduler and the runs going.
type taskState struct {
	a     *App
	sched *tasks.Scheduler

	loadOnce sync.Once
	loadErr  error

	mu       sync.Mutex
	started  bool
	approver gate.Approver
	closed   bool

	// ctx is the runs' context: Close cancels it.
	ctx    context.Context
	cancel context.CancelFunc
	runs   sync.WaitGroup
	loop   chan struct{} // closed when the scheduler's loop ends
}

func newTaskState(a *App) *taskState {
	ts := &taskState{a: a, loop: make(chan struct{})}
	ts.ctx, ts.cancel = context.WithCancel(context.Background())
	ts.sched = tasks.New(tasks.Options{Clock: a.opts.TaskClock, Location: a.opts.Location, Host: ts, Logger: a.log})
	return ts
}

// load hands the stored tasks to the scheduler once.
func (ts *taskState) load() error {
	ts.loadOnce.Do(func() {
		list, err := ts.a.db.Tasks()
		if err != nil {
			ts.loadErr = err
			return
		}
		for _, t := range list {
			ts.sched.Set(t)
		}
	})
	return ts.loadErr
}

// close cancels the runs, waits for them (bounded) and for the loop.
func (ts *taskState) close() {
	ts.mu.Lock()
	started := ts.started
	ts.closed = true
	ts.mu.Unlock()
	ts.cancel()
	done := make(chan struct{})
	go func() {
		ts.runs.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		ts.a.log.Warn("scheduled runs did not stop within 10 s of closing")
	}
	if started {
		<-ts.loop
	}
}

func (ts *taskState) now() time.Time {
	if ts.a.opts.TaskClock != nil {
		return ts.a.opts.TaskClock.Now()
	}
	return ts.a.opts.Clock()
}

func (ts *taskState) publish(names ...string) {
	ts.a.subs.publish(Event{Kind: EventTasks, Names: names})
}

// StartTasks runs the scheduler until ctx ends or the App closes: tasks
// run on their schedule, missed ones by the missed-run rule. The window
// calls it; CLI commands do not, so a short command never starts runs.
func (a *App) StartTasks(ctx context.Context, host TaskHost) error {
	ts := a.tasks
	if err := ts.load(); err != nil {
		return err
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.closed {
		return fmt.Errorf("start the scheduled tasks: %w", tasks.ErrStopped)
	}
	if ts.started {
		return errors.New("the scheduled tasks already run")
	}
	ts.started, ts.approver = true, host.Approver
	loopCtx, cancel := context.WithCancel(ctx)
	go func() {
		<-ts.ctx.Done()
		cancel()
	}()
	go func() {
		defer close(ts.loop)
		defer cancel()
		_ = ts.sched.Run(loopCtx)
	}()
	return nil
}

// TasksStarted reports whether this App runs the scheduler.
func (a *App) TasksStarted() bool {
	a.tasks.mu.Lock()
	defer a.tasks.mu.Unlock()
	return a.tasks.started
}

// TaskLocation is the time zone schedules are read in.
func (a *App) TaskLocation() *time.Location { return a.tasks.sched.Location() }

// Tasks lists the scheduled tasks, oldest first, with their next run and
// newest run record.
func (a *App) Tasks() ([]TaskInfo, error) {
	if err := a.tasks.load(); err != nil {
		return nil, err
	}
	list, err := a.db.Tasks()
	if err != nil {
		return nil, err
	}
	out := make([]TaskInfo, 0, len(list))
	for _, t := range list {
		out = append(out, a.taskInfo(t))
	}
	return out, nil
}

// Task returns one task, found by id ("t3", "3") or by name.
func (a *App) Task(ref string) (TaskInfo, error) {
	t, err := a.findTask(ref)
	if err != nil {
		return TaskInfo{}, err
	}
	return a.taskInfo(t), nil
}

func (a *App) taskInfo(t tasks.Task) TaskInfo {
	info := TaskInfo{Task: t, Next: a.tasks.sched.Next(t.ID), Running: a.tasks.sched.Running(t.ID)}
	if runs, err := a.db.Runs(t.ID, 1); err == nil && len(runs) == 1 {
		info.Last = &runs[0]
	}
	return info
}

// findTask reads the task ref names: its id or its name (case does not
// matter); an unknown one lists the names it might have meant.
func (a *App) findTask(ref string) (tasks.Task, error) {
	ref = strings.TrimSpace(ref)
	if id, ok := parseTaskID(ref); ok {
		t, err := a.db.Task(id)
		if err == nil {
			return t, nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return t, err
		}
	}
	list, err := a.db.Tasks()
	if err != nil {
		return tasks.Task{}, err
	}
	var names []string
	for _, t := range list {
		if strings.EqualFold(t.Name, ref) {
			return t, nil
		}
		names = append(names, t.Name)
	}
	err = fmt.Errorf("%w: %q", ErrNoTask, ref)
	if near := hint.Closest(ref, names, 2); len(near) > 0 {
		err = fmt.Errorf("%w (did you mean %s?)", err, strings.Join(quoteAll(near), " or "))
	}
	return tasks.Task{}, hint.With(err, hint.Hint{Action: "List the scheduled tasks", Command: []string{"tasks", "list"}})
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = fmt.Sprintf("%q", v)
	}
	return out
}

// parseTaskID reads "t3", "T3" or "3".
func parseTaskID(s string) (tasks.ID, bool) {
	t := strings.TrimPrefix(strings.TrimPrefix(s, "t"), "T")
	var n uint64
	if _, err := fmt.Sscanf(t, "%d", &n); err != nil || n == 0 || fmt.Sprint(n) != t {
		return 0, false
	}
	return tasks.ID(n), true
}

// CheckSchedule reads a schedule as the task editor shows it: the
// schedule and its next run, or why it cannot be one.
func (a *App) CheckSchedule(text string) (tasks.Schedule, time.Time, error) {
	now := a.tasks.now()
	loc := a.TaskLocation()
	s, err := tasks.Check(text, now, loc)
	if err != nil {
		return s, time.Time{}, err
	}
	return s, s.Next(now, loc), nil
}

// checkSpec validates spec as a task: its text, that its schedule fires,
// that its model exists (when the model server can say) and that its
// capabilities are installed. Every problem found is reported at once.
func (a *App) checkSpec(ctx context.Context, spec TaskSpec) (tasks.Task, error) {
	var errs []error
	t := tasks.Task{Name: strings.TrimSpace(spec.Name), Prompt: strings.TrimSpace(spec.Prompt), Model: strings.TrimSpace(spec.Model),
		Approvals: spec.Approvals, Enabled: spec.Enabled}
	sch, err := tasks.Check(spec.Schedule, a.tasks.now(), a.TaskLocation())
	if err != nil {
		errs = append(errs, fmt.Errorf("schedule: %w", err))
	} else {
		t.Schedule = sch
	}
	if err := t.Check(); err != nil && !(t.Schedule.Kind == "" && onlyScheduleMissing(t)) {
		errs = append(errs, err)
	}
	if spec.Capabilities != nil {
		t.Capabilities = []string{}
		snap := a.reg.Snapshot()
		var names []string
		for _, c := range snap.Capabilities() {
			names = append(names, c.Name)
		}
		for _, name := range spec.Capabilities {
			name = strings.TrimSpace(name)
			if name == "" || slices.Contains(t.Capabilities, name) {
				continue
			}
			if _, ok := snap.Get(name); !ok {
				e := fmt.Errorf("%w: %q is not installed", ErrUnknownCapability, name)
				if near := hint.Closest(name, names, 1); len(near) == 1 {
					e = fmt.Errorf("%w (did you mean %q?)", e, near[0])
				}
				errs = append(errs, hint.With(e, hint.Hint{Action: "See the installed capabilities", Command: []string{"caps", "list"}}))
				continue
			}
			t.Capabilities = append(t.Capabilities, name)
		}
	}
	if t.Model != "" {
		if err := a.checkTaskModel(ctx, t.Model); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return t, errors.Join(errs...)
	}
	return t, nil
}

// onlyScheduleMissing: Check's complaint is only the schedule, which was
// reported with its own reason.
func onlyScheduleMissing(t tasks.Task) bool {
	t.Schedule = tasks.Schedule{Kind: tasks.Daily}
	return t.Check() == nil
}

// checkTaskModel refuses a model the model server does not list. When the
// list cannot be read (the server is not running now) the model is kept:
// its runs will say so if it is still missing then.
func (a *App) checkTaskModel(ctx context.Context, model string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	models, err := a.Models(ctx, workspace.Config{})
	if err != nil {
		a.log.Info("the model of a scheduled task could not be checked", "model", model, "error", err)
		return nil
	}
	var ids []string
	for _, m := range models {
		if m.ID == model {
			return nil
		}
		ids = append(ids, m.ID)
	}
	e := fmt.Errorf("%w: the model server does not offer %q", ErrUnknownModel, model)
	if near := hint.Closest(model, ids, 1); len(near) == 1 {
		e = fmt.Errorf("%w (did you mean %q?)", e, near[0])
	}
	return hint.With(e, hint.Hint{Action: "List the models", Command: []string{"models", "list"}})
}

// AddTask validates spec and stores it as a new task; the scheduler
// takes it at once.
func (a *App) AddTask(ctx context.Context, spec TaskSpec) (tasks.Task, error) {
	t, err := a.checkSpec(ctx, spec)
	if err != nil {
		return t, err
	}
	t.Created = a.tasks.now()
	if err := a.tasks.load(); err != nil {
		return t, err
	}
	t, err = a.db.AddTask(t)
	if err != nil {
		return t, err
	}
	a.tasks.sched.Set(t)
	a.tasks.publish(t.ID.String())
	return t, nil
}

// UpdateTask changes task ref with edit and stores it when it validates.
// A changed schedule, or a task switched back on, counts from now: times
// that passed before are not missed runs.
func (a *App) UpdateTask(ctx context.Context, ref string, edit func(*TaskSpec)) (tasks.Task, error) {
	old, err := a.findTask(ref)
	if err != nil {
		return old, err
	}
	spec := SpecOf(old)
	edit(&spec)
	next, err := a.checkSpec(ctx, spec)
	if err != nil {
		return old, err
	}
	if err := a.tasks.load(); err != nil {
		return old, err
	}
	now := a.tasks.now()
	t, err := a.db.UpdateTask(old.ID, func(t *tasks.Task) error {
		restart := next.Schedule.String() != t.Schedule.String() || (next.Enabled && !t.Enabled)
		if next.Schedule.String() == t.Schedule.String() {
			next.Schedule = t.Schedule // keeps an every schedule's anchor
		}
		next.ID, next.Created, next.Handled = t.ID, t.Created, t.Handled
		if restart {
			next.Handled = now
		}
		*t = next
		return nil
	})
	if err != nil {
		return old, err
	}
	a.tasks.sched.Set(t)
	a.tasks.publish(t.ID.String())
	return t, nil
}

// EnableTask switches task ref on or off.
func (a *App) EnableTask(ctx context.Context, ref string, on bool) (tasks.Task, error) {
	return a.UpdateTask(ctx, ref, func(s *TaskSpec) { s.Enabled = on })
}

// RemoveTask deletes task ref and its run records; its conversations stay.
func (a *App) RemoveTask(ref string) (tasks.Task, error) {
	t, err := a.findTask(ref)
	if err != nil {
		return t, err
	}
	if err := a.db.DeleteTask(t.ID); err != nil {
		return t, err
	}
	a.tasks.sched.Remove(t.ID)
	a.tasks.publish(t.ID.String())
	return t, nil
}

// TaskRuns lists the runs of task ref, newest first (limit 0: all kept).
func (a *App) TaskRuns(ref string, limit int) (tasks.Task, []tasks.Run, error) {
	t, err := a.findTask(ref)
	if err != nil {
		return t, nil, err
	}
	runs, err := a.db.Runs(t.ID, limit)
	return t, runs, err
}

// TaskConversations says which conversations are runs of which task (the
// sidebar groups them under it).
func (a *App) TaskConversations() (map[store.ID]TaskRunRef, error) {
	runs, err := a.db.RunConversations()
	if err != nil {
		return nil, err
	}
	list, err := a.db.Tasks()
	if err != nil {
		return nil, err
	}
	names := map[tasks.ID]string{}
	for _, t := range list {
		names[t.ID] = t.Name
	}
	out := make(map[store.ID]TaskRunRef, len(runs))
	for id, r := range runs {
		if name, ok := names[r.Task]; ok {
			out[id] = TaskRunRef{Task: r.Task, Name: name, Run: r}
		}
	}
	return out, nil
}

// RunNow starts a run of task ref at once, in the background (on or off
// alike), and returns its record; ErrRunning when one is going.
func (a *App) RunNow(ref string) (tasks.Run, error) {
	t, err := a.findTask(ref)
	if err != nil {
		return tasks.Run{}, err
	}
	if err := a.tasks.load(); err != nil {
		return tasks.Run{}, err
	}
	if err := a.tasks.sched.Begin(t); err != nil {
		return tasks.Run{}, err
	}
	run, _, err := a.tasks.launch(a.tasks.ctx, t, time.Time{}, tasks.Manual, "", nil)
	return run, err
}

// RunTask runs task ref now and waits for the run to end, to start
// waiting for approval, or for ctx to end (the run goes on then). When
// this App runs the scheduler (the window) the run is the window's, its
// approvals on its cards; otherwise it runs here with approver answering
// them (nil: the run stops at the first call that needs approval).
func (a *App) RunTask(ctx context.Context, ref string, approver gate.Approver) (tasks.Run, error) {
	t, err := a.findTask(ref)
	if err != nil {
		return tasks.Run{}, err
	}
	if err := a.tasks.load(); err != nil {
		return tasks.Run{}, err
	}
	if err := a.tasks.sched.Begin(t); err != nil {
		return tasks.Run{}, err
	}
	parent := a.tasks.ctx
	if !a.TasksStarted() {
		// No window owns the run: it is this command's, and ends with it.
		var stop context.CancelFunc
		parent, stop = mergeCancel(a.tasks.ctx, ctx)
		defer stop()
	} else {
		approver = nil
	}
	run, changed, err := a.tasks.launch(parent, t, time.Time{}, tasks.Manual, "", approver)
	if err != nil {
		return run, err
	}
	for {
		select {
		case r, ok := <-changed:
			if !ok {
				return run, nil
			}
			run = r
			if r.Outcome != tasks.Running {
				return run, nil
			}
		case <-ctx.Done():
			return run, nil
		}
	}
}

// mergeCancel is a context of a cancelled when b is too.
func mergeCancel(a, b context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(a)
	stop := context.AfterFunc(b, cancel)
	return ctx, func() {
		stop()
		cancel()
	}
}

// Due carries out a scheduler decision (tasks.Host): it records the
// handled due time, and either a skipped run or a run started.
func (ts *taskState) Due(d tasks.Decision) {
	a := ts.a
	t, err := a.db.UpdateTask(d.Task.ID, func(t *tasks.Task) error {
		t.Handled = d.Due
		return nil
	})
	if err != nil {
		a.log.Warn("recording a scheduled task's due time", "task", d.Task.ID.String(), "error", err)
		if d.Run {
			ts.sched.Finished(d.Task.ID)
		}
		return
	}
	if !d.Run {
		now := ts.now()
		if _, err := a.db.AddRun(tasks.Run{Task: t.ID, Due: d.Due, Started: now, Finished: now, Outcome: tasks.Skipped, Note: d.Note}); err != nil {
			a.log.Warn("recording a skipped run", "task", t.ID.String(), "error", err)
		}
		ts.publish(t.ID.String())
		return
	}
	if _, _, err := ts.launch(ts.ctx, t, d.Due, d.Trigger, d.Note, nil); err != nil {
		a.log.Warn("starting a scheduled run", "task", t.ID.String(), "error", err)
	}
}

// liveRun is a run going.
type liveRun struct {
	ts   *taskState
	task tasks.Task
	seq  uint64
	// changed receives the run record each time its outcome changes; it
	// is closed at the end.
	changed chan tasks.Run
	// fallback answers approvals when no window does (RunTask's).
	fallback gate.Approver
	cancel   context.CancelCauseFunc

	mu   sync.Mutex
	conv store.ID
	// stopped is why the run was stopped at a call (no one to ask).
	stopped error
	in, out int
}

// launch records a run of t as running and starts it in the background
// under parent; the scheduler already counts it as running.
func (ts *taskState) launch(parent context.Context, t tasks.Task, due time.Time, trig tasks.Trigger, note string, fallback gate.Approver) (tasks.Run, <-chan tasks.Run, error) {
	a := ts.a
	ts.mu.Lock()
	if ts.closed {
		ts.mu.Unlock()
		ts.sched.Finished(t.ID)
		return tasks.Run{}, nil, fmt.Errorf("run %s: %w", t.ID, tasks.ErrStopped)
	}
	ts.runs.Add(1)
	ts.mu.Unlock()
	run, err := a.db.AddRun(tasks.Run{Task: t.ID, Due: due, Trigger: trig, Started: ts.now(), Outcome: tasks.Running, Note: note})
	if err != nil {
		ts.runs.Done()
		ts.sched.Finished(t.ID)
		return run, nil, err
	}
	ctx, cancel := context.WithCancelCause(parent)
	lr := &liveRun{ts: ts, task: t, seq: run.Seq, changed: make(chan tasks.Run, 8), fallback: fallback, cancel: cancel}
	ts.publish(t.ID.String())
	go func() {
		defer ts.runs.Done()
		defer cancel(nil)
		lr.execute(ctx, run)
	}()
	return run, lr.changed, nil
}

// execute runs the task's prompt as the first turn of a new conversation.
func (lr *liveRun) execute(ctx context.Context, run tasks.Run) {
	ts, a, t := lr.ts, lr.ts.a, lr.task
	defer close(lr.changed)
	start := ts.now().In(ts.sched.Location())
	title := t.Name + " · " + start.Format("Mon 2 Jan 15:04")
	opt := TurnOptions{
		Approver:     lr,
		Sink:         lr,
		Override:     Override{Model: t.Model},
		Capabilities: runCapabilities(t),
		Started: func(id store.ID) {
			if err := a.db.SetTitle(id, title); err != nil {
				a.log.Warn("titling a scheduled run's conversation", "conversation", id.String(), "error", err)
			}
			lr.mu.Lock()
			lr.conv = id
			lr.mu.Unlock()
			lr.update(func(r *tasks.Run) { r.Conversation = uint64(id) })
		},
	}
	id, err := a.Turn(ctx, 0, lr.message(start, run), opt)
	lr.mu.Lock()
	stopped, in, out := lr.stopped, lr.in, lr.out
	if id != 0 {
		lr.conv = id
	}
	conv := lr.conv
	lr.mu.Unlock()
	final := lr.update(func(r *tasks.Run) {
		r.Finished = ts.now()
		r.InputTokens, r.OutputTokens = in, out
		r.Conversation = uint64(conv)
		switch {
		case err == nil:
			r.Outcome = tasks.Done
		case stopped != nil:
			r.Outcome, r.Error = tasks.Failed, stopped.Error()
		case errors.Is(err, agent.ErrInterrupted) && ts.ctx.Err() != nil:
			r.Outcome, r.Error = tasks.Failed, "interrupted: Wrasse closed before the run finished"
		default:
			r.Outcome, r.Error = tasks.Failed, err.Error()
		}
	})
	text := final.Error
	if final.Outcome == tasks.Done {
		text = firstLine(lr.answer(conv))
	}
	// Before anyone hears it ended: a due time right after the notice
	// must not find the run still going and skip.
	ts.sched.Finished(t.ID)
	a.subs.publish(Event{Kind: EventTaskRun, Names: []string{t.ID.String()}, Run: &RunNotice{Task: t, Run: final, Text: text}})
	a.log.Info("scheduled run ended", "task", t.ID.String(), "run", final.Seq, "outcome", string(final.Outcome),
		"conversation", conv.String(), "error", final.Error)
}

// runCapabilities is the list a run may use (nil: every one).
func runCapabilities(t tasks.Task) []string {
	if t.Capabilities == nil {
		return nil
	}
	return append(slices.Clone(t.Capabilities), discoveryCapability)
}

// allowedCapabilities turns a turn's list into the agent's test.
func allowedCapabilities(list []string) func(string) bool {
	if list == nil {
		return nil
	}
	return func(name string) bool { return slices.Contains(list, name) }
}

// message is the run's first message: the task's prompt after a line
// saying what this is, so the model knows no one is watching.
func (lr *liveRun) message(start time.Time, run tasks.Run) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Scheduled task “%s”, run of %s", lr.task.Name, start.Format("Mon 2 Jan 2006 15:04"))
	switch run.Trigger {
	case tasks.Manual:
		b.WriteString(" (started by hand)")
	case tasks.Late:
		fmt.Fprintf(&b, " (%s)", run.Note)
	}
	b.WriteString(". No one is watching as it runs: calls that need approval ")
	if lr.task.OnApproval() == tasks.Deny {
		b.WriteString("are denied, so do without them.")
	} else {
		b.WriteString("wait for the person.")
	}
	b.WriteString("\n\n")
	b.WriteString(lr.task.Prompt)
	return b.String()
}

// answer is the last reply text of conversation id.
func (lr *liveRun) answer(id store.ID) string {
	if id == 0 {
		return ""
	}
	events, err := lr.ts.a.db.PageBefore(id, 0, 20) // texts only: no pictures' bytes
	if err != nil {
		return ""
	}
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type == store.EventAssistantText && strings.TrimSpace(events[i].Text) != "" {
			return events[i].Text
		}
	}
	return ""
}

// firstLine is the first non-empty line of s, cut to a notification's
// length.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "#>*- "))
		if l == "" {
			continue
		}
		if r := []rune(l); len(r) > 160 {
			l = string(r[:159]) + "…"
		}
		return l
	}
	return ""
}

// update changes the run's record, tells subscribers and whoever waits
// on the run, and returns the record.
func (lr *liveRun) update(fn func(*tasks.Run)) tasks.Run {
	a := lr.ts.a
	r, err := a.db.UpdateRun(lr.task.ID, lr.seq, fn)
	if err != nil {
		a.log.Warn("recording a scheduled run", "task", lr.task.ID.String(), "run", lr.seq, "error", err)
		return r
	}
	lr.ts.publish(lr.task.ID.String())
	select {
	case lr.changed <- r:
	default:
	}
	return r
}

// Approve answers a call of the run that needs approval (gate.Approver):
// denied for a task that denies and goes on; otherwise the run waits, its
// record and a notice say so, until the window's card is answered. With
// no window and no other approver the run stops at the call.
func (lr *liveRun) Approve(ctx context.Context, req gate.Request) (gate.Approval, error) {
	t := lr.task
	if t.OnApproval() == tasks.Deny {
		return gate.Deny, fmt.Errorf("%w: the scheduled task %q denies calls that need approval and goes on without them", gate.ErrNoApprover, t.Name)
	}
	lr.ts.mu.Lock()
	inner := lr.ts.approver
	lr.ts.mu.Unlock()
	if inner == nil {
		inner = lr.fallback
	}
	if inner == nil {
		stop := fmt.Errorf("stopped at a call that needs approval (%s): no window was open to ask; run it with the window open, "+
			"or let the task deny such calls and go on", req.Summary)
		lr.mu.Lock()
		lr.stopped = stop
		lr.mu.Unlock()
		lr.cancel(stop)
		return gate.Deny, stop
	}
	waiting := lr.update(func(r *tasks.Run) {
		r.Outcome = tasks.Waiting
		r.Error = ""
	})
	lr.ts.a.subs.publish(Event{Kind: EventTaskRun, Names: []string{t.ID.String()},
		Run: &RunNotice{Task: t, Run: waiting, Text: "waiting for your approval: " + req.Summary}})
	ans, err := inner.Approve(ctx, req)
	if ctx.Err() == nil {
		lr.update(func(r *tasks.Run) { r.Outcome = tasks.Running })
	}
	return ans, err
}

// OnStep does nothing (agent.Sink).
func (lr *liveRun) OnStep(int) {}

// OnText does nothing: the window reads the stored events.
func (lr *liveRun) OnText(uint64, string) {}

// OnEvent counts tokens and tells the window the conversation moved, so
// an open run shows what it did.
func (lr *liveRun) OnEvent(e store.Event) {
	lr.mu.Lock()
	if e.Type == store.EventUsage && e.Usage != nil {
		lr.in += e.Usage.InputTokens
		lr.out += e.Usage.OutputTokens
	}
	conv := lr.conv
	lr.mu.Unlock()
	if conv != 0 && e.Status != store.StatusStreaming {
		lr.ts.a.subs.publish(Event{Kind: EventConversations, Names: []string{conv.String()}})
	}
}

var (
	_ gate.Approver = (*liveRun)(nil)
	_ agent.Sink    = (*liveRun)(nil)
	_ tasks.Host    = (*taskState)(nil)
)

// KeepRunning reports whether the person wants the app kept running in
// the tray when the window closes, so scheduled tasks still run (the
// tasks capability's keepRunning setting).
func (a *App) KeepRunning() bool {
	vals, err := a.Settings(TasksCapability)
	if err != nil {
		return false
	}
	for _, v := range vals {
		if v.Key == KeepRunningSetting {
			return v.Value == "true"
		}
	}
	return false
}
