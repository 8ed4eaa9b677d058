package provider

import "errors"

var (
	// ErrNoModelList reports a provider that cannot list its models.
	ErrNoModelList = errors.New("this provider cannot list its models: type the model name instead")
	// ErrNoProvider reports a nil Provider given to ListModels or Probe.
	ErrNoProvider = errors.New("no model provider is configured: choose one in the model settings")
)
