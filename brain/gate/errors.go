package gate

import "errors"

// Sentinel errors; callers test them with errors.Is.
var (
	// ErrNoApprover means a call needed the user's approval and no one could
	// be asked (no window, no terminal), so it was denied.
	ErrNoApprover = errors.New("no one to ask for approval (running without a window or terminal)")
	// ErrInvalidJSON means CanonicalJSON was given text that is not JSON.
	ErrInvalidJSON = errors.New("not valid JSON")
	// ErrBadCommandRule means an allowed command pattern cannot be one
	// (ParseCommandRule says why).
	ErrBadCommandRule = errors.New("not an allowed command pattern")
	// ErrBadHostPattern means an item of a trusted host list cannot be
	// one (CheckHostPattern says why).
	ErrBadHostPattern = errors.New("not a host pattern")
)
