package settings

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/tasks"
	"github.com/wrasse-app/wrasse/brain/tasks/taskstest"
	"github.com/wrasse-app/wrasse/ui/bridge"
	"github.com/wrasse-app/wrasse/ui/taskform"
)

// tasksHarness is the Tasks page on a real core whose scheduled tasks'
// clock stands still at 2 June 2025 10:00 UTC (a Monday).
type tasksHarness struct {
	*harness
	clock  *taskstest.Clock
	page   *tasksPage
	opened []store.ID
}

func newTasksHarness(t *testing.T) *tasksHarness {
	t.Helper()
	t.Setenv("LANG", "en_US.UTF-8")
	a := test.NewTempApp(t)
	clock := taskstest.NewClock(time.Date(2025, 6, 2, 10, 0, 0, 0, time.UTC))
	h := &tasksHarness{harness: &harness{t: t, ws: t.TempDir()}, clock: clock}
	core, err := assistant.Open(assistant.Options{Workspace: h.ws, LockTimeout: time.Second, Retries: -1,
		Clock: clock.Now, TaskClock: clock, Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := core.Close(); err != nil {
			t.Errorf("closing the core: %v", err)
		}
	})
	h.core = core
	h.win = test.NewTempWindow(t, nil)
	env := &bridge.Env{App: a, Window: h.win, Core: core,
		Do: func(fn func()) { fn() }, Go: func(fn func()) { fn() },
		OpenConversation: func(id store.ID) { h.opened = append(h.opened, id) }}
	h.page = newTasksPage(env)
	h.page.now = clock.Now
	h.page.Refresh()
	h.win.SetContent(h.page.Object())
	h.win.Resize(fyne.NewSize(1100, 900))
	return h
}

func (h *tasksHarness) add(spec assistant.TaskSpec) tasks.Task {
	h.t.Helper()
	tk, err := h.core.AddTask(context.Background(), spec)
	if err != nil {
		h.t.Fatal(err)
	}
	h.page.Refresh()
	return tk
}

// entry finds the showing entry whose placeholder is ph.
func (h *tasksHarness) entry(ph string) *widget.Entry {
	h.t.Helper()
	for _, o := range h.onScreen() {
		e, ok := o.(*widget.Entry)
		if f, field := o.(*taskform.Entry); field {
			e, ok = &f.Entry, true
		}
		if ok && e.PlaceHolder == ph {
			return e
		}
	}
	h.t.Fatalf("no entry %q on screen", ph)
	return nil
}

func (h *tasksHarness) has(text string) bool { return strings.Contains(h.screenText(), text) }

func TestTasksPageListsTasksWithNextRun(t *testing.T) {
	h := newTasksHarness(t)
	if !h.has("No scheduled tasks yet") {
		t.Fatalf("an empty page does not say so:\n%s", h.screenText())
	}
	h.add(assistant.TaskSpec{Name: "Morning summary", Prompt: "Summarise ~/projects", Schedule: "weekdays 08:00", Enabled: true})
	h.add(assistant.TaskSpec{Name: "Price check", Prompt: "Check the page", Schedule: "every 2h", Approvals: tasks.Deny, Enabled: false})
	tests := []struct{ want string }{
		{"Morning summary"},
		{"Next run: Tue 3 Jun 08:00"}, // Monday 10:00: the next weekday 08:00
		{"Price check"},
		{"Off"},
		{"Calls that need approval are denied"},
	}
	text := h.screenText()
	for _, tc := range tests {
		if !strings.Contains(text, tc.want) {
			t.Errorf("the page does not show %q:\n%s", tc.want, text)
		}
	}
	if h.has("No scheduled tasks yet") {
		t.Error("the empty line still shows beside tasks")
	}
}

