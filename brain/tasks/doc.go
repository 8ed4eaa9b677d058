// Package tasks is Wrasse's scheduled tasks: what a task is, when it runs,
// and the scheduler that decides each due time. It knows nothing of
// models, conversations or the window: the application core
// (brain/assistant) stores tasks, carries out the scheduler's decisions
// as ordinary turns and tells the front ends.
//
// # Schedules
//
// A Schedule is one of once at a date and time, every N minutes or hours,
// daily, weekdays or weekly at a time of day, or a five-field cron
// expression (read with robfig/cron's parser). Parse reads the forms
// people write ("every weekday at 8am", "in 2h", "cron 0 8 * * 1-5");
// String writes the form Parse reads back. Times of day are wall-clock
// times in the person's time zone: a daily 08:00 stays at 08:00 when the
// clocks change, a time the clocks skip runs when they jump past it, and
// a time they repeat runs once. An every schedule counts real time from
// its anchor (the moment it was made).
//
// # The scheduler
//
// Scheduler keeps each task's next due time and one timer, armed for the
// earliest: it wakes once per due time and never polls. Its Clock is an
// interface so tests move time (taskstest.Clock) across midnight, a
// daylight-saving change or a sleep of days without waiting. The system
// clock's timers on Linux are timerfds on CLOCK_REALTIME at the absolute
// due time, which the kernel fires on waking from a sleep that passed it
// (Go's timers count only time awake) and when the wall clock is set.
//
// # Missed runs
//
// When a task's time passed unrun (Wrasse was closed, the computer
// asleep), only its latest due time counts: a recurring task still runs
// if that time is within half its period, at most MaxGrace (12 hours),
// and is otherwise recorded as skipped; a one-shot task runs late if it
// was missed by less than a day. A run that comes due while the previous
// run of the same task still goes is skipped and recorded, so runs never
// pile up. Task.Handled, the last due time run or skipped, is what lets a
// restart apply the rule without repeating anything.
package tasks
