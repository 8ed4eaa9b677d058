// Package provider defines how Wrasse talks to language models: one
// streaming request at a time, with tool schemas, streamed text and tool
// calls, token usage, and failures normalised into *Error so the
// conversation can say plainly what went wrong.
//
// There are only a few types to read first: a Provider streams one
// Request (the Messages so far, the Tools on offer) into a Response (text,
// ToolCalls, Usage), reporting each Event as it arrives; every failure is
// an *Error whose ErrorKind says what went wrong; WithRetry wraps a
// Provider with RetryOptions.
//
// Implementations live in subpackages (openai, anthropic) and use the
// providers' official SDKs with the SDKs' own retries turned off. Their
// HTTP clients follow no redirect to another origin
// (SameOriginRedirects), so a key never leaves its base URL's; a new
// provider (Ollama's own API, say) does the same. Retrying
// is done once, here, by WithRetry: it knows what was already shown to the
// user, so a retry never repeats text.
//
// ListModels lists a provider's models for a model picker, and Probe makes
// one tiny request to say in plain words whether a configuration works.
// Tests fake a model with package providertest.
package provider
