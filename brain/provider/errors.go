package provider

import "errors"

var (
	// ErrNoModelList reports a provider that cannot list its models.
	ErrNoModelList = errors.New("this provider cannot list its models: type the model name instead")
	// ErrNoProvider reports a nil Provider given to ListModels or Probe.
	ErrNoProvider = errors.New("no model provider is configured: choose one in the model settings")
	// ErrCrossOriginRedirect reports a redirect to another origin than the
	// base URL's, refused so the key does not follow it (SameOriginRedirects).
	ErrCrossOriginRedirect = errors.New("the server redirected the request to another address, which was not followed")
)
