package bench

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/tasks"
	"github.com/wrasse-app/wrasse/brain/tasks/taskstest"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

const sectionTasks = "scheduled tasks"

// Targets of issue 28.
const (
	// tasksCount is how many tasks the scheduler's cost is measured with.
	tasksCount = 1000
	// tasksDueTimes is how many distinct times of day they fall on.
	tasksDueTimes = 10
	// tasksMaxLatency bounds the time from a due time to the run's
	// request leaving.
	tasksMaxLatency = 100 * time.Millisecond
)

// tasksSection measures the scheduler with 1,000 tasks (wake-ups over a
// day, CPU while nothing is due) and the time from a task's due time to
// its model request leaving, through the real application core.
func (r *runner) tasksSection(ctx context.Context) []Row {
	r.progress("scheduled tasks: wake-ups over a day, %d tasks", tasksCount)
	rows := []Row{tasksWakeups()}
	idle := 2 * time.Second
	if r.cfg.Short {
		idle = 300 * time.Millisecond
	}
	r.progress("scheduled tasks: CPU at idle")
	rows = append(rows, tasksIdleCPU(ctx, idle))
	runs := 20
	if r.cfg.Short {
		runs = 5
	}
	r.progress("scheduled tasks: due time to request, %d runs", runs)
	return append(rows, tasksLatency(ctx, filepath.Join(r.tmp, "tasks"), runs))
}

// countingHost counts the scheduler's decisions.
type countingHost struct {
	mu sync.Mutex
	n  int
	ch chan struct{}
}

func (h *countingHost) Due(tasks.Decision) {
	h.mu.Lock()
	h.n++
	h.mu.Unlock()
	select {
	case h.ch <- struct{}{}:
	default:
	}
}

func (h *countingHost) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.n
}

// manyTasks are n daily tasks spread over tasksDueTimes times of day
// (01:00 to 10:00), made at start.
func manyTasks(n int, start time.Time) ([]tasks.Task, error) {
	out := make([]tasks.Task, 0, n)
	for i := range n {
		s, err := tasks.Parse(fmt.Sprintf("daily %02d:00", 1+i%tasksDueTimes), start, time.UTC)
		if err != nil {
			return nil, err
		}
		out = append(out, tasks.Task{ID: tasks.ID(i + 1), Name: "t", Prompt: "p", Schedule: s, Enabled: true, Created: start})
	}
	return out, nil
}

