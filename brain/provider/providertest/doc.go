// Package providertest is test support for everything that talks to a
// model: the provider packages, the agent, the CLI and the window. It is
// imported only by tests (and smoke tests that run a real wrasse binary
// against it).
//
// It offers three fakes, from the wire down to the interface:
//
//   - Model is a fake model server speaking the real wire formats: OpenAI's
//     streaming Chat Completions (/v1/chat/completions) or Anthropic's
//     streaming Messages (/v1/messages), plus GET /v1/models. It is scripted
//     by turns, one Reply per model response, built from Parts (Text,
//     ToolCall, Status, Hold, Wait, Cut, Usage). It records every request,
//     decoded (model, system prompt, messages, tools), so a test can assert
//     what was sent. Point a real provider, or a real wrasse binary, at
//     BaseURL. WithPromptCache makes its usage come from PromptCache, a
//     simulation of each provider's prefix cache; StartModel runs one
//     outside a test (wrasse-bench).
//   - Provider plays the same Parts in memory as a provider.Provider, for
//     tests of the conversation loop that need no HTTP (and can inject any
//     *provider.Error with Fail).
//   - Server is the low-level scripted-reply server the provider packages
//     test their decoders with: raw bodies (SSE transcripts, error bodies),
//     Hold and Block, recorded raw requests. Transport is its in-memory
//     counterpart for fuzzing.
//
// # Running out of script
//
// A request that finds no Reply left fails the test (t.Errorf) and gets an
// answer the client sees at once: HTTP 400 with an error body saying that
// the script ran out (Model), or a bad_request *provider.Error (Provider).
// Nothing hangs.
//
// # Waiting and cancelling
//
// Hold makes a response wait, after whatever came before it, until the
// client goes away; Wait(ch) waits for ch. Each time a response starts
// waiting, Waiting() receives once, so a test knows when to cancel or step
// without sleeping. SetChunkDelay spaces every streamed chunk out, for UI
// smoke tests that should see text arrive piece by piece; no assertion
// should depend on it.
//
// All types are safe for concurrent use.
package providertest
