package agent

import "errors"

// Sentinel errors of the turn loop; Turn wraps them with detail.
var (
	// ErrNoProvider means no model is set up, so no turn can be answered.
	ErrNoProvider = errors.New("no model is set up")
	// ErrModel means the model failed to answer (the wrapped error is the
	// provider's normalised *provider.Error).
	ErrModel = errors.New("the model could not answer")
	// ErrMaxSteps means the turn hit its bound on model requests.
	ErrMaxSteps = errors.New("the turn reached its step limit")
	// ErrInterrupted means the turn was cancelled before it finished.
	ErrInterrupted = errors.New("the turn was interrupted")
	// ErrBusy means a turn is already running in that conversation.
	ErrBusy = errors.New("a turn is already running in this conversation; wait for it or stop it first")
	// ErrEmptyMessage means the user's message was blank.
	ErrEmptyMessage = errors.New("the message is empty")
	// ErrConfig means Options lack something required.
	ErrConfig = errors.New("agent: invalid options")
)
