package assistant

import "errors"

// Sentinel errors of the application core.
var (
	// ErrConfig marks a configuration that cannot be used (an unknown
	// provider, say).
	ErrConfig = errors.New("invalid configuration")
	// ErrNoConversation means the conversation asked for does not exist.
	ErrNoConversation = errors.New("no such conversation")
	// ErrNotUserMessage means an edit or regenerate named something other
	// than a message the user wrote.
	ErrNotUserMessage = errors.New("not a user message")
	// ErrRunning means another Wrasse holds the workspace; the instance
	// socket could not take the request either.
	ErrRunning = errors.New("Wrasse is already open with this workspace")
	// ErrNotLoaded means a conversation has not loaded the capability
	// asked to unload.
	ErrNotLoaded = errors.New("not loaded")
	// ErrNotRunning means no process serves the workspace's instance
	// socket.
	ErrNotRunning = errors.New("no running Wrasse serves this workspace")
)
