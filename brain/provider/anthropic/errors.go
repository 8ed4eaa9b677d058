package anthropic

import "errors"

var (
	// ErrConfig reports an unusable Config; the wrapped message says which field.
	ErrConfig = errors.New("anthropic provider: invalid configuration")
	// ErrNoAPIKey reports a Config for api.anthropic.com without a key.
	ErrNoAPIKey = errors.New("anthropic provider: no API key: store one with `wrasse secrets set anthropic_api_key` or set ANTHROPIC_API_KEY")
)
