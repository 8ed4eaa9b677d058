package anthropic

import "errors"

var (
	// ErrConfig reports an unusable Config; the wrapped message says which field.
	ErrConfig = errors.New("anthropic provider: invalid configuration")
	// ErrNoAPIKey reports a Config for api.anthropic.com without a key.
	ErrNoAPIKey = errors.New("anthropic provider: no API key: save one in the model settings or set ANTHROPIC_API_KEY")
)
