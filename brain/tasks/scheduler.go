package tasks

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Rules of the missed-run rule.
const (
	// OnTimeSlack is how late a wake-up may come and still count as on
	// time (a busy computer, a timer's own delay).
	OnTimeSlack = time.Minute
	// MaxGrace bounds how late a missed run of a recurring task may still
	// run: half its period, at most this.
	MaxGrace = 12 * time.Hour
	// OnceGrace is how late a missed one-shot task may still run.
	OnceGrace = 24 * time.Hour
)

// Decision is what the scheduler decided about a task whose time came.
type Decision struct {
	Task Task
	// Due is the due time decided about: the latest one that passed.
	Due time.Time
	// Run: start a run (Trigger OnTime or Late); otherwise Due is skipped.
	Run     bool
	Trigger Trigger
	// Missed counts the earlier due times that passed unrun since the
	// last one handled (Wrasse closed, the computer asleep).
	Missed int
	// Note says why, in words for the run's record.
	Note string
}

// Host carries out the scheduler's decisions: it records them (and the
// task's Handled time) and starts runs. Due is called on the scheduler's
// goroutine and must return at once; a run goes on in the background and
// reports its end with Scheduler.Finished.
type Host interface {
	Due(d Decision)
}

// Options configure a Scheduler.
type Options struct {
	Clock Clock
	// Location is the person's time zone (default time.Local).
	Location *time.Location
	Host     Host
	Logger   *slog.Logger
}

// Scheduler keeps every task's next due time and wakes once per due time:
// one timer, armed for the earliest, re-armed when tasks change.
type Scheduler struct {
	opts Options
	log  *slog.Logger

	mu      sync.Mutex
	entries map[ID]*entry
	kick    chan struct{}
	wakeups atomic.Int64

	// idle, when set (tests), learns the time the loop waits for each
	// time it starts waiting (zero: nothing is due ever).
	idle func(next time.Time)
}

type entry struct {
	task    Task
	next    time.Time
	running bool
}

// New returns a scheduler with no tasks; Run starts it.
func New(opts Options) *Scheduler {
	if opts.Clock == nil {
		opts.Clock = SystemClock{}
	}
	if opts.Location == nil {
		opts.Location = time.Local
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Scheduler{opts: opts, log: log, entries: map[ID]*entry{}, kick: make(chan struct{}, 1)}
}

// Location is the time zone schedules are read in.
func (s *Scheduler) Location() *time.Location { return s.opts.Location }

// Set adds t or replaces the task with its id; its next due time counts
// from t.Handled (or t.Created when it never ran).
func (s *Scheduler) Set(t Task) {
	s.mu.Lock()
	e := s.entries[t.ID]
	if e == nil {
		e = &entry{}
		s.entries[t.ID] = e
	}
	e.task = t
	e.next = s.firstDue(t)
	s.mu.Unlock()
	s.poke()
}

// firstDue is when t next comes due, counting from its last handled due
// time; it may lie in the past (a missed run).
func (s *Scheduler) firstDue(t Task) time.Time {
	if !t.Enabled {
		return time.Time{}
	}
	base := t.Handled
	if base.IsZero() {
		// A new task's first run is its schedule's first time after it
		// was made (an every task's one interval later).
		base = t.Created
	}
	return t.Schedule.Next(base, s.opts.Location)
}

// Remove forgets task id.
func (s *Scheduler) Remove(id ID) {
	s.mu.Lock()
	delete(s.entries, id)
	s.mu.Unlock()
	s.poke()
}

// Next is when task id runs next (zero: never, or not known).
func (s *Scheduler) Next(id ID) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.entries[id]; e != nil {
		return e.next
	}
	return time.Time{}
}

// Running reports whether a run of task id is going.
func (s *Scheduler) Running(id ID) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.entries[id]
	return e != nil && e.running
}

// Begin marks a run of task id as going (Run now); ErrRunning when one
// already is. A task the scheduler does not know is begun too (and
// tracked until Finished).
func (s *Scheduler) Begin(t Task) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.entries[t.ID]
	if e == nil {
		e = &entry{task: t, next: s.firstDue(t)}
		s.entries[t.ID] = e
	}
	if e.running {
		return fmt.Errorf("%s %q: %w", t.ID, t.Name, ErrRunning)
	}
	e.running = true
	return nil
}

// Finished marks the run of task id as ended.
func (s *Scheduler) Finished(id ID) {
	s.mu.Lock()
	if e := s.entries[id]; e != nil {
		e.running = false
	}
	s.mu.Unlock()
}

// Wakeups counts the times the timer woke the scheduler.
func (s *Scheduler) Wakeups() int64 { return s.wakeups.Load() }

