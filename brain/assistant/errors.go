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
	//lint:ignore ST1005 Wrasse is a name
	ErrRunning = errors.New("Wrasse is already open with this workspace")
	// ErrNotLoaded means a conversation has not loaded the capability
	// asked to unload.
	ErrNotLoaded = errors.New("not loaded")
	// ErrNotRunning means no process serves the workspace's instance
	// socket.
	ErrNotRunning = errors.New("no running Wrasse serves this workspace")
	// ErrUntrustedInstance means the instance socket, its folder or its
	// launch token is not this user's alone (a link, another owner, a
	// wider mode) or is answered by another user: nothing was sent to it.
	ErrUntrustedInstance = errors.New("refusing to talk to the socket of this workspace")
	// ErrInvalidMCP means an MCP server to add cannot be one (no command
	// or URL, a bad name or header); nothing was written.
	ErrInvalidMCP = errors.New("invalid MCP server")
	// ErrStagingChanged means what was installed is not what was checked
	// and approved: something changed the staged copy in between.
	ErrStagingChanged = errors.New("the staged capability changed before it was installed")
	// ErrMCPUnsupported means an MCP server uses a field this build's
	// SKILL.md cannot keep yet; nothing was written.
	ErrMCPUnsupported = errors.New("not supported by this build")
	// ErrNotMCP means the capability named is not an MCP server.
	ErrNotMCP = errors.New("not an MCP server")
	// ErrKeyHost means the base URL points to a host the provider's API
	// key is not bound to; the key was not sent.
	ErrKeyHost = errors.New("the API key is not sent to this host")
	// ErrSecretNotAssigned means a capability referenced a secret the
	// person did not assign to it; nothing was resolved.
	ErrSecretNotAssigned = errors.New("secret not assigned to the capability")
	// ErrProviderKey means a provider's API key was to be assigned to a
	// capability without the person saying so explicitly.
	ErrProviderKey = errors.New("a provider API key is not assigned to capabilities unless you say so")
	// ErrNothingToContinue means Continue was asked of a conversation
	// whose last reply did not stop at the model's length limit.
	ErrNothingToContinue = errors.New("nothing to continue")
	// ErrUnknownModel means a scheduled task names a model the model
	// server does not offer.
	ErrUnknownModel = errors.New("no such model")
	// ErrUnknownCapability means a scheduled task names a capability that
	// is not installed.
	ErrUnknownCapability = errors.New("no such capability")
	// ErrNoTask means the scheduled task or proposal asked for does not
	// exist.
	ErrNoTask = errors.New("no such scheduled task")
)
