package assistant

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/tasks"
	"github.com/wrasse-app/wrasse/brain/tasks/taskstest"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

// taskStart is the fake clock's start: Monday 1 June 2026, 09:00 UTC.
var taskStart = time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)

// openTasks opens a workspace whose tasks run on a fake clock in UTC.
func openTasks(t *testing.T, dir string, clock *taskstest.Clock) *App {
	t.Helper()
	a, err := Open(Options{Workspace: dir, Retries: -1, Clock: clock.Now, TaskClock: clock, Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// events collects the App's task events.
type events struct {
	mu      sync.Mutex
	notices []RunNotice
	ch      chan RunNotice
}

func watchRuns(a *App) *events {
	e := &events{ch: make(chan RunNotice, 32)}
	a.Subscribe(func(ev Event) {
		if ev.Kind == EventTaskRun && ev.Run != nil {
			e.mu.Lock()
			e.notices = append(e.notices, *ev.Run)
			e.mu.Unlock()
			e.ch <- *ev.Run
		}
	})
	return e
}

func (e *events) next(t *testing.T) RunNotice {
	t.Helper()
	select {
	case n := <-e.ch:
		return n
	case <-time.After(30 * time.Second):
		t.Fatal("no run notice came")
		return RunNotice{}
	}
}

// cardApprover is the window's approval cards: each request waits until
// the test answers it.
type cardApprover struct {
	asked  chan gate.Request
	answer chan gate.Approval
}

func newCards() *cardApprover {
	return &cardApprover{asked: make(chan gate.Request, 4), answer: make(chan gate.Approval, 4)}
}

func (c *cardApprover) Approve(ctx context.Context, req gate.Request) (gate.Approval, error) {
	c.asked <- req
	select {
	case a := <-c.answer:
		return a, nil
	case <-ctx.Done():
		return gate.Deny, ctx.Err()
	}
}

func grantFolder(t *testing.T, a *App) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := a.UpdateConfig(func(c *workspace.Config) error { c.Folders = []string{dir}; return nil }); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A scheduled run meets a call that needs approval: it waits with the
// card (the run's record and a notice say so), and the person's answer
// continues it through the same turn to its end.
func TestTaskRunWaitsForApprovalThenContinues(t *testing.T) {
	clock := taskstest.NewClock(taskStart)
	a := openTasks(t, t.TempDir(), clock)
	m := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, m, providertest.DefaultModelID)
	dir := grantFolder(t, a)
	file := filepath.Join(dir, "report.txt")
	m.Reply(providertest.ToolCall("fs_write", `{"path":"`+file+`","content":"all well"}`))
	m.Reply(providertest.Text("Wrote the report.\nIt says all is well."))
	runs := watchRuns(a)
	cards := newCards()

	task, err := a.AddTask(context.Background(), TaskSpec{Name: "Report", Prompt: "Write the report.", Schedule: "daily 09:05", Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.StartTasks(context.Background(), TaskHost{Approver: cards}); err != nil {
		t.Fatal(err)
	}
	info, _ := a.Task("Report")
	if !info.Next.Equal(taskStart.Add(5 * time.Minute)) {
		t.Fatalf("next run %s, want 09:05", info.Next)
	}
	clock.Set(taskStart.Add(5 * time.Minute))

	req := <-cards.asked
	if req.Tool != "fs_write" {
		t.Fatalf("asked about %s", req.Tool)
	}
	n := runs.next(t)
	if n.Run.Outcome != tasks.Waiting || !strings.Contains(n.Text, "waiting for your approval") || n.Conversation() == 0 {
		t.Fatalf("notice while waiting: %+v", n)
	}
	if _, err := os.Stat(file); err == nil {
		t.Fatal("the file was written before the person approved")
	}
	conv, err := a.History().GetConversation(n.Conversation())
	if err != nil || conv.Title != "Report · Mon 1 Jun 09:05" {
		t.Fatalf("the run's conversation: %+v, %v", conv, err)
	}
	refs, _ := a.TaskConversations()
	if refs[n.Conversation()].Task != task.ID {
		t.Fatalf("the conversation is not grouped under its task: %+v", refs)
	}

	cards.answer <- gate.ApproveOnce
	done := runs.next(t)
	if done.Run.Outcome != tasks.Done || done.Text != "Wrote the report." {
		t.Fatalf("notice at the end: %+v", done)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "all well" {
		t.Fatalf("the approved call did not run: %q, %v", b, err)
	}
	_, list, err := a.TaskRuns("t1", 0)
	if err != nil || len(list) != 1 {
		t.Fatalf("runs: %+v, %v", list, err)
	}
	r := list[0]
	if r.Outcome != tasks.Done || r.Trigger != tasks.OnTime || !r.Due.Equal(taskStart.Add(5*time.Minute)) ||
		r.InputTokens == 0 || r.OutputTokens == 0 || r.Finished.IsZero() {
		t.Fatalf("run record: %+v", r)
	}
	// The same turn went on: one user message, the call, its approval and
	// result, the answer.
	got := texts(t, a, done.Conversation())
	if len(got) != 5 || got[1] != "tool_call:fs_write" || got[2] != "approval" || !strings.HasPrefix(got[4], "assistant_text:Wrote") {
		t.Fatalf("conversation: %q", got)
	}
	// It continues like any other conversation.
	m.Reply(providertest.Text("You're welcome."))
	if _, err := a.Turn(context.Background(), done.Conversation(), "thanks", TurnOptions{}); err != nil {
		t.Fatal(err)
	}
}

// A task that denies and goes on: the call is denied with a reason, the
// run ends done, nothing was written.
func TestTaskDenyAndContinue(t *testing.T) {
	clock := taskstest.NewClock(taskStart)
	a := openTasks(t, t.TempDir(), clock)
	m := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, m, providertest.DefaultModelID)
	dir := grantFolder(t, a)
	file := filepath.Join(dir, "x.txt")
	m.Reply(providertest.ToolCall("fs_write", `{"path":"`+file+`","content":"x"}`))
	m.Reply(providertest.Text("I could not write it."))
	runs := watchRuns(a)
	cards := newCards()
	if _, err := a.AddTask(context.Background(), TaskSpec{Name: "Writer", Prompt: "Write x.", Schedule: "every 1h",
		Approvals: tasks.Deny, Enabled: true}); err != nil {
		t.Fatal(err)
	}
	if err := a.StartTasks(context.Background(), TaskHost{Approver: cards}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.RunNow("writer"); err != nil {
		t.Fatal(err)
	}
	n := runs.next(t)
	if n.Run.Outcome != tasks.Done || n.Run.Trigger != tasks.Manual {
		t.Fatalf("notice: %+v", n)
	}
	select {
	case r := <-cards.asked:
		t.Fatalf("a deny-and-continue task asked the window about %s", r.Tool)
	default:
	}
	if _, err := os.Stat(file); err == nil {
		t.Fatal("a denied call ran")
	}
	evs, _ := a.History().Events(n.Conversation())
	var denied bool
	for _, e := range evs {
		if e.Type == store.EventApproval && e.Decision != nil && e.Decision.Kind == store.Denied && strings.Contains(e.Decision.Reason, "denies calls that need approval") {
			denied = true
		}
	}
	if !denied {
		t.Fatalf("no denial recorded: %q", texts(t, a, n.Conversation()))
	}
}

// With no window to ask (a CLI run without a terminal), a waiting task's
// run stops at the call and says why; nothing runs unattended.
func TestTaskRunStopsWithNoOneToAsk(t *testing.T) {
	clock := taskstest.NewClock(taskStart)
	a := openTasks(t, t.TempDir(), clock)
	m := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, m, providertest.DefaultModelID)
	dir := grantFolder(t, a)
	file := filepath.Join(dir, "x.txt")
	m.Reply(providertest.ToolCall("fs_write", `{"path":"`+file+`","content":"x"}`))
	if _, err := a.AddTask(context.Background(), TaskSpec{Name: "Writer", Prompt: "Write x.", Schedule: "daily 10:00", Enabled: true}); err != nil {
		t.Fatal(err)
	}
	r, err := a.RunTask(context.Background(), "t1", nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome != tasks.Failed || !strings.Contains(r.Error, "no window was open") {
		t.Fatalf("run: %+v", r)
	}
	if _, err := os.Stat(file); err == nil {
		t.Fatal("the call ran with no one to approve it")
	}
}

// A task limited to some capabilities offers only their tools, and a
// call of another does not run.
func TestTaskCapabilitiesLimitTheRun(t *testing.T) {
	clock := taskstest.NewClock(taskStart)
	a := openTasks(t, t.TempDir(), clock)
	m := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, m, providertest.DefaultModelID)
	m.Reply(providertest.ToolCall("history_search", `{"query":"x"}`))
	m.Reply(providertest.Text("ok"))
	if _, err := a.AddTask(context.Background(), TaskSpec{Name: "Sum", Prompt: "Add 2 and 2.", Schedule: "daily 10:00",
		Capabilities: []string{"calc"}, Enabled: true}); err != nil {
		t.Fatal(err)
	}
	r, err := a.RunTask(context.Background(), "Sum", nil)
	if err != nil || r.Outcome != tasks.Done {
		t.Fatalf("run: %+v, %v", r, err)
	}
	reqs := m.Requests()
	for _, tool := range reqs[0].Tools {
		if strings.HasPrefix(tool.Name, "history_") || strings.HasPrefix(tool.Name, "shell_") || strings.HasPrefix(tool.Name, "fs_") {
			t.Fatalf("a run limited to calc was offered %s", tool.Name)
		}
	}
	got := strings.Join(texts(t, a, store.ID(r.Conversation)), "\n")
	if !strings.Contains(got, "which this run may not use") {
		t.Fatalf("the call of another capability ran:\n%s", got)
	}
}

func TestTaskValidation(t *testing.T) {
	clock := taskstest.NewClock(taskStart)
	a := openTasks(t, t.TempDir(), clock)
	m := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, m, providertest.DefaultModelID)
	ctx := context.Background()
	cases := []struct {
		name string
		spec TaskSpec
		want []error
		text string
	}{
		{"never fires", TaskSpec{Name: "x", Prompt: "p", Schedule: "cron 0 0 30 2 *"}, []error{tasks.ErrNeverFires}, "matches no time"},
		{"in the past", TaskSpec{Name: "x", Prompt: "p", Schedule: "once 2026-05-01 10:00"}, []error{tasks.ErrNeverFires}, "in the past"},
		{"not a schedule", TaskSpec{Name: "x", Prompt: "p", Schedule: "sometimes"}, []error{tasks.ErrSchedule}, "every weekday"},
		{"unknown model", TaskSpec{Name: "x", Prompt: "p", Schedule: "daily 8:00", Model: "test-modle"}, []error{ErrUnknownModel}, `did you mean "test-model"`},
		{"unknown capability", TaskSpec{Name: "x", Prompt: "p", Schedule: "daily 8:00", Capabilities: []string{"shel"}}, []error{ErrUnknownCapability}, `did you mean "shell"`},
		{"everything at once", TaskSpec{Schedule: "daily 8:00", Capabilities: []string{"nope"}, Model: "nope"},
			[]error{tasks.ErrInvalidTask, ErrUnknownModel, ErrUnknownCapability}, "needs a name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := a.AddTask(ctx, c.spec)
			for _, w := range c.want {
				if !errors.Is(err, w) {
					t.Errorf("error %v does not match %v", err, w)
				}
			}
			if err == nil || !strings.Contains(err.Error(), c.text) {
				t.Errorf("error %v does not say %q", err, c.text)
			}
		})
	}
	if list, _ := a.Tasks(); len(list) != 0 {
		t.Fatalf("refused tasks were stored: %+v", list)
	}
	ok, err := a.AddTask(ctx, TaskSpec{Name: "ok", Prompt: "p", Schedule: "daily 8:00", Model: providertest.DefaultModelID, Capabilities: []string{"shell"}})
	if err != nil || ok.Enabled {
		t.Fatalf("a valid task: %+v, %v", ok, err)
	}
	if _, err := a.UpdateTask(ctx, "ok", func(s *TaskSpec) { s.Schedule = "every 10s" }); !errors.Is(err, tasks.ErrSchedule) {
		t.Fatalf("an edit to a bad schedule: %v", err)
	}
	if _, err := a.Task("okk"); !errors.Is(err, ErrNoTask) || !strings.Contains(err.Error(), `"ok"`) {
		t.Fatalf("a misspelt task: %v", err)
	}
}

// The model proposes with task_propose; the proposal waits on its card
// and becomes a task only when accepted (as edited there).
func TestTaskProposeAcceptDismiss(t *testing.T) {
	clock := taskstest.NewClock(taskStart)
	a := openTasks(t, t.TempDir(), clock)
	m := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, m, providertest.DefaultModelID)
	m.Reply(providertest.ToolCall("task_propose", `{"name":"News","prompt":"Summarise the news.","schedule":"every weekday at 8am"}`))
	m.Reply(providertest.Text("I proposed it."))
	m.Reply(providertest.ToolCall("task_propose", `{"name":"Bad","prompt":"p","schedule":"whenever"}`))
	m.Reply(providertest.ToolCall("task_propose", `{"name":"Other","prompt":"p","schedule":"daily 18:00"}`))
	m.Reply(providertest.Text("Proposed another."))
	ctx := context.Background()
	id, err := a.Turn(ctx, 0, "every weekday morning summarise the news", TurnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if list, _ := a.Tasks(); len(list) != 0 {
		t.Fatalf("a proposal made a task behind the person's back: %+v", list)
	}
	ps, err := a.Proposals(id)
	if err != nil || len(ps) != 1 || ps[0].State != tasks.Proposed || ps[0].Schedule != "weekdays 08:00" {
		t.Fatalf("proposals: %+v, %v", ps, err)
	}
	if _, err := a.Turn(ctx, id, "and another", TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(texts(t, a, id), "\n"); !strings.Contains(got, "not proposed: schedule") {
		t.Fatalf("a bad schedule was not refused to the model:\n%s", got)
	}
	ps, _ = a.Proposals(id)
	if len(ps) != 2 {
		t.Fatalf("proposals: %+v", ps)
	}
	spec := ProposalSpec(ps[0])
	spec.Schedule = "weekdays 07:30" // edited on the card
	task, err := a.AcceptProposal(ctx, ps[0].ID, spec)
	if err != nil || task.Schedule.String() != "weekdays 07:30" || !task.Enabled {
		t.Fatalf("accepted: %+v, %v", task, err)
	}
	if err := a.DismissProposal(ps[1].ID); err != nil {
		t.Fatal(err)
	}
	if err := a.DismissProposal(ps[0].ID); err == nil {
		t.Fatal("an accepted proposal was dismissed")
	}
	if list, _ := a.Tasks(); len(list) != 1 || list[0].Name != "News" {
		t.Fatalf("tasks: %+v", list)
	}
	res, err := a.CallTool(ctx, "task_list", []byte(`{}`), nil)
	if err != nil || !strings.Contains(res.Result.Content, "“News” (on): every weekday at 07:30; next Tue 2 Jun 07:30") {
		t.Fatalf("task_list: %+v, %v", res, err)
	}
}

// Wrasse was closed over a due time: on the next start, the run is made
// late (within half its period) or recorded as skipped.
func TestTaskMissedWhileClosed(t *testing.T) {
	dir := t.TempDir()
	clock := taskstest.NewClock(taskStart)
	a := openTasks(t, dir, clock)
	ctx := context.Background()
	for _, s := range []TaskSpec{
		{Name: "late", Prompt: "p", Schedule: "daily 09:30", Enabled: true},
		{Name: "skipped", Prompt: "p", Schedule: "daily 09:10", Enabled: true},
	} {
		if _, err := a.AddTask(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	a.Close()

	// Opened again the next day at 10:00: 09:30 is 30 min late, 09:10
	// (already missed once today at 09:10 … and yesterday) is 50 min
	// late, both within 12 h; the earlier one of yesterday is counted.
	clock.Set(taskStart.Add(25 * time.Hour))
	b := openTasks(t, dir, clock)
	m := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, b, m, providertest.DefaultModelID)
	m.Reply(providertest.Text("one"))
	m.Reply(providertest.Text("two"))
	runs := watchRuns(b)
	if err := b.StartTasks(ctx, TaskHost{}); err != nil {
		t.Fatal(err)
	}
	seen := map[string]RunNotice{}
	for range 2 {
		n := runs.next(t)
		seen[n.Task.Name] = n
	}
	for _, name := range []string{"late", "skipped"} {
		n := seen[name]
		if n.Run.Trigger != tasks.Late || !strings.Contains(n.Run.Note, "ran late") || !strings.Contains(n.Run.Note, "1 earlier due time") {
			t.Fatalf("%s: %+v", name, n.Run)
		}
	}

	// Closed for two days: 13 h late is past the 12 h bound: skipped.
	b.Close()
	clock.Set(taskStart.Add(3*24*time.Hour + 13*time.Hour + 30*time.Minute))
	c := openTasks(t, dir, clock)
	if err := c.StartTasks(ctx, TaskHost{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool {
		_, list, _ := c.TaskRuns("late", 1)
		return len(list) == 1 && list[0].Outcome == tasks.Skipped
	})
	_, list, _ := c.TaskRuns("late", 1)
	if !strings.Contains(list[0].Note, "skipped") || !strings.Contains(list[0].Note, "1 earlier due time passed unrun") {
		t.Fatalf("skipped record: %+v", list[0])
	}
}

// waitFor waits for cond, which other goroutines make true.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition never held")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
