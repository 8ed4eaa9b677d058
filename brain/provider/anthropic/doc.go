// Package anthropic is the provider for Anthropic's Messages API, using the
// official anthropic-sdk-go.
//
// # Mapping
//
// The system prompt travels in the system parameter as one text block.
// Three cache_control breakpoints mark the last tool that is not deferred,
// the system prompt and the newest message's last block, so each request
// reads from the prompt cache everything up to the previous request's newest
// message; to models that support them, loadable tools are declared deferred
// and made callable by tool_reference blocks (cache.go). Assistant tool calls become tool_use blocks; tool results
// become tool_result blocks (is_error set for failures; images as base64
// image blocks after the text, see images.go) and consecutive
// results are merged into one user message, as the API requires. Tool
// schemas are sent byte for byte as input_schema. Empty turns are dropped
// (the API rejects empty text blocks). max_tokens is required by the API:
// Request.MaxTokens, else Config.MaxTokens, else DefaultMaxTokens.
//
// # Streaming
//
// text_delta events are reported as they arrive; a tool_use block's
// input_json_delta pieces are joined and the call is reported at its
// content_block_stop. Usage comes from message_start (input and cache
// tokens) updated by message_delta (output tokens). InputTokens counts all
// input tokens including cache reads and writes; CachedTokens is the cache
// reads, CacheWriteTokens the writes.
//
// # Models
//
// ListModels reads every page of GET /v1/models, with display names.
//
// # Failures
//
// The SDK's own retries are off (see provider.WithRetry). Every failure,
// including an "event: error" inside the stream (overloaded_error), is a
// *provider.Error returned with the partial response; a stream that ends
// without message_stop is ErrBadStream.
package anthropic