func (s *Scheduler) poke() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// Run decides about every task that is due now (missed runs at start),
// then sleeps until the earliest next due time, until ctx ends.
func (s *Scheduler) Run(ctx context.Context) error {
	for {
		// This pass reads every change made so far, so a change's kick
		// still pending (Set before Run, or during the last pass) would
		// only wake the loop for nothing.
		select {
		case <-s.kick:
		default:
		}
		s.wake(s.opts.Clock.Now())
		next := s.earliest()
		var timer Timer
		var fire <-chan struct{}
		if !next.IsZero() {
			timer = s.opts.Clock.At(next)
			fire = timer.C()
		}
		if s.idle != nil {
			s.idle(next)
		}
		select {
		case <-ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return nil
		case <-fire:
			s.wakeups.Add(1)
		case <-s.kick:
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

// earliest is the soonest next due time of any task.
func (s *Scheduler) earliest() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	var min time.Time
	for _, e := range s.entries {
		if !e.next.IsZero() && (min.IsZero() || e.next.Before(min)) {
			min = e.next
		}
	}
	return min
}

// wake decides about every task due at or before now, in due order.
func (s *Scheduler) wake(now time.Time) {
	var out []Decision
	s.mu.Lock()
	for _, e := range s.entries {
		if e.next.IsZero() || e.next.After(now) || !e.task.Enabled {
			continue
		}
		d := s.decide(e, now)
		e.task.Handled = d.Due
		e.next = e.task.Schedule.Next(d.Due, s.opts.Location)
		if d.Run {
			e.running = true
		}
		d.Task = e.task
		out = append(out, d)
	}
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Due.Equal(out[j].Due) {
			return out[i].Due.Before(out[j].Due)
		}
		return out[i].Task.ID < out[j].Task.ID
	})
	for _, d := range out {
		s.log.Info("scheduled task due", "task", d.Task.ID.String(), "due", d.Due, "run", d.Run, "missed", d.Missed, "note", d.Note)
		s.opts.Host.Due(d)
	}
}

// decide applies the missed-run rule to e at now (e.next <= now).
func (s *Scheduler) decide(e *entry, now time.Time) Decision {
	loc := s.opts.Location
	sch := e.task.Schedule
	latest, missed := s.latestDue(sch, e.next, now)
	late := now.Sub(latest)
	d := Decision{Due: latest, Missed: missed}
	when := latest.In(loc).Format("Mon 2 Jan 15:04")
	switch {
	case e.running:
		d.Note = fmt.Sprintf("skipped: the run before it was still going at %s", when)
	case late <= OnTimeSlack:
		d.Run, d.Trigger = true, OnTime
	case !sch.Recurring():
		if late < OnceGrace {
			d.Run, d.Trigger = true, Late
			d.Note = fmt.Sprintf("ran late: it was due at %s, %s earlier, while Wrasse was closed or the computer asleep", when, roughly(late))
		} else {
			d.Note = fmt.Sprintf("skipped: it was due at %s, more than a day earlier, while Wrasse was closed or the computer asleep", when)
		}
	default:
		grace := min(sch.Period(latest, loc)/2, MaxGrace)
		if late <= grace {
			d.Run, d.Trigger = true, Late
			d.Note = fmt.Sprintf("ran late: it was due at %s, %s earlier, while Wrasse was closed or the computer asleep", when, roughly(late))
		} else {
			d.Note = fmt.Sprintf("skipped: it was due at %s, %s earlier, while Wrasse was closed or the computer asleep; "+
				"a missed run still runs within %s (half the time to its next run, at most 12 hours)", when, roughly(late), roughly(grace))
		}
	}
	if missed > 0 {
		d.Note = joinNote(d.Note, fmt.Sprintf("%d earlier due %s passed unrun", missed, plural(missed, "time", "times")))
	}
	return d
}

// latestDue is the last due time of sch at or before now, starting from
// first (itself due), and how many due times before it were passed over.
func (s *Scheduler) latestDue(sch Schedule, first, now time.Time) (time.Time, int) {
	if sch.Kind == Every && sch.Interval > 0 {
		n := now.Sub(first) / sch.Interval
		return first.Add(n * sch.Interval), int(n)
	}
	latest, missed := first, 0
	for {
		n := sch.Next(latest, s.opts.Location)
		if n.IsZero() || n.After(now) {
			return latest, missed
		}
		latest = n
		missed++
	}
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// roughly says a duration the way a person would: "3 min", "5 h 20 min",
// "2 days".
func roughly(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d.Minutes()))
	case d < 48*time.Hour:
		h, m := int(d.Hours()), int(d.Minutes())%60
		if m == 0 {
			return fmt.Sprintf("%d h", h)
		}
		return fmt.Sprintf("%d h %d min", h, m)
	}
	return fmt.Sprintf("%d days", int(d.Hours()/24))
}
