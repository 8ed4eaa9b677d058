package ollama

import "errors"

// ErrConfig reports an unusable Config; the wrapped message says which field.
var ErrConfig = errors.New("ollama provider: invalid configuration")
