package tasks

import "errors"

// Sentinel errors; callers test them with errors.Is. Call sites wrap them
// with what was being done.
var (
	// ErrSchedule means a schedule could not be read: its words, a time,
	// a cron expression.
	ErrSchedule = errors.New("not a schedule")
	// ErrNeverFires means a schedule reads but has no time to run at (a
	// once in the past, a cron expression for the 30th of February).
	ErrNeverFires = errors.New("the schedule never fires")
	// ErrInvalidTask means a task's name, prompt or options are not
	// acceptable.
	ErrInvalidTask = errors.New("invalid task")
	// ErrRunning means a run of the task is still going.
	ErrRunning = errors.New("a run of this task is still going")
	// ErrStopped means the scheduler is not running.
	ErrStopped = errors.New("the scheduler is not running")
)
