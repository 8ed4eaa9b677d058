// Package openai is the provider for every server that speaks OpenAI's Chat
// Completions API: OpenAI itself, Ollama (the default, on
// http://localhost:11434/v1), OpenRouter, LM Studio, llama.cpp's server and
// vLLM. It uses the official openai-go SDK with a configurable base URL.
//
// # Mapping
//
// The system prompt becomes the first "system" message; assistant tool calls
// become tool_calls; each tool result becomes a "tool" message (a failed one
// is prefixed "Error: " since the API has no error flag; a step's result
// images follow its tool messages in one user message, see images.go). Tool schemas are
// passed through as the function's JSON Schema parameters.
//
// The history's messages are encoded once: the provider keeps the JSON of
// recent requests' messages (up to 2 MiB, about twenty full windows) and
// writes each body from them, so a request late in a long conversation
// encodes what is new since the one before, not its whole window, also
// after a turn in another conversation (encode.go).
//
// # Streaming
//
// Text deltas are reported as they arrive. Tool-call deltas are gathered by
// index (servers interleave several calls and split their arguments across
// chunks) and each call is reported once the choice's finish_reason arrives.
// stream_options.include_usage asks for the final usage chunk; cached prompt
// tokens come from prompt_tokens_details.cached_tokens and are part of
// InputTokens.
//
// # Models
//
// ListModels reads GET /models (Ollama, OpenRouter, LM Studio, llama.cpp and
// vLLM all serve it); the API has no display names, so DisplayName is the
// ID. A server without the endpoint answers 404, reported as ErrNotFound
// saying the model name must be typed.
//
// # Failures
//
// The SDK's own retries are off (see provider.WithRetry). Every failure is a
// *provider.Error, returned with the partial response; a stream that ends
// without a finish_reason is ErrBadStream.
package openai