func TestTasksPageSwitchOffAndDelete(t *testing.T) {
	h := newTasksHarness(t)
	tk := h.add(assistant.TaskSpec{Name: "Morning summary", Prompt: "p", Schedule: "daily 08:00", Enabled: true})
	var on *escCheck
	for _, o := range h.onScreen() {
		if c, ok := o.(*escCheck); ok && c.Text == "On" {
			on = c
		}
	}
	if on == nil || !on.Checked {
		t.Fatal("no ticked On switch for the task")
	}
	tapCheck(on)
	got, err := h.core.Task(tk.ID.String())
	if err != nil {
		t.Fatal(err)
	}
	if got.Enabled || !got.Next.IsZero() {
		t.Fatalf("after switching off: enabled %v, next %v", got.Enabled, got.Next)
	}
	if !h.has("Off") {
		t.Fatalf("the card does not say Off:\n%s", h.screenText())
	}
	// The delete button is the card's icon-only one.
	var del *widget.Button
	for _, o := range h.onScreen() {
		if b, ok := asButton(o); ok && b.Text == "" && b.Icon != nil {
			del = b
		}
	}
	if del == nil {
		t.Fatal("no delete button")
	}
	test.Tap(del)
	h.tap("Delete")
	if list, _ := h.core.Tasks(); len(list) != 0 {
		t.Fatalf("%d tasks left after Delete", len(list))
	}
	if !h.has("No scheduled tasks yet") {
		t.Fatalf("the page still lists the task:\n%s", h.screenText())
	}
}

func TestTasksPageNewTaskForm(t *testing.T) {
	h := newTasksHarness(t)
	h.tap("New task")
	h.entry("Morning summary").SetText("Standup notes")
	h.entry("What to do each time, complete on its own: each run starts a new conversation.").SetText("List yesterday's commits")
	sched := h.entry("every weekday at 08:00")
	// The form says when a schedule runs, or why it cannot, as it is typed.
	steps := []struct {
		text string
		want string
	}{
		{"every 0m", "every"},
		{"once 2025-06-01 09:00", "past"},
		{"weekly mon,thu 09:30", "next run Thu 5 Jun 2025 at 09:30"},
	}
	for _, s := range steps {
		sched.SetText(s.text)
		if !strings.Contains(h.screenText(), s.want) {
			t.Errorf("schedule %q: the form does not say %q:\n%s", s.text, s.want, h.screenText())
		}
	}
	// Every label of the form is drawn at a size the theme knows: a
	// size name it does not know draws the text at size 0, invisible.
	th := fyne.CurrentApp().Settings().Theme()
	for _, o := range h.onScreen() {
		if l, ok := o.(*widget.Label); ok && l.SizeName != "" && th.Size(l.SizeName) == 0 {
			t.Errorf("label %q has size %q, which the theme does not know", l.Text, l.SizeName)
		}
	}
	sched.SetText("every 0m")
	h.tap("Add")
	if list, _ := h.core.Tasks(); len(list) != 0 {
		t.Fatal("a schedule that never fires was saved")
	}
	sched.SetText("weekly mon,thu 09:30")
	h.tap("Add")
	list, err := h.core.Tasks()
	if err != nil || len(list) != 1 {
		t.Fatalf("tasks after Add: %v, %v", list, err)
	}
	if got := list[0]; got.Name != "Standup notes" || !got.Enabled || got.OnApproval() != tasks.Wait {
		t.Fatalf("saved %+v", got.Task)
	}
	if !h.has("Next run: Thu 5 Jun 09:30") {
		t.Fatalf("the page does not show the new task's next run:\n%s", h.screenText())
	}
}

func TestTasksPageHistoryOpensRun(t *testing.T) {
	h := newTasksHarness(t)
	// Run now of a one-shot task: with no model server to answer (the
	// default Ollama address refuses) the run fails after its
	// conversation began, and the history shows it with a way there.
	tk := h.add(assistant.TaskSpec{Name: "Reminder", Prompt: "Remind me to call Ana", Schedule: "once 2025-06-02 12:00", Enabled: true})
	h.clock.Set(time.Date(2025, 6, 2, 14, 0, 0, 0, time.UTC))
	run, err := h.core.RunTask(context.Background(), tk.ID.String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if run.Outcome == tasks.Running || run.Outcome == tasks.Waiting {
		t.Fatalf("run ended %s", run.Outcome)
	}
	h.page.Refresh()
	h.tap("History")
	if !h.has("Last run: " + string(run.Outcome)) {
		t.Fatalf("the card does not show the last run:\n%s", h.screenText())
	}
	if run.Conversation == 0 {
		t.Fatalf("the run made no conversation: %+v", run)
	}
	h.tap("Open")
	if len(h.opened) != 1 || h.opened[0] != store.ID(run.Conversation) {
		t.Fatalf("Open showed %v, want conversation %d", h.opened, run.Conversation)
	}
}
