package mcp

import "errors"

// Sentinel errors; callers match them with errors.Is.
var (
	// ErrBadRequest: the load request has no capability or mcp: block.
	ErrBadRequest = errors.New("not an MCP capability")
	// ErrConnect: the server could not be started or did not initialise.
	ErrConnect = errors.New("MCP server did not start")
	// ErrCrashed: the server stopped while in use.
	ErrCrashed = errors.New("MCP server stopped")
	// ErrBackoff: the server crashed repeatedly; it restarts after a pause.
	ErrBackoff = errors.New("MCP server is pausing after repeated crashes")
	// ErrTimeout: a call or the connection ran past its timeout.
	ErrTimeout = errors.New("MCP server did not answer in time")
	// ErrClosed: the runtime was closed (the capability changed or the app quits).
	ErrClosed = errors.New("MCP server runtime closed")
	// ErrSecret: a ${secret:NAME} the block references is not stored.
	ErrSecret = errors.New("secret for the MCP server is not set")
	// ErrSecretRefused: the block references a secret the person did not
	// assign to the capability.
	ErrSecretRefused = errors.New("MCP server may not use the secret")
	// ErrNotApproved: a file the server's command runs (its program, a
	// script) is not what the person approved; it starts once they approve
	// it again.
	ErrNotApproved = errors.New("MCP server's files changed since it was approved")
	// ErrBuildsInProject: the block names a build folder for its
	// build-and-run runner inside the project the approval covers, on its
	// command line (cargo --target-dir target), where Wrasse cannot move it;
	// its first build would undo the approval.
	ErrBuildsInProject = errors.New("MCP server would build into its approved project")
	// ErrBuildsOutsideOwnCache: the block names a build folder for its
	// build-and-run runner outside the project, on its command line
	// (cargo --target-dir ../shared-target), where Wrasse cannot move it;
	// the runner would start what it finds built there, which the approval
	// does not cover (a42).
	ErrBuildsOutsideOwnCache = errors.New("MCP server would build outside its own cache")
	// ErrCrossOriginRedirect: a server reached by URL redirected to another
	// origin, where its headers (secrets) must not go.
	ErrCrossOriginRedirect = errors.New("MCP server redirected to another origin")
	// ErrBadLogLevel: a logging level that is not one of LogLevels.
	ErrBadLogLevel = errors.New("not an MCP logging level")
	// ErrBadElicitation: a server's question (elicitation/create) that is
	// not a form Wrasse can show, or an answer that is no protocol action.
	ErrBadElicitation = errors.New("MCP server's question cannot be shown")
	// ErrSamplingDeclined: the person did not let the server's request
	// for a completion (sampling/createMessage) reach the model, or no
	// one could be asked.
	ErrSamplingDeclined = errors.New("the request for a completion was declined")
	// ErrBadSampling: a request for a completion Wrasse cannot answer
	// (content that is not text).
	ErrBadSampling = errors.New("MCP server's request for a completion cannot be answered")
	// ErrRefused: the server answered a request (a prompt, a resource)
	// with an error; its message follows.
	ErrRefused = errors.New("MCP server refused the request")
	// ErrBadTemplate: a resource template that cannot be filled in, or a
	// variable left empty.
	ErrBadTemplate = errors.New("MCP resource template cannot be filled in")
	// ErrNoSubscribe: the server does not offer resources/subscribe.
	ErrNoSubscribe = errors.New("MCP server offers no resource subscriptions")
)
