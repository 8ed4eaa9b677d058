package signin

import "errors"

var (
	// ErrSignIn is a sign-in that did not complete: the browser step, the
	// authorization server's refusal, discovery or registration failing.
	ErrSignIn = errors.New("MCP sign-in failed")
	// ErrBadEndpoint is a server address that is not http(s).
	ErrBadEndpoint = errors.New("not an http(s) MCP server address")
	// ErrNoBrowser is no way found to open a browser.
	ErrNoBrowser = errors.New("no browser to open")
)
