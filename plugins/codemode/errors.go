package codemode

import (
	"errors"

	"github.com/wrasse-app/wrasse/plugins/internal/childproc"
)

// Sentinel errors of Run. Each wraps the detail in its message.
var (
	// ErrRefused: the program was refused before it ran (an import it may
	// not use, a goroutine, Go the interpreter does not support, no main).
	ErrRefused = errors.New("the program was refused before it ran")
	// ErrCompile: the interpreter could not compile the program.
	ErrCompile = errors.New("the program does not compile")
	// ErrPanic: the program panicked.
	ErrPanic = errors.New("the program panicked")
	// ErrTimeout: the program ran longer than its deadline and was stopped.
	ErrTimeout = errors.New("the program ran too long")
	// ErrOutputLimit: the program printed more than the output cap and was
	// stopped; Result.Output holds the start of what it printed.
	ErrOutputLimit = errors.New("the program printed too much")
	// ErrStopped: the run was cancelled (the turn was stopped).
	ErrStopped = errors.New("the program was stopped")
	// ErrCrashed: the program's process died (out of memory, a fatal
	// runtime error).
	ErrCrashed = errors.New("the program's process crashed")
	// ErrVersion: the program process speaks another protocol version
	// than Wrasse (the executable on disk was replaced under the running
	// app); restarting Wrasse mends it.
	ErrVersion = childproc.ErrVersion
	// ErrNoProgram: the arguments held no program.
	ErrNoProgram = errors.New("no program")
)

// errOutput and errDeadline are the causes a run is cancelled with when it
// printed too much or ran out of time (inside the program process).
var (
	errOutput   = errors.New("output limit")
	errDeadline = errors.New("deadline")
)

// kinds names the sentinels that cross the process boundary.
var kinds = []struct {
	name string
	err  error
}{
	{"refused", ErrRefused}, {"compile", ErrCompile}, {"panic", ErrPanic}, {"timeout", ErrTimeout},
	{"output", ErrOutputLimit}, {"stopped", ErrStopped}, {"crashed", ErrCrashed}, {"version", ErrVersion},
}
