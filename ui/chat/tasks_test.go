package chat

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/wrasse-app/wrasse/brain/assistant"
	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/tasks"
)

// A task the model proposes is a card above the composer; nothing is
// scheduled until the person accepts, and Dismiss schedules nothing.
func TestProposalCardAcceptAndDismiss(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.ToolCall("task_propose", `{"name":"Morning summary","prompt":"Summarise ~/projects","schedule":"weekdays 08:00"}`))
	h.model.Reply(pt.Text("I proposed it."))
	h.send("every weekday at 8 summarise my projects")
	h.idle()
	h.until("the proposal card", func() bool { return h.shows("Proposed task: Morning summary") })
	if list, _ := h.core.Tasks(); len(list) != 0 {
		t.Fatalf("a proposal made %d tasks before it was accepted", len(list))
	}
	test.Tap(h.button("Accept"))
	h.until("the task to be made", func() bool { list, _ := h.core.Tasks(); return len(list) == 1 })
	h.until("the card to go", func() bool { return !h.shows("Proposed task: Morning summary") })
	list, _ := h.core.Tasks()
	if got := list[0]; got.Name != "Morning summary" || got.Prompt != "Summarise ~/projects" || got.Schedule.String() != "weekdays 08:00" || !got.Enabled {
		t.Fatalf("accepted %+v", got.Task)
	}

	h.model.Reply(pt.ToolCall("task_propose", `{"name":"Price check","prompt":"Check the price","schedule":"every 1h"}`))
	h.model.Reply(pt.Text("Proposed."))
	h.send("check the price every hour")
	h.idle()
	h.until("the second card", func() bool { return h.shows("Proposed task: Price check") })
	test.Tap(h.button("Dismiss"))
	h.until("the card to go", func() bool { return !h.shows("Proposed task: Price check") })
	if list, _ := h.core.Tasks(); len(list) != 1 {
		t.Fatalf("%d tasks after Dismiss, want the one accepted", len(list))
	}
}

// A scheduled run's call that needs approval waits on the window's card
// in the run's conversation (the sidebar says so under the task); the
// person's Allow continues the run to its end.
// The task is off, so the scheduler on the wall clock never starts it:
// Run now does.
func TestScheduledRunWaitsOnTheWindowsCard(t *testing.T) {
	h := newHarness(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := h.core.StartTasks(ctx, assistant.TaskHost{Approver: h.chat.Approver()}); err != nil {
		t.Fatal(err)
	}
	runs := make(chan assistant.RunNotice, 8)
	stop := h.core.Subscribe(func(e assistant.Event) {
		if e.Kind == assistant.EventTaskRun && e.Run != nil {
			runs <- *e.Run
		}
	})
	defer stop()
	tk, err := h.core.AddTask(context.Background(), assistant.TaskSpec{Name: "Tidy", Prompt: "Remove old.txt", Schedule: "daily 08:00", Enabled: false})
	if err != nil {
		t.Fatal(err)
	}
	h.model.Reply(pt.ToolCall("shell_exec", `{"command":"rm -f old.txt"}`))
	h.model.Reply(pt.Text("Removed old.txt."))
	if _, err := h.core.RunNow(tk.ID.String()); err != nil {
		t.Fatal(err)
	}
	var waiting assistant.RunNotice
	h.until("the run to wait", func() bool {
		select {
		case n := <-runs:
			waiting = n
		default:
		}
		return waiting.Run.Outcome == tasks.Waiting
	})
	conv := waiting.Conversation()
	h.until("the sidebar to show the run under its task", func() bool {
		h.chat.sidebar.reload()
		for i := range h.chat.sidebar.length() {
			e, _ := h.chat.sidebar.entry(i)
			if e.id == conv && e.detail == "waiting for your approval" {
				prev, _ := h.chat.sidebar.entry(i - 1)
				return prev.heading && strings.Contains(prev.title, "Tidy")
			}
		}
		return false
	})
	h.chat.Open(conv)
	h.until("the approval card", func() bool { return len(h.rowsOf(rowApproval)) == 1 })
	test.Tap(h.button("Approve"))
	var done assistant.RunNotice
	deadline := time.After(waitLimit)
	for done.Run.Outcome != tasks.Done {
		select {
		case n := <-runs:
			if n.Run.Outcome == tasks.Failed {
				t.Fatalf("the run failed: %s", n.Run.Error)
			}
			done = n
		case fn := <-h.queue:
			fn()
		case <-deadline:
			t.Fatal("the run did not finish after Approve")
		}
	}
	if done.Text != "Removed old.txt." || done.Conversation() != conv {
		t.Fatalf("finished notice %+v", done)
	}
}

func TestGroupRuns(t *testing.T) {
	conv := func(id store.ID, title string) store.Conversation { return store.Conversation{ID: id, Title: title} }
	ref := func(task tasks.ID, name string) assistant.TaskRunRef {
		return assistant.TaskRunRef{Task: task, Name: name}
	}
	tests := []struct {
		name  string
		convs []store.Conversation
		runs  map[store.ID]assistant.TaskRunRef
		want  []string
	}{
		{"no runs", []store.Conversation{conv(3, "c"), conv(2, "b")}, nil, []string{"3", "2"}},
		{"runs gathered where the newest is",
			[]store.Conversation{conv(5, "x"), conv(4, "Tidy · Tue 3 Jun 08:00"), conv(3, "y"), conv(2, "Tidy · Mon 2 Jun 08:00")},
			map[store.ID]assistant.TaskRunRef{4: ref(1, "Tidy"), 2: ref(1, "Tidy")},
			[]string{"5", "H Tidy 2 →4", "4", "2", "3"}},
		{"two tasks",
			[]store.Conversation{conv(4, "A · 1"), conv(3, "B · 1"), conv(2, "A · 2")},
			map[store.ID]assistant.TaskRunRef{4: ref(1, "A"), 3: ref(2, "B"), 2: ref(1, "A")},
			[]string{"H A 2 →4", "4", "2", "H B 1 →3", "3"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, it := range groupRuns(tc.convs, tc.runs) {
				if it.heading {
					got = append(got, "H "+it.task.Name+" "+itoa(it.runs)+" →"+it.newest.String()[1:])
				} else {
					got = append(got, it.conv.ID.String()[1:])
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
	if got := runTitle(sidebarItem{task: &assistant.TaskRunRef{Name: "Tidy"}}, "Tidy · Tue 3 Jun 08:00"); strings.TrimSpace(got) != "Tue 3 Jun 08:00" {
		t.Fatalf("a run's title under its heading is %q", got)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
