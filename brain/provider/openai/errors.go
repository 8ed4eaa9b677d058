package openai

import "errors"

// ErrConfig reports an unusable Config; the wrapped message says which field.
var ErrConfig = errors.New("openai provider: invalid configuration")
