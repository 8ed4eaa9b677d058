package store

import (
	"errors"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/tasks"
)

func TestTasksStore(t *testing.T) {
	db, path, clock := openTest(t)
	now := time.Date(2025, 6, 2, 10, 0, 0, 0, time.UTC)
	sch, err := tasks.Parse("every weekday at 08:00", now, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	a, err := db.AddTask(tasks.Task{Name: "news", Prompt: "summarise", Schedule: sch, Enabled: true, Created: now})
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.AddTask(tasks.Task{Name: "other", Prompt: "p", Schedule: sch, Created: now})
	if err != nil {
		t.Fatal(err)
	}
	if a.ID == 0 || b.ID == a.ID {
		t.Fatalf("ids %s and %s", a.ID, b.ID)
	}
	if _, err := db.UpdateTask(a.ID, func(t *tasks.Task) error { t.Handled = now; return nil }); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("no")
	if _, err := db.UpdateTask(a.ID, func(t *tasks.Task) error { t.Name = "changed"; return boom }); !errors.Is(err, boom) {
		t.Fatalf("update with an error: %v", err)
	}
	for i := range MaxRunsKept + 5 {
		r, err := db.AddRun(tasks.Run{Task: a.ID, Outcome: tasks.Running, Conversation: uint64(i + 1)})
		if err != nil {
			t.Fatal(err)
		}
		if i == MaxRunsKept+4 {
			if _, err := db.UpdateRun(a.ID, r.Seq, func(r *tasks.Run) { r.Outcome = tasks.Done }); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := db.AddRun(tasks.Run{Task: b.ID, Outcome: tasks.Skipped}); err != nil {
		t.Fatal(err)
	}
	db = reopen(t, db, path, clock)
	got, err := db.Task(a.ID)
	if err != nil || got.Name != "news" || !got.Handled.Equal(now) || got.Schedule.String() != "weekdays 08:00" {
		t.Fatalf("task read back: %+v, %v", got, err)
	}
	runs, err := db.Runs(a.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != MaxRunsKept || runs[0].Outcome != tasks.Done || runs[0].Conversation != MaxRunsKept+5 {
		t.Fatalf("%d runs, newest %+v", len(runs), runs[0])
	}
	if r, _ := db.Runs(b.ID, 5); len(r) != 1 || r[0].Outcome != tasks.Skipped {
		t.Fatalf("runs of the last task: %+v", r)
	}
	convs, err := db.RunConversations()
	if err != nil || convs[ID(MaxRunsKept+5)].Task != a.ID || len(convs) != MaxRunsKept {
		t.Fatalf("run conversations: %d, %v", len(convs), err)
	}
	if err := db.DeleteTask(a.ID); err != nil {
		t.Fatal(err)
	}
	if r, _ := db.Runs(a.ID, 0); len(r) != 0 {
		t.Fatalf("%d runs left after deleting the task", len(r))
	}
	if r, _ := db.Runs(b.ID, 0); len(r) != 1 {
		t.Fatalf("deleting one task took another's runs: %d left", len(r))
	}
	if _, err := db.Task(a.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleted task: %v", err)
	}
	list, _ := db.Tasks()
	if len(list) != 1 || list[0].ID != b.ID {
		t.Fatalf("tasks left: %+v", list)
	}

	p, err := db.AddProposal(tasks.Proposal{Conversation: 7, Name: "n", Prompt: "p", Schedule: "daily 9:00", State: tasks.Proposed})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.UpdateProposal(p.ID, func(p *tasks.Proposal) error { p.State = tasks.Dismissed; return nil }); err != nil {
		t.Fatal(err)
	}
	ps, err := db.Proposals(7)
	if err != nil || len(ps) != 1 || ps[0].State != tasks.Dismissed {
		t.Fatalf("proposals: %+v, %v", ps, err)
	}
	if ps, _ := db.Proposals(8); len(ps) != 0 {
		t.Fatalf("another conversation's proposals: %+v", ps)
	}
}