// tasksWakeups steps a driven clock through one day a minute at a time
// with 1,000 tasks due at 10 times and counts the timers that fired.
func tasksWakeups() Row {
	measure := fmt.Sprintf("wake-ups over a day, %s tasks at %d due times", FormatInt(tasksCount), tasksDueTimes)
	start := time.Date(2025, 6, 2, 0, 0, 0, 0, time.UTC)
	list, err := manyTasks(tasksCount, start)
	if err != nil {
		return errorRow(sectionTasks, measure, err)
	}
	clock := taskstest.NewClock(start)
	host := &countingHost{ch: make(chan struct{}, 1)}
	s := tasks.New(tasks.Options{Clock: clock, Location: time.UTC, Host: host})
	for _, t := range list {
		s.Set(t)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = s.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	// The clock moves only once the loop has armed its first timer, so
	// every due time is met by a timer, as on a real clock.
	for clock.Armed() == 0 {
		time.Sleep(time.Millisecond)
	}
	idleFired := 0
	for m := 1; m <= 24*60; m++ {
		before := clock.Fired()
		clock.Set(start.Add(time.Duration(m) * time.Minute))
		due := m%60 == 0 && m/60 >= 1 && m/60 <= tasksDueTimes
		if !due {
			idleFired += clock.Fired() - before
			continue
		}
		want := (m / 60) * tasksCount / tasksDueTimes
		deadline := time.After(10 * time.Second)
		for host.count() < want {
			select {
			case <-host.ch:
			case <-deadline:
				return errorRow(sectionTasks, measure, fmt.Errorf("%d decisions by %02d:00, want %d", host.count(), m/60, want))
			}
		}
		for i := range tasksCount {
			s.Finished(tasks.ID(i + 1))
		}
	}
	wake := clock.Fired()
	perHour := float64(idleFired) / float64(24-tasksDueTimes)
	return Row{Section: sectionTasks, Measure: measure, Value: FormatInt(wake), Number: float64(wake), Unit: "wake-ups",
		Baseline: fmt.Sprintf("%d due times; %.1f per hour with nothing due", tasksDueTimes, perHour),
		Target:   fmt.Sprintf("≤ %d (one per due time), none with nothing due", tasksDueTimes),
		Pass:     verdict(wake <= tasksDueTimes && idleFired == 0),
		Note: "the scheduler keeps one timer, for the earliest due time; a driven clock (brain/tasks/taskstest) stepped a minute at a time " +
			"through 24 h counts the timers that fired"}
}

// idleHost decides nothing: no task is due while CPU is measured.
type idleHost struct{}

func (idleHost) Due(tasks.Decision) {}

// tasksIdleCPU is this process's CPU time over d with the scheduler
// holding 1,000 tasks on the system clock (none due within hours),
// beside the same span without it.
func tasksIdleCPU(ctx context.Context, d time.Duration) Row {
	measure := fmt.Sprintf("CPU at idle, %s tasks, over %s", FormatInt(tasksCount), FormatDuration(d))
	now := time.Now().UTC()
	// Made now, the tasks next fall due at their hour tomorrow or later
	// today; none within d unless d crosses an hour, then only once.
	list, err := manyTasks(tasksCount, now)
	if err != nil {
		return errorRow(sectionTasks, measure, err)
	}
	span := func() (time.Duration, error) {
		c0, ok := cpuTime()
		if !ok {
			return 0, errors.New("this system does not report CPU time")
		}
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return 0, ctx.Err()
		}
		c1, _ := cpuTime()
		return c1 - c0, nil
	}
	base, err := span()
	if err != nil {
		return errorRow(sectionTasks, measure, err)
	}
	s := tasks.New(tasks.Options{Location: time.UTC, Host: idleHost{}})
	for _, t := range list {
		s.Set(t)
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { _ = s.Run(runCtx); close(done) }()
	with, err := span()
	cancel()
	<-done
	if err != nil {
		return errorRow(sectionTasks, measure, err)
	}
	return Row{Section: sectionTasks, Measure: measure, Value: FormatDuration(with), Number: float64(with) / 1e6, Unit: "ms",
		Baseline: "without the scheduler " + FormatDuration(base), Target: "unchanged within noise (≤ 5 ms more)",
		Pass: verdict(with-base <= 5*time.Millisecond),
		Note: "getrusage of this process over the same span, the scheduler waiting on its one timer (a timerfd on Linux)"}
}

// tasksLatency is the time from a due time (a driven clock set to it) to
// the run's request reaching a scripted model server, through the real
// application core: scheduler, run record, conversation, turn.
func tasksLatency(ctx context.Context, dir string, runs int) Row {
	measure := "due time to the run's request leaving"
	start := time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC)
	clock := taskstest.NewClock(start)
	model, err := providertest.StartModel(providertest.OpenAI)
	if err != nil {
		return errorRow(sectionTasks, measure, err)
	}
	defer model.Close()
	a, err := assistant.Open(assistant.Options{Workspace: dir, Retries: -1, Clock: clock.Now, TaskClock: clock, Location: time.UTC, LockTimeout: time.Second})
	if err != nil {
		return errorRow(sectionTasks, measure, err)
	}
	defer a.Close()
	if _, err := a.UpdateConfig(func(c *workspace.Config) error {
		c.Provider, c.BaseURL, c.Model, c.ContextWindow = "openai", model.BaseURL(), "fake-model", 32000
		return nil
	}); err != nil {
		return errorRow(sectionTasks, measure, err)
	}
	ended := make(chan tasks.Run, 4)
	stop := a.Subscribe(func(e assistant.Event) {
		if e.Kind == assistant.EventTaskRun && e.Run != nil && e.Run.Run.Outcome != tasks.Waiting {
			ended <- e.Run.Run
		}
	})
	defer stop()
	if _, err := a.AddTask(ctx, assistant.TaskSpec{Name: "bench", Prompt: "Say ok.", Schedule: "every 1m", Enabled: true}); err != nil {
		return errorRow(sectionTasks, measure, err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	if err := a.StartTasks(runCtx, assistant.TaskHost{}); err != nil {
		return errorRow(sectionTasks, measure, err)
	}
	var lat []time.Duration
	for i := range runs {
		release := make(chan struct{})
		model.Reply(providertest.Wait(release), providertest.Text("ok"))
		t0 := time.Now()
		clock.Set(start.Add(time.Duration(i+1) * time.Minute))
		select {
		case <-model.Waiting():
		case <-time.After(10 * time.Second):
			close(release)
			return errorRow(sectionTasks, measure, fmt.Errorf("run %d: no request within 10 s of its due time", i+1))
		}
		lat = append(lat, time.Since(t0))
		close(release)
		select {
		case r := <-ended:
			if r.Outcome != tasks.Done {
				return errorRow(sectionTasks, measure, fmt.Errorf("run %d ended %s: %s", i+1, r.Outcome, r.Error))
			}
		case <-time.After(10 * time.Second):
			return errorRow(sectionTasks, measure, fmt.Errorf("run %d did not end", i+1))
		}
	}
	p50, worst := Median(lat), Percentile(lat, 100)
	return Row{Section: sectionTasks, Measure: measure, Value: "p50 " + FormatDuration(p50), Number: float64(p50) / 1e6, Unit: "ms",
		Baseline: fmt.Sprintf("max %s over %d runs", FormatDuration(worst), runs), Target: "≤ " + FormatDuration(tasksMaxLatency),
		Pass: verdict(worst <= tasksMaxLatency),
		Note: "from setting a driven clock to the due time to the scripted model server holding the request: the scheduler's decision, " +
			"the run record, the conversation and the turn's prompt, through the real application core"}
}
